/** For tests only (the lint rule lets test/ import it, never src/): the accounts repository. */
export { AccountsRepository } from './repositories/accounts.repository.js';
