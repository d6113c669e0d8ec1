/**
 * npm run cli -- tenant create acme --name "Acme Advisors"
 * npm run cli -- client create --tenant acme --scopes partner
 * npm run cli -- client rotate <clientId> | client disable <clientId> | client enable <clientId>
 */
import 'reflect-metadata';
import { CommandFactory } from 'nest-commander';
import { CliModule } from './cli/cli.module.js';
import { ConfigValidationError, loadConfig } from './config/app-config.js';
import { DomainError } from './common/errors/domain-error.js';

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
  try {
    const config = loadConfig();
    await CommandFactory.run(CliModule.forRoot(config), {
      logger: ['error'],
      errorHandler: (error) => {
        console.error(describeError(error));
        process.exit(1);
      },
      serviceErrorHandler: (error) => {
        console.error(describeError(error));
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
