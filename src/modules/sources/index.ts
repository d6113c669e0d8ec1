/**
 * The sources module's public face: what other modules may import. Services hand out plain data
 * (RefreshOutcome, ImportSummary-like counts), never entities.
 */
export { SourcesModule } from './sources.module.js';
export { RefreshService, type RefreshOutcome, type RefreshTrigger } from './refresh/refresh.service.js';
export { STALE_AFTER_MS } from './refresh/refresh-timing.js';
export { LEASE_MS } from './refresh/refresh.service.js';
export {
  REFRESH_BATCH_SIZE,
  RefreshScheduler,
  refreshQueueOf,
  type RefreshAccountJob,
} from './refresh/refresh.scheduler.js';
export {
  BUILT_IN_SOURCES,
  CONNECTOR_TIMEOUT_MS,
  ConnectorRegistry,
  type ConnectorOptions,
} from './connectors/connector.registry.js';
export {
  SourceAuthorizationError,
  SourceUnavailableError,
  singlePage,
  type ConnectorAccount,
  type ConnectorRequest,
  type ConnectorResult,
  type NewAccountContext,
  type SourceConnector,
  type SourceDescription,
  type SourceOptionSpec,
  type SourceTransaction,
} from './connectors/source-connector.js';
export { MAX_DECIMAL_DIGITS, EARLIEST_TRANSACTION } from './connectors/source-transaction.rules.js';
export { CredentialsCipher } from './credentials/credentials-cipher.js';
export {
  parseTransactionsCsv,
  toTransactionsCsv,
  type CsvParseResult,
} from './csv/csv-transactions.parser.js';
export {
  partnerLinkExamples,
  SOURCE_CATALOGUE,
  sourceLinkExamples,
  sourceOptionFields,
} from './connectors/source-catalogue.js';
export { SandboxConnector } from './sandbox/sandbox.connector.js';
export {
  SANDBOX_ACCOUNT_FIXTURES,
  sandboxAccountIds,
  sandboxHouseholdSeed,
  sandboxSourceOptions,
  type SandboxAccountFixture,
  type SandboxAccountIds,
  type SandboxProfile,
} from './sandbox/sandbox-fixtures.js';
export { sandboxAddress } from './sandbox/sandbox-history.js';
export { ImportFileService } from './exports/import-file.service.js';
export { IMPORT_FORMATS, parseImportFile, type ImportParseResult } from './exports/export-files.js';
export {
  DEFAULT_SOURCE_SCHEDULE,
  SOURCE_SCHEDULES,
  SourceSchedules,
  backoffDelayMs,
  type SourceBackoff,
  type SourceSchedule,
} from './refresh/source-schedule.js';
