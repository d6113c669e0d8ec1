/** The compute module's public face: what other modules may import (docs/modules.md). */
export { ComputeModule } from './compute.module.js';
export { ComputePool } from './compute-pool.js';
export {
  HEAVY_WORK_RETRY_AFTER_SECONDS,
  HeavyWorkAdmission,
  HeavyWorkBusyError,
} from './heavy-work-admission.js';
export {
  lotKey,
  reviveForm8949Line,
  reviveLineTotals,
  reviveLotSelectionCheck,
  reviveSafeHarborAllocation,
  reviveSnapshots,
  reviveTermLineTotals,
  selectionsData,
  type BalanceSnapshotsData,
  type Form1099DaOutcome,
  type LotSelectionCheckData,
  type LotSelectionCheckOutcome,
  type SafeHarborData,
  type MethodData,
  type OpenLotsData,
  type SelectionData,
  type TaxYearData,
} from './compute-tasks.js';
