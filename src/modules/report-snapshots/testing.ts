/** For tests only (the lint rule lets test/ import it, never src/): the snapshots service (close a year). */
export { ReportSnapshotsService } from './report-snapshots.service.js';
