import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { markBookkeepingTransaction } from '../../common/audit/audit-scope.js';
import { Clock } from '../../common/clock/clock.js';
import type { AuditedRead, ReadAuditPort } from '../../common/ports/read-audit.port.js';
import { AppConfig } from '../../config/app-config.js';
import { runSql } from '../../database/sql.js';
import { canonicalJson, ChainWalker, entryHash, type StoredEntry } from './audit-chain.js';

export type ActorKind = 'client' | 'admin' | 'system';

/** What a caller records; the service adds id, sequence, hashes (and the time, when not given). */
export interface AuditDraft {
  readonly occurredAt?: Date;
  readonly tenantId: string | null;
  readonly actor: { readonly kind: ActorKind; readonly id: string };
  readonly action: string;
  readonly target?: { readonly kind: string; readonly id: string } | null;
  readonly requestId?: string | null;
  readonly status?: number | null;
  /** Small and secret-free: ids, counts, parameters. */
  readonly details?: Record<string, unknown>;
}

export interface AuditEntryRecord extends StoredEntry {
  readonly id: string;
}

export interface AuditFilters {
  readonly tenantId?: string;
  readonly actor?: string;
  readonly accountId?: string;
  readonly action?: string;
  readonly from?: Date;
  readonly to?: Date;
}

export interface AuditVerification {
  readonly valid: boolean;
  readonly entries: number;
  readonly firstBrokenSequence: string | null;
  readonly anchorSequence: string;
}

/** Entries per INSERT (one statement of 14 array parameters). */
const INSERT_BATCH = 500;
/** Entries per read when walking or exporting. */
const PAGE = 1_000;
const MAX_RETRY_DELAY_MS = 30_000;

const COLUMNS = `"id", "sequence"::text AS "sequence", "occurred_at", "tenant_id", "actor_kind", "actor_id",
  "action", "target_kind", "target_id", "request_id", "status", "details", "prev_hash", "hash"`;

interface EntryRow {
  id: string;
  sequence: string;
  occurred_at: Date | string;
  tenant_id: string | null;
  actor_kind: string;
  actor_id: string;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  request_id: string | null;
  status: number | null;
  details: string;
  prev_hash: string;
  hash: string;
}

/**
 * The audit trail (issue 18 item 4, docs/audit.md): one hash chain for the whole service.
 *
 * Appending locks the chain head row (`SELECT … FOR UPDATE`), so appends from any number of
 * instances and requests are serialized and the chain stays linear; `append` takes the caller's
 * EntityManager to write the entry in the caller's transaction (a report snapshot and its entry
 * commit together). Reads of account data go through `recordRead`: kept in memory for at most
 * AUDIT_READ_FLUSH_MS and appended in one transaction with the reads of that moment; a failed
 * append keeps them and retries (logged each time), and the application's shutdown waits for them.
 */
@Injectable()
export class AuditService implements ReadAuditPort, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private pending: AuditDraft[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private failures = 0;
  private closed = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Appends now: in `manager`'s transaction when given (it must be one), else in a transaction of its own. */
  async append(
    drafts: AuditDraft | readonly AuditDraft[],
    manager?: EntityManager,
  ): Promise<AuditEntryRecord[]> {
    const list = Array.isArray(drafts) ? (drafts as readonly AuditDraft[]) : [drafts as AuditDraft];
    if (list.length === 0) return [];
    if (manager) return this.appendIn(manager, list);
    return this.dataSource.transaction((inner) => {
      markBookkeepingTransaction(inner); // never the carrier of a request's own entry
      return this.appendIn(inner, list);
    });
  }

  /** A read of account data (interceptor and cached-balances fast path): appended within AUDIT_READ_FLUSH_MS. */
  recordRead(read: AuditedRead): void {
    this.enqueue({
      occurredAt: this.clock.now(),
      tenantId: read.tenantId,
      actor: { kind: read.actorKind, id: read.actorId },
      action: read.action,
      target: read.accountId ? { kind: 'account', id: read.accountId } : null,
      requestId: read.requestId,
      status: read.status,
      details: read.details,
    });
  }

  /** Queues an entry: appended within AUDIT_READ_FLUSH_MS, retried until it is (never dropped). */
  enqueue(draft: AuditDraft): void {
    this.pending.push({ ...draft, occurredAt: draft.occurredAt ?? this.clock.now() });
    if (this.pending.length >= INSERT_BATCH) this.flush().catch(() => undefined);
    else this.schedule(this.config.AUDIT_READ_FLUSH_MS);
  }

  /** Appends every read recorded so far (the admin reads call it first, so they see them). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.append(batch)
      .then(() => {
        this.failures = 0;
      })
      .catch((error: unknown) => {
        // Never dropped: back in front of the queue, retried with a growing delay, logged each time.
        this.pending = [...batch, ...this.pending];
        this.failures++;
        this.logger.error(
          { err: error instanceof Error ? error.message : String(error), pending: this.pending.length },
          'could not append audited reads; kept in memory, retrying',
        );
        throw error;
      })
      .finally(() => {
        this.flushing = undefined;
        if (this.pending.length > 0 && !this.closed) {
          this.schedule(Math.min(MAX_RETRY_DELAY_MS, this.config.AUDIT_READ_FLUSH_MS * 2 ** this.failures));
        }
      });
    await this.flushing;
  }

  /** How many audited reads wait in memory (metrics, tests). */
  get pendingReads(): number {
    return this.pending.length;
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
  }

  /** Before the database closes: the reads still in memory are appended (three tries). */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (let attempt = 0; attempt < 3 && (this.pending.length > 0 || this.flushing); attempt++) {
      await this.flush().catch(() => undefined);
    }
    if (this.pending.length > 0) {
      this.logger.error({ lost: this.pending.length }, 'audited reads could not be appended before shutdown');
    }
  }

  async list(filters: AuditFilters, limit: number, after?: string): Promise<AuditEntryRecord[]> {
    await this.flush().catch(() => undefined);
    const { where, params } = whereOf(filters, after);
    params.push(limit);
    const { rows } = await runSql<EntryRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM "audit_entry" ${where} ORDER BY "audit_entry"."sequence" LIMIT $${params.length}`,
      params,
    );
    return rows.map(toRecord);
  }

  /** Every entry matching the filters, a page at a time, in sequence order (for the export). */
  async *pages(filters: AuditFilters): AsyncGenerator<AuditEntryRecord[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.list(filters, PAGE, after);
      if (page.length > 0) yield page;
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.sequence;
    }
  }

  /** Walks the whole chain from its anchor in one consistent (REPEATABLE READ) view. */
  async verify(): Promise<AuditVerification> {
    await this.flush().catch(() => undefined);
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const head = await this.head(manager, false);
      const walker = new ChainWalker({ sequence: head.anchorSequence, hash: head.anchorHash });
      let after = head.anchorSequence;
      for (;;) {
        const { rows } = await runSql<EntryRow>(
          manager,
          `SELECT ${COLUMNS} FROM "audit_entry" WHERE "sequence" > $1 ORDER BY "audit_entry"."sequence" LIMIT ${PAGE}`,
          [after],
        );
        walker.add(rows.map(toRecord));
        if (rows.length < PAGE) break;
        after = rows[rows.length - 1]!.sequence;
      }
      const verdict = walker.result({ sequence: head.lastSequence, hash: head.lastHash });
      return { ...verdict, anchorSequence: head.anchorSequence };
    });
  }

  /**
   * Retention: deletes the entries older than AUDIT_RETENTION_DAYS, oldest first and only a prefix
   * of the chain (an older entry behind a newer one waits), and records the last deleted entry as
   * the chain's anchor in the same transaction, so the rest still verifies. Returns how many.
   */
  async prune(now: Date = this.clock.now()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.AUDIT_RETENTION_DAYS * 86_400_000);
    return this.dataSource.transaction(async (manager) => {
      const head = await this.head(manager, true);
      const { rows } = await runSql<{ sequence: string; hash: string }>(
        manager,
        `SELECT "sequence"::text AS "sequence", "hash" FROM "audit_entry"
          WHERE "sequence" < COALESCE(
            (SELECT MIN("sequence") FROM "audit_entry" WHERE "occurred_at" >= $1), $2::bigint + 1)
          ORDER BY "audit_entry"."sequence" DESC LIMIT 1`,
        [cutoff, head.lastSequence],
      );
      const last = rows[0];
      if (!last) return 0;
      await runSql(manager, `SELECT set_config('audit.prune', 'on', true)`);
      const { affected } = await runSql(manager, `DELETE FROM "audit_entry" WHERE "sequence" <= $1`, [
        last.sequence,
      ]);
      await runSql(manager, `SELECT set_config('audit.prune', 'off', true)`);
      await runSql(
        manager,
        `UPDATE "audit_chain" SET "anchor_sequence" = $1, "anchor_hash" = $2, "pruned_at" = $3 WHERE "id" = 1`,
        [last.sequence, last.hash, now],
      );
      return affected;
    });
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private async appendIn(manager: EntityManager, drafts: readonly AuditDraft[]): Promise<AuditEntryRecord[]> {
    const head = await this.head(manager, true);
    let sequence = BigInt(head.lastSequence);
    let prevHash = head.lastHash;
    const now = this.clock.now();
    const entries = drafts.map((draft): AuditEntryRecord => {
      sequence += 1n;
      const fields = {
        sequence: String(sequence),
        occurredAt: (draft.occurredAt ?? now).toISOString(),
        tenantId: draft.tenantId,
        actorKind: draft.actor.kind,
        actorId: draft.actor.id.slice(0, 128),
        action: draft.action,
        targetKind: draft.target?.kind ?? null,
        targetId: draft.target?.id.slice(0, 128) ?? null,
        requestId: draft.requestId?.slice(0, 128) ?? null,
        status: draft.status ?? null,
        details: canonicalJson(draft.details ?? {}),
      };
      const hash = entryHash(fields, prevHash);
      const entry = { id: randomUUID(), ...fields, prevHash, hash };
      prevHash = hash;
      return entry;
    });
    // One statement per batch whatever its size: 14 array parameters, unnested by the database.
    for (let start = 0; start < entries.length; start += INSERT_BATCH) {
      const batch = entries.slice(start, start + INSERT_BATCH);
      const column = <K extends keyof AuditEntryRecord>(key: K) => batch.map((entry) => entry[key]);
      await runSql(
        manager,
        `INSERT INTO "audit_entry" ("id", "sequence", "occurred_at", "tenant_id", "actor_kind", "actor_id",
           "action", "target_kind", "target_id", "request_id", "status", "details", "prev_hash", "hash")
         SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::uuid[], $5::varchar[],
           $6::varchar[], $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::smallint[],
           $12::text[], $13::char(64)[], $14::char(64)[])`,
        [
          column('id'),
          column('sequence'),
          column('occurredAt'),
          column('tenantId'),
          column('actorKind'),
          column('actorId'),
          column('action'),
          column('targetKind'),
          column('targetId'),
          column('requestId'),
          column('status'),
          column('details'),
          column('prevHash'),
          column('hash'),
        ],
      );
    }
    await runSql(manager, `UPDATE "audit_chain" SET "last_sequence" = $1, "last_hash" = $2 WHERE "id" = 1`, [
      String(sequence),
      prevHash,
    ]);
    return entries;
  }

  private async head(manager: EntityManager, lock: boolean) {
    const { rows } = await runSql<{
      last_sequence: string;
      last_hash: string;
      anchor_sequence: string;
      anchor_hash: string;
    }>(
      manager,
      `SELECT "last_sequence"::text AS "last_sequence", "last_hash", "anchor_sequence"::text AS "anchor_sequence",
              "anchor_hash" FROM "audit_chain" WHERE "id" = 1${lock ? ' FOR UPDATE' : ''}`,
    );
    const head = rows[0];
    if (!head) throw new Error('audit_chain has no head row: the migrations did not run');
    return {
      lastSequence: head.last_sequence,
      lastHash: head.last_hash,
      anchorSequence: head.anchor_sequence,
      anchorHash: head.anchor_hash,
    };
  }
}

function whereOf(filters: AuditFilters, after?: string): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (after !== undefined) add((p) => `"sequence" > ${p}::bigint`, after);
  if (filters.tenantId) add((p) => `"tenant_id" = ${p}`, filters.tenantId);
  if (filters.actor) add((p) => `"actor_id" = ${p}`, filters.actor);
  if (filters.accountId) add((p) => `"target_kind" = 'account' AND "target_id" = ${p}`, filters.accountId);
  if (filters.action) add((p) => `"action" = ${p}`, filters.action);
  if (filters.from) add((p) => `"occurred_at" >= ${p}`, filters.from);
  if (filters.to) add((p) => `"occurred_at" < ${p}`, filters.to);
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

function toRecord(row: EntryRow): AuditEntryRecord {
  return {
    id: row.id,
    sequence: row.sequence,
    occurredAt: new Date(row.occurred_at).toISOString(),
    tenantId: row.tenant_id,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    action: row.action,
    targetKind: row.target_kind,
    targetId: row.target_id,
    requestId: row.request_id,
    status: row.status === null ? null : Number(row.status),
    details: row.details,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
