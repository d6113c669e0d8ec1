import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DataSource, EntityManager } from 'typeorm';
import { markBookkeepingTransaction } from '../../common/audit/audit-scope.js';
import { Clock } from '../../common/clock/clock.js';
import { DomainError, ErrorCode } from '../../common/errors/domain-error.js';
import type { AuditedRead, ReadAuditPort } from '../../common/ports/read-audit.port.js';
import { AppConfig } from '../../config/app-config.js';
import { runSql } from '../../database/sql.js';
import {
  canonicalJson,
  canonicalLine,
  ChainWalker,
  lineHash,
  type ChainedFields,
  type StoredEntry,
} from './audit-chain.js';
import { asBulkRead } from '../../database/bulk-lane.js';

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

/** Entries per INSERT (one statement; its rows in JSON parameters of up to JSON_PARAMETER_CHARS). */
export const INSERT_BATCH = 500;
/**
 * Entries per INSERT on embedded PGlite, which runs each statement on the request thread: a
 * statement of 100 entries held it ~16 ms, so one append is several short statements, with a turn
 * of the event loop before each (pglite-driver.ts) in which cached reads are answered (issue 28
 * item 3). The append is still one transaction under the chain head's lock.
 */
export const EMBEDDED_INSERT_ROWS = 25;
/** Entries per read when walking or exporting. */
const PAGE = 1_000;
const MAX_RETRY_DELAY_MS = 30_000;
/** How long an audited read waits for room in a full backlog before it is refused (503). */
export const AUDIT_BACKLOG_WAIT_MS = 2_000;
/** Retry-After of that 503. */
export const AUDIT_BACKLOG_RETRY_AFTER_SECONDS = 2;

/** A read refused because AUDIT_READ_BACKLOG reads still wait for their append (503, Retry-After). */
export class AuditBacklogError extends DomainError {
  constructor() {
    super(
      ErrorCode.ServiceUnavailable,
      'Reads are being recorded in the audit trail more slowly than they arrive; retry after the number of seconds in Retry-After.',
      undefined,
      'audit_backlog',
      AUDIT_BACKLOG_RETRY_AFTER_SECONDS,
    );
  }
}

/** A read waiting for room in the backlog (AuditService.room). */
interface RoomWaiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

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
  /** Reads queued, and reads taken from the queue into an append, since the start (flush's bound). */
  private queued = 0;
  private taken = 0;
  private readonly details = new DetailsTexts();
  private lastTime = Number.NaN;
  private lastIso = '';
  /** Reads waiting for room in a full backlog (room), oldest first. */
  private waiting: RoomWaiter[] = [];
  private readonly backlogLimit: number;
  /** Entries per INSERT statement of an append (embedded PGlite). */
  private readonly rowsPerStatement: number;
  /** On a PostgreSQL server an append's rows go in one COPY … FROM STDIN (copyEntries). */
  private readonly copies: boolean;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.rowsPerStatement = config.usesEmbeddedDatabase ? EMBEDDED_INSERT_ROWS : INSERT_BATCH;
    this.copies = !config.usesEmbeddedDatabase;
    this.backlogLimit = config.AUDIT_READ_BACKLOG;
  }

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

  /** A read of account data (through READ_AUDIT): appended within AUDIT_READ_FLUSH_MS. */
  recordRead(read: AuditedRead): void {
    // The draft is built once, here (enqueue would copy it again to add the time).
    this.queue({
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

  /** ReadAuditPort.hasRoom: fewer than AUDIT_READ_BACKLOG reads wait for their append. */
  hasRoom(): boolean {
    return this.pending.length < this.backlogLimit;
  }

  /**
   * Backpressure (docs/audit.md, "Backpressure"): true when the backlog has room for another read;
   * else a promise that resolves when it has (the appends took reads from it), oldest waiter first,
   * or rejects with AuditBacklogError after AUDIT_BACKLOG_WAIT_MS. An audited route asks before it
   * answers, so when appends fall behind the reads (a saturated embedded database, a database that
   * is down) reads slow down, and are refused after a while, instead of being answered with their
   * entries piling up in memory without a bound.
   */
  room(): true | Promise<void> {
    if (this.waiting.length === 0 && this.hasRoom()) return true;
    if (this.closed) return Promise.reject(new AuditBacklogError());
    return new Promise<void>((resolve, reject) => {
      const waiter: RoomWaiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiting = this.waiting.filter((other) => other !== waiter);
          reject(new AuditBacklogError());
        }, AUDIT_BACKLOG_WAIT_MS),
      };
      this.waiting.push(waiter);
    });
  }

  /** Reads waiting for room that now fit in the backlog go on, oldest first. */
  private admitWaiting(): void {
    let room = this.backlogLimit - this.pending.length;
    while (room-- > 0 && this.waiting.length > 0) {
      const waiter = this.waiting.shift()!;
      clearTimeout(waiter.timer);
      waiter.resolve();
    }
  }

  /** How many reads wait for room in a full backlog (metrics, tests). */
  get readsWaitingForRoom(): number {
    return this.waiting.length;
  }

  /** Queues an entry: appended within AUDIT_READ_FLUSH_MS, retried until it is (never dropped). */
  enqueue(draft: AuditDraft): void {
    this.queue({ ...draft, occurredAt: draft.occurredAt ?? this.clock.now() });
  }

  private queue(draft: AuditDraft): void {
    this.pending.push(draft);
    this.queued++;
    // A full batch is appended at once, unless an append is under way (its end starts the next:
    // flush, below) or the last one failed (its retry is timed). One waiter per read on the append
    // in flight cost more than the reads themselves whenever the database fell behind.
    if (this.pending.length >= INSERT_BATCH && !this.flushing && this.failures === 0) {
      this.flush().catch(() => undefined);
    } else {
      this.schedule(this.config.AUDIT_READ_FLUSH_MS);
    }
  }

  /**
   * Appends every read recorded until now (the admin reads call it first, so they see them), in
   * transactions of at most INSERT_BATCH entries: an append hashes its entries in one synchronous
   * loop before its first statement, and one append of a whole backlog (tens of thousands after a
   * burst at saturation) held the request thread for most of a second.
   */
  async flush(): Promise<void> {
    const upTo = this.queued;
    for (;;) {
      while (this.flushing) await this.flushing.catch(() => undefined);
      if (this.taken >= upTo || this.pending.length === 0) return;
      await this.appendNext();
    }
  }

  /** Appends the oldest INSERT_BATCH reads waiting; a failed append puts them back in front. */
  private appendNext(): Promise<void> {
    const batch = this.pending.length > INSERT_BATCH ? this.pending.slice(0, INSERT_BATCH) : this.pending;
    this.pending = batch === this.pending ? [] : this.pending.slice(INSERT_BATCH);
    this.taken += batch.length;
    if (this.waiting.length > 0 && !this.closed) this.admitWaiting();
    this.flushing = this.append(batch)
      .then(() => {
        this.failures = 0;
      })
      .catch((error: unknown) => {
        // Never dropped: back in front of the queue, retried with a growing delay, logged each time.
        this.pending = [...batch, ...this.pending];
        this.taken -= batch.length;
        this.failures++;
        this.logger.error(
          { err: error instanceof Error ? error.message : String(error), pending: this.pending.length },
          'could not append audited reads; kept in memory, retrying',
        );
        throw error;
      })
      .finally(() => {
        this.flushing = undefined;
        if (this.pending.length === 0 || this.closed) return;
        // The reads that queued up meanwhile: a full batch goes now, the rest on the timer.
        if (this.failures === 0 && this.pending.length >= INSERT_BATCH) this.flush().catch(() => undefined);
        else
          this.schedule(Math.min(MAX_RETRY_DELAY_MS, this.config.AUDIT_READ_FLUSH_MS * 2 ** this.failures));
      });
    return this.flushing;
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
    // Reads still waiting for room are refused: their entries would come after the last append.
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new AuditBacklogError());
    }
    for (let attempt = 0; attempt < 3 && (this.pending.length > 0 || this.flushing); attempt++) {
      await this.flush().catch(() => undefined);
    }
    if (this.pending.length > 0) {
      this.logger.error({ lost: this.pending.length }, 'audited reads could not be appended before shutdown');
    }
  }

  /**
   * A page of entries matching the filters: `asc` in the chain's order after sequence `after`,
   * `desc` newest first before it.
   */
  async list(
    filters: AuditFilters,
    limit: number,
    after?: string,
    order: 'asc' | 'desc' = 'asc',
  ): Promise<AuditEntryRecord[]> {
    await this.flush().catch(() => undefined);
    const { where, params } = whereOf(filters, after, order);
    params.push(limit);
    const direction = order === 'desc' ? 'DESC' : 'ASC';
    const { rows } = await runSql<EntryRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS} FROM "audit_entry" ${where} ORDER BY "audit_entry"."sequence" ${direction} LIMIT $${params.length}`,
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
    return asBulkRead(() => this.verifyChain());
  }

  private verifyChain(): Promise<AuditVerification> {
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
    const last = BigInt(head.lastSequence);
    // Sequences as numbers while they are exact (always, in practice), else as bigints.
    const exact = last + BigInt(drafts.length) <= BigInt(Number.MAX_SAFE_INTEGER);
    const lastNumber = Number(last);
    let prevHash = head.lastHash;
    const now = this.clock.now();
    const entries: AuditEntryRecord[] = new Array(drafts.length);
    // Per statement (rowsPerStatement entries): JSON arrays of rows, each row its id, then its
    // canonical line's fields (the hashed text, reused as is), then its hash.
    const statements: { texts: string[][]; plain: boolean }[] = [];
    let statement = { texts: [] as string[][], plain: true };
    let parts: string[] = [];
    let chars = JSON_PARAMETER_CHARS;
    for (let i = 0; i < drafts.length; i++) {
      const draft = drafts[i]!;
      const fields: ChainedFields = {
        sequence: exact ? String(lastNumber + i + 1) : String(last + BigInt(i + 1)),
        occurredAt: this.isoTime(draft.occurredAt ?? now),
        tenantId: draft.tenantId,
        actorKind: draft.actor.kind,
        actorId: storedText(draft.actor.id),
        action: draft.action,
        targetKind: draft.target?.kind ?? null,
        targetId: draft.target ? storedText(draft.target.id) : null,
        requestId: draft.requestId ? storedText(draft.requestId) : null,
        status: draft.status ?? null,
        details: this.details.of(draft.details),
      };
      const line = canonicalLine(fields, prevHash);
      const hash = lineHash(line);
      const id = randomUUID();
      // On PostgreSQL the rows are written from `entries` (copyEntries), below.
      if (!this.copies) {
        if (i % this.rowsPerStatement === 0) {
          statement = { texts: [], plain: true };
          statements.push(statement);
          chars = JSON_PARAMETER_CHARS;
        }
        if (chars >= JSON_PARAMETER_CHARS) {
          parts = [];
          statement.texts.push(parts);
          chars = 0;
        }
        // JSON.stringify writes a lone surrogate as an escape the database refuses in JSON; such a
        // batch goes as arrays, where it is stored as before (U+FFFD).
        if (line.includes('\\ud')) statement.plain = false;
        parts.push(
          chars === 0 ? '[["' : ',["',
          id,
          '",',
          line.substring(1, line.length - 1),
          ',"',
          hash,
          '"]',
        );
        chars += line.length + 120;
      }
      entries[i] = {
        id,
        sequence: fields.sequence,
        occurredAt: fields.occurredAt,
        tenantId: fields.tenantId,
        actorKind: fields.actorKind,
        actorId: fields.actorId,
        action: fields.action,
        targetKind: fields.targetKind,
        targetId: fields.targetId,
        requestId: fields.requestId,
        status: fields.status,
        details: fields.details,
        prevHash,
        hash,
      };
      prevHash = hash;
    }
    if (this.copies) await copyEntries(manager, entries);
    for (let index = 0; index < statements.length; index++) {
      const { texts, plain } = statements[index]!;
      if (plain) {
        await runSql(
          manager,
          insertJson(texts.length),
          texts.map((text) => {
            text.push(']');
            return text.join('');
          }),
        );
      } else {
        const from = index * this.rowsPerStatement;
        await insertArrays(manager, entries.slice(from, from + this.rowsPerStatement));
      }
    }
    await runSql(manager, `UPDATE "audit_chain" SET "last_sequence" = $1, "last_hash" = $2 WHERE "id" = 1`, [
      entries[entries.length - 1]!.sequence,
      prevHash,
    ]);
    return entries;
  }

  /** toISOString, once per millisecond: reads that arrive within one share the text. */
  private isoTime(date: Date): string {
    const time = date.getTime();
    if (time !== this.lastTime) {
      this.lastTime = time;
      this.lastIso = date.toISOString();
    }
    return this.lastIso;
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

function whereOf(
  filters: AuditFilters,
  after?: string,
  order: 'asc' | 'desc' = 'asc',
): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (after !== undefined) add((p) => `"sequence" ${order === 'desc' ? '<' : '>'} ${p}::bigint`, after);
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

const ENTRY_COLUMNS = `"id", "sequence", "occurred_at", "tenant_id", "actor_kind", "actor_id", "action", "target_kind",
  "target_id", "request_id", "status", "details", "prev_hash", "hash"`;

/**
 * Characters of rows per JSON parameter (about): a longer string is a "large object" for V8
 * (over 128 KiB), several times dearer to build and encode than a few smaller ones.
 */
const JSON_PARAMETER_CHARS = 48_000;

const insertJsonTexts = new Map<number, string>();

/**
 * One statement's entries (INSERT_BATCH, EMBEDDED_INSERT_ROWS on PGlite) from `parameters` JSON parameters: arrays of rows, each an
 * array in ENTRY_COLUMNS' order, serialized by JSON.stringify (the canonical line's text, reused)
 * instead of 14 array literals escaped element by element. `->>` gives each string's exact text,
 * a number's decimal text and SQL NULL for null: the stored values are those of the array form.
 */
function insertJson(parameters: number): string {
  let text = insertJsonTexts.get(parameters);
  if (text === undefined) {
    const chunks = Array.from({ length: parameters }, (_, i) => `($${i + 1}::jsonb)`).join(', ');
    text = `INSERT INTO "audit_entry" (${ENTRY_COLUMNS})
  SELECT (e->>0)::uuid, (e->>1)::bigint, (e->>2)::timestamptz, (e->>3)::uuid, e->>4, e->>5, e->>6, e->>7,
         e->>8, e->>9, (e->>10)::smallint, e->>11, e->>12, e->>13
    FROM (VALUES ${chunks}) AS c("rows"), jsonb_array_elements(c."rows") AS e`;
    insertJsonTexts.set(parameters, text);
  }
  return text;
}

/**
 * An append's rows on a PostgreSQL server: one `COPY … FROM STDIN` in the text format, in the
 * append's transaction, the rows in chunks of about JSON_PARAMETER_CHARS. Against the INSERT of
 * JSON rows, the database parses no JSON and plans no statement: about half its CPU per audited
 * read (docs/audit.md, "How an append is written"). The values are the same text the other forms send,
 * so the same values are stored (a lone surrogate, unencodable in UTF-8, becomes U+FFFD as in the
 * array form).
 */
async function copyEntries(manager: EntityManager, entries: readonly AuditEntryRecord[]): Promise<void> {
  // In a transaction (append's own or its caller's) the runner holds one connection: node-postgres' client.
  const client = (await manager.queryRunner!.connect()) as pg.ClientBase;
  const chunks: string[] = [];
  let rows: string[] = [];
  let chars = 0;
  for (const entry of entries) {
    const row = copyRow(entry);
    rows.push(row);
    chars += row.length;
    if (chars >= JSON_PARAMETER_CHARS) {
      chunks.push(rows.join(''));
      rows = [];
      chars = 0;
    }
  }
  if (rows.length > 0) chunks.push(rows.join(''));
  const copy = copyFrom(COPY_ENTRIES);
  // The stream calls `callback` when the copy ends or fails; as an own property, OpenTelemetry's pg
  // instrumentation (which copies a query's own fields) wraps it and so ends the COPY's span.
  Object.assign(copy, { callback: () => undefined });
  await pipeline(Readable.from(chunks), client.query(copy));
}

const COPY_ENTRIES = `COPY "audit_entry" (${ENTRY_COLUMNS}) FROM STDIN`;

/** One row of COPY's text format: ENTRY_COLUMNS' values, tab-separated, \N for NULL. */
function copyRow(entry: AuditEntryRecord): string {
  return `${entry.id}\t${entry.sequence}\t${entry.occurredAt}\t${entry.tenantId ?? '\\N'}\t${copyText(entry.actorKind)}\t${copyText(entry.actorId)}\t${copyText(entry.action)}\t${copyText(entry.targetKind)}\t${copyText(entry.targetId)}\t${copyText(entry.requestId)}\t${entry.status ?? '\\N'}\t${copyText(entry.details)}\t${entry.prevHash}\t${entry.hash}\n`;
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIALS, (c) => COPY_ESCAPES[c]!) : value;
}
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIALS = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** The array form: 14 array parameters, unnested by the database (a batch JSON cannot carry). */
async function insertArrays(manager: EntityManager, batch: readonly AuditEntryRecord[]): Promise<void> {
  const column = <K extends keyof AuditEntryRecord>(key: K) => batch.map((entry) => entry[key]);
  await runSql(
    manager,
    `INSERT INTO "audit_entry" (${ENTRY_COLUMNS})
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

/**
 * canonicalJson of details, remembered for the last few flat ones: most reads carry the same
 * few (e.g. `{ method, route }`), in a new object each time. A flat
 * object (own keys, values string, number, boolean or null) with the same keys and values (===)
 * as a remembered one has its text; anything else is serialized.
 */
class DetailsTexts {
  private readonly remembered: { values: Record<string, unknown>; count: number; text: string }[] = [];
  private next = 0;

  of(details: Record<string, unknown> | null | undefined): string {
    if (details === undefined || details === null) return '{}'; // as canonicalJson(details ?? {})
    const flat = Object.getPrototypeOf(details) === Object.prototype;
    if (flat) {
      for (const known of this.remembered)
        if (sameFlat(known.values, known.count, details)) return known.text;
    }
    const text = canonicalJson(details);
    if (flat) {
      const values: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      let count = 0;
      for (const key of Object.keys(details)) {
        const value = details[key];
        if (
          value !== null &&
          typeof value !== 'string' &&
          typeof value !== 'number' &&
          typeof value !== 'boolean'
        ) {
          return text;
        }
        values[key] = value;
        count++;
      }
      this.remembered[this.next] = { values, count, text };
      this.next = (this.next + 1) % 8;
    }
    return text;
  }
}

function sameFlat(known: Record<string, unknown>, count: number, details: Record<string, unknown>): boolean {
  let seen = 0;
  for (const key in details) {
    if (!Object.hasOwn(details, key) || !Object.hasOwn(known, key) || known[key] !== details[key])
      return false;
    seen++;
  }
  return seen === count;
}

/**
 * An id as the entry stores and hashes it: at most 128 UTF-16 code units, and well-formed. A lone
 * surrogate (a JSON body's `"\ud800"` as an account id, or a pair cut by the 128) is stored by the
 * database as U+FFFD; hashed as it came, the entry would no longer verify. So it is replaced by
 * U+FFFD before the hash, and what is hashed is what is stored.
 */
function storedText(value: string): string {
  return (value.slice(0, 128) as string & { toWellFormed(): string }).toWellFormed();
}
