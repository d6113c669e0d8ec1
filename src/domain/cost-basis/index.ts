/**
 * Cost basis: lots, disposals, realized and unrealized gains for balances and the tax
 * report (design §7, rules in docs/cost-basis.md). Owns the numbers; never does I/O,
 * rounds to cents, or knows about HTTP, the database or the clock.
 */
export { computeCostBasis, lotSelectionKey } from './cost-basis-engine.js';
export {
  COST_BASIS_METHODS,
  COST_BASIS_METHODS_MESSAGE,
  DEFAULT_COST_BASIS_METHOD,
  STANDING_ORDERS,
} from './cost-basis-method.js';
export {
  DIRECTIONS,
  FEE_DIRECTIONS,
  INBOUND_DIRECTIONS,
  isDirection,
  PRICED_DIRECTIONS,
  TRANSFER_DIRECTIONS,
} from './directions.js';
export { CostBasisErrorCode, InvalidLedgerEntryError } from './cost-basis.errors.js';
export type * from './cost-basis.types.js';
export { holdingTerm, longTermFrom } from './holding-period.js';
export { disposalAmounts, type DisposalAmounts } from './disposal-amounts.js';
export {
  decodeLedger,
  encodeLedger,
  encodeLedgerRows,
  joinEncodedLedgers,
  ledgerBuffers,
  type EncodedLedger,
  type EncodedTextColumn,
  type LedgerRowFields,
} from './ledger-encoding.js';
export {
  electedMethod,
  electionInForce,
  methodForElections,
  type MethodElection,
} from './method-elections.js';
export { compareForProcessing, sortForProcessing } from './processing-order.js';
export { CONVERSION_TRANSFER_PREFIX, isConversionTransferId } from './transfer-matching.js';
export {
  summarizeByAccountAndSymbol,
  valuePositions,
  type PositionSummary,
  type PricesUsdBySymbol,
  type ValuedPosition,
} from './position-summary.js';
export { disposalsInYear, splitByTerm, type TermTotals } from './tax-year.js';
export {
  computeSafeHarborAllocation,
  SAFE_HARBOR_SHORTFALL_ORIGIN,
  SAFE_HARBOR_TRANSITION_AT,
  type SafeHarborAllocation,
  type SafeHarborAsset,
  type SafeHarborInput,
  type SafeHarborPosition,
} from './safe-harbor.js';
