/**
 * The audited write a request is making, for the database transaction that carries its change
 * (issue 18 item 4, docs/audit.md "In the change's transaction").
 *
 * The audit interceptor opens a scope around an audited write's handler (AsyncLocalStorage: on
 * Node 24 it costs no promise hook, and only audited writes open one). The audit module's
 * transaction subscriber appends the request's entry just before the first outermost transaction
 * of that handler that wrote something commits, in that transaction: the change and its audit entry
 * commit together or not at all. A handler that commits no change is recorded after it answers.
 *
 * Services may say what the entry cannot know before the handler returns (the id of the account
 * just linked, the tenant of the client just created) with `noteAuditSubject`, before their
 * transaction commits; and a write that would otherwise run without a transaction runs in one when
 * a scope is open (`inAuditedTransaction`), so it gets its entry in the same way.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

export interface AuditSubject {
  /** The account the write created or changed, when the route's target comes from its answer. */
  accountId?: string;
  /** The tenant the entry belongs to (an admin creating a tenant or a client of a tenant). */
  tenantId?: string;
  /** That tenant's slug, for the entry's details. */
  tenantSlug?: string;
}

export interface AuditScope {
  /** False once the handler has answered or failed: later transactions are not the change's. */
  open: boolean;
  /** The entry is committed (in the change's transaction). */
  appended: boolean;
  /** A transaction is appending it now (two parallel transactions of one handler: the first). */
  appending: QueryRunner | null;
  readonly subject: AuditSubject;
  /** Appends the request's entry in `manager`'s transaction; false when it cannot be built yet. */
  readonly appendIn: (manager: EntityManager) => Promise<boolean>;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** Runs `work` with `scope` as the current request's audited write. */
export function runInAuditScope<T>(scope: AuditScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The open audited write of the current request, if any. */
export function currentAuditScope(): AuditScope | undefined {
  const scope = scopes.getStore();
  return scope?.open ? scope : undefined;
}

/** Tells the open audited write (if any) what its entry should name. No-op outside one. */
export function noteAuditSubject(subject: AuditSubject): void {
  const scope = currentAuditScope();
  if (scope) Object.assign(scope.subject, subject);
}

/**
 * Runs a write in a transaction when an audited write is open (so its entry commits with it), on
 * the plain manager otherwise (a write outside an audited request keeps its single statement).
 */
export function inAuditedTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return currentAuditScope() ? dataSource.transaction(work) : work(dataSource.manager);
}

const INFRASTRUCTURE = 'auditInfrastructure';

/** Marks a transaction as the audit trail's own (or other bookkeeping): it never carries a request's entry. */
export function markBookkeepingTransaction(manager: EntityManager): void {
  const runner = manager.queryRunner;
  if (runner) runner.data = { ...(runner.data ?? {}), [INFRASTRUCTURE]: true };
}

export function isBookkeepingTransaction(runner: QueryRunner): boolean {
  return (runner.data as Record<string, unknown> | undefined)?.[INFRASTRUCTURE] === true;
}
