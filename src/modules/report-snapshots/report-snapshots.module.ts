import { Module } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { ComputeModule } from '../compute/index.js';
import { AccountsModule } from '../accounts/index.js';
import { IntegrityModule } from '../integrity/index.js';
import { TaxModule } from '../tax/index.js';
import { ReportSnapshotsController } from './report-snapshots.controller.js';
import { ReportSnapshotsService } from './report-snapshots.service.js';

/**
 * Report snapshots (issue 18 item 6, docs/tax-report.md "Report snapshots").
 *
 * Owns: the `report_snapshot` table (no foreign key to `account`: a snapshot is a record and
 * outlives the account's unlink). Calls `tax` (the report, as the live endpoints make it),
 * `integrity` (the checksum), `accounts` (resolving the account) and `audit` (its entry, in the
 * snapshot's transaction). `SnapshottedYearsModule` (snapshotted-years.ts) answers, for the
 * cost-basis module, which tax years a snapshot closed (a late lot identification is refused there).
 */
@Module({
  imports: [TaxModule, IntegrityModule, AccountsModule, ComputeModule],
  controllers: [ReportSnapshotsController],
  providers: [ReportSnapshotsService, CursorCodec],
})
export class ReportSnapshotsModule {}
