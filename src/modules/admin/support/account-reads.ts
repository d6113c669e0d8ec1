/**
 * Everything the admin module takes from the accounts and ledger modules, in one place: the
 * support reads (an admin reading a tenant's account data) use their public faces, the partner
 * API's mappers and response shapes, and nothing else.
 */
export { AccountsModule, AccountsService, AdminAccountDto, toAdminAccount } from '../../accounts/index.js';
export {
  AccountDataService,
  BalancesResultDto,
  LedgerApiModule,
  toBalancesResult,
  toTransactionRange,
  toTransactionsResult,
  TransactionsQueryDto,
  TransactionsResultDto,
} from '../../account-data/index.js';
