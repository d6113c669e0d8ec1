/** For tests only (the lint rule lets test/ import it, never src/): the accounts repository. */
export { AccountsRepository } from './repositories/accounts.repository.js';
/** For tests only: the sandbox seed of the account fixtures, run by hand against a scheduler's claims. */
export { SandboxAccountsSeed } from './sandbox-accounts.seed.js';
