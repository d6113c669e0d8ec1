/**
 * Everything the admin module takes from the accounts module, in one place: the support reads
 * (an admin reading a tenant's account data) use the accounts module's public services, mappers
 * and response shapes and nothing else. The accounts module is being split into ledger, sources
 * and accounts modules; when it moves, only these lines need repointing.
 */
export { AccountsModule } from '../../accounts/accounts.module.js';
export { AccountsService } from '../../accounts/accounts.service.js';
export { AccountDataService } from '../../accounts/account-data.service.js';
export { toAdminAccount, toBalancesResult, toTransactionsResult } from '../../accounts/accounts.mapper.js';
export { TransactionsQueryDto } from '../../accounts/dto/account-queries.dto.js';
export { BalancesResultDto, TransactionsResultDto } from '../../accounts/dto/account-responses.dto.js';
export { AdminAccountDto } from '../../accounts/dto/admin-accounts.dto.js';
export { toTransactionRange } from '../../accounts/dto/query-transforms.js';
