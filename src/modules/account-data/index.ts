/**
 * The ledger's HTTP edge, for AppModule only: the balances and transactions endpoints and the
 * cached balances fast path's module (wired at the root: it runs the global guards; see fast-path/index.ts).
 */
export { LedgerApiModule } from './ledger-api.module.js';
export { LedgerController } from './ledger.controller.js';
export { AccountDataService, BalancesUnavailableReason } from './account-data.service.js';
export { CachedBalancesModule } from './fast-path/cached-balances.module.js';
/** What a support read (admin module) returns: exactly the partner's shapes, from the same mappers. */
export { toBalancesResult, toTransactionsResult } from './ledger.mapper.js';
export { TransactionsQueryDto } from './dto/ledger-queries.dto.js';
export { BalancesResultDto, TransactionsResultDto } from './dto/ledger-responses.dto.js';
export { toTransactionRange } from './dto/transaction-range.js';
