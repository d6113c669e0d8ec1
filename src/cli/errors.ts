/**
 * How a failed command reaches its user: one message on stderr and the exit status. Shared by the
 * CLI's entry (cli.ts) and the service tier's in-process runs of the same commands.
 */
import { DomainError } from '../common/errors/domain-error.js';
import { DATA_DIR_LOCKED_EXIT_CODE, DataDirectoryLockedError } from '../database/data-dir-lock.js';

/** A CLI user needs the field and the reason, not just "validation failed". */
export function describeError(error: unknown): string {
  if (error instanceof DomainError && error.fieldErrors) {
    return Object.entries(error.fieldErrors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}

/** 75 for a DATA_DIR held by another process, 1 for any other failure. */
export function exitCodeOf(error: unknown): number {
  return error instanceof DataDirectoryLockedError ? DATA_DIR_LOCKED_EXIT_CODE : 1;
}
