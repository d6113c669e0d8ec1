/**
 * npm run cli -- tenant create acme --name "Acme Advisors"
 * npm run cli -- client create --tenant acme --scopes partner
 * npm run cli -- client rotate <clientId> | client disable <clientId> | client enable <clientId>
 * npm run cli -- --help | --version
 *
 * Exit status: 0 success (help and version included); 1 the command failed or was used wrongly
 * (the reason on stderr); 75 DATA_DIR is held by another process; 78 invalid configuration.
 */
import './runtime-check.js'; // first: a too-old Node stops here, before anything else loads
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module.js';
import { ConfigValidationError } from './config/app-config.js';
import { loadStartupConfig } from './config/startup-config.js';
import { DomainError } from './common/errors/domain-error.js';
import { DATA_DIR_LOCKED_EXIT_CODE, DataDirectoryLockedError } from './database/data-dir-lock.js';

/** The package's version (dist/src/cli.js → package.json at the root). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** A CLI user needs the field and the reason, not just "validation failed". */
function describeError(error: unknown): string {
  if (error instanceof DomainError && error.fieldErrors) {
    return Object.entries(error.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadStartupConfig();
  } catch (error) {
    console.error(describeError(error));
    process.exit(error instanceof ConfigValidationError ? 78 : 1);
  }
  // Commander answers --help, --version and usage errors itself (status 0 for help and version,
  // 1 for usage errors) before any command runs, so they never open the database.
  await CommandFactory.run(CliModule.forRoot(config), {
    logger: ['error'],
    version: packageVersion(),
    // A failed command: one message, and the status; the application still closes (database
    // closed, DATA_DIR lock released) before the process exits.
    serviceErrorHandler: (error) => {
      console.error(describeError(error));
      process.exitCode = error instanceof DataDirectoryLockedError ? DATA_DIR_LOCKED_EXIT_CODE : 1;
    },
  });
}

void main();
