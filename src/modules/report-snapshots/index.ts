/** The report-snapshots module's public face: the module, and which tax years a snapshot closed. */
export { ReportSnapshotsModule } from './report-snapshots.module.js';
export { SnapshottedYears, SnapshottedYearsModule, type YearSnapshot } from './snapshotted-years.js';
