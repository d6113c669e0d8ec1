/**
 * npm run cli -- tenant create acme --name "Acme Advisors"
 * npm run cli -- client create --tenant acme --scopes partner
 * npm run cli -- client rotate <clientId> | client disable <clientId> | client enable <clientId>
 */
import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module.js';
import { ConfigValidationError, loadConfig } from './config/app-config.js';

async function main(): Promise<void> {
  try {
    const config = loadConfig();
    await CommandFactory.run(CliModule.forRoot(config), {
      logger: ['error'],
      errorHandler: (error) => {
        console.error(error.message);
        process.exit(1);
      },
      serviceErrorHandler: (error) => {
        console.error(error.message);
        process.exit(1);
      },
    });
  } catch (error) {
    console.error(
      error instanceof ConfigValidationError ? error.message : error instanceof Error ? error.message : error,
    );
    process.exit(error instanceof ConfigValidationError ? 78 : 1);
  }
}

void main();
