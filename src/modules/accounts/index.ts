/**
 * The accounts module's public face: what other modules may import. AccountsService hands out
 * plain AccountRecords (the row's fields), never entities.
 */
export { AccountsModule } from './accounts.module.js';
export {
  AccountsService,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type AccountPage,
  type ImportSummary,
  type NewAccount,
} from './accounts.service.js';
export type { AccountRecord } from './account-record.js';
export type { AccountKeysetPosition } from './repositories/accounts.repository.js';
export {
  SYNC_STATUSES,
  type BalanceSource,
  type ConnectionStatus,
  type SyncStatus,
} from './entities/account.entity.js';
export { toAdminAccount, toReview, toState } from './accounts.mapper.js';
export { reviewProperty, AccountReviewDto, AccountStateDto } from './dto/account-responses.dto.js';
export { AdminAccountDto, CredentialsShape } from './dto/admin-accounts.dto.js';
// For the admin API's account endpoints (admin/accounts): the request shapes the partner API shares.
export { AdminAccountsQueryDto } from './dto/account-queries.dto.js';
export { ReconnectCredentialsDto } from './dto/link-account.dto.js';
export { declareSourceOptions, sourceFieldDescription, sourceOptionsOf } from './dto/source-options.js';
export {
  ApiImportFileBody,
  IMPORT_FILE_DESCRIPTION,
  IMPORT_FORMAT_DESCRIPTION,
} from './dto/import-file.dto.js';
