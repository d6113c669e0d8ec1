/**
 * Runs one parsed command of the CLI (program.ts): reads the configuration, takes the embedded
 * DATA_DIR (one process per directory), builds the application with the modules the command's
 * group needs (cli.module.ts), opens and migrates the database, runs the command and closes the
 * application (database closed, DATA_DIR released), also when the command fails. cli.ts imports
 * this only when a command runs: help, version and usage errors never load it.
 */
import 'reflect-metadata';
import { ConfigValidationError } from '../config/app-config.js';
import { loadStartupConfig } from '../config/startup-config.js';
import { lockEmbeddedDataDirectory } from '../database/data-dir-lock.js';
import type { CommandName, CommandOptions } from './program.js';
import type { CommandAction } from './tenancy.commands.js';

/** Prints why the configuration is invalid and ends the process with 78 (EX_CONFIG). */
function startupConfig(describe: (error: unknown) => string) {
  try {
    return loadStartupConfig();
  } catch (error) {
    console.error(describe(error));
    process.exit(error instanceof ConfigValidationError ? 78 : 1);
  }
}

export async function runCommand(
  name: CommandName,
  args: string[],
  options: CommandOptions,
  describe: (error: unknown) => string,
): Promise<void> {
  const config = startupConfig(describe);
  // A DATA_DIR held by another process is refused (75) before the application loads. The lock is
  // released when the database closes, or when the process exits.
  lockEmbeddedDataDirectory(config);
  const [{ NestFactory }, { DataSource }, { openDatabase }, { CliModule }, group] = await Promise.all([
    import('@nestjs/core'),
    import('typeorm'),
    import('../database/database.module.js'),
    import('./cli.module.js'),
    name.startsWith('accounts ') ? import('./accounts.commands.js') : import('./tenancy.commands.js'),
  ]);
  const action: CommandAction = group.COMMANDS[name]!;
  const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, group.CommandsModule), {
    logger: ['error'],
  });
  try {
    await openDatabase(app.get(DataSource));
    await action(app, args, options as never);
  } finally {
    await app.close();
  }
}
