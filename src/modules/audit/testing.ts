/** For tests only (the lint rule lets test/ import it, never src/): entries per INSERT, to fill a batch. */
export { INSERT_BATCH } from './audit.service.js';
export { AUDIT_BACKLOG_WAIT_MS, AuditBacklogError } from './audit.service.js';
