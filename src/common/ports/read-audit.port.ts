/**
 * Records a read of account data in the audit trail (docs/audit.md). Implemented by the audit
 * module (AuditService.recordRead); used by its interceptor and by anything that answers a read
 * without Nest's interceptors and so records it itself.
 */
export const READ_AUDIT = Symbol('READ_AUDIT');

export interface AuditedRead {
  readonly tenantId: string;
  readonly actorKind: 'client' | 'admin';
  readonly actorId: string;
  /** e.g. `account.read.balances`. */
  readonly action: string;
  readonly accountId: string | null;
  readonly requestId: string | null;
  readonly status: number;
  readonly details?: Record<string, unknown>;
}

export interface ReadAuditPort {
  /** Never throws and never waits: the entry is appended within AUDIT_READ_FLUSH_MS. */
  recordRead(read: AuditedRead): void;
  /**
   * Whether a read may be answered now: false while AUDIT_READ_BACKLOG reads wait for their
   * append. A path that answers without the audit interceptor takes the route then, whose
   * interceptor waits for room (or answers 503).
   */
  hasRoom(): boolean;
}
