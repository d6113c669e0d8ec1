import { Module } from '@nestjs/common';
import { ComputePool } from './compute-pool.js';
import { HeavyWorkAdmission } from './heavy-work-admission.js';

/**
 * Heavy work off the request thread (issue 28; docs/reports.md "Heavy work").
 *
 * Owns: the compute pool (worker threads running the cost-basis engine and the tax figures made
 * from it, compute-tasks.ts, on a compact encoding of the ledger) and the admission of heavy
 * requests (a fair queue keyed by tenant: per-tenant and per-instance caps, 429/503 with
 * Retry-After). Never: reads the database or knows a route (the tax, report-snapshots and cost-basis
 * modules read the ledger inside an admitted slot and hand the pool plain data; the ledger's writer
 * hands it the balances to recompute), or computes a figure
 * itself (src/domain does, in the worker).
 */
@Module({
  providers: [ComputePool, HeavyWorkAdmission],
  exports: [ComputePool, HeavyWorkAdmission],
})
export class ComputeModule {}
