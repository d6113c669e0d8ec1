/**
 * The webhooks module's tables (raw SQL, tenant id first): `webhook_endpoint`, `outbox_event`,
 * `webhook_delivery`. The worker's cross-tenant queries say so in their names.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { runSql } from '../../database/sql.js';

export type EndpointStatus = 'enabled' | 'disabled';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface EndpointRow {
  id: string;
  tenant_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  status: EndpointStatus;
  disabled_reason: string | null;
  disabled_at: Date | null;
  consecutive_failures: number;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  seq: string;
  id: string;
  endpoint_id: string;
  tenant_id: string;
  event_id: string;
  event_type: string;
  account_id: string | null;
  body: string;
  replay_of: string | null;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  lease_until: Date | null;
  lease_owner: string | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  response_excerpt: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface OutboxInsert {
  id: string;
  tenantId: string;
  accountId: string | null;
  endpointId: string | null;
  type: string;
  body: string;
  createdAt: Date;
}

export interface EndpointChange {
  url?: string;
  description?: string | null;
  eventTypes?: readonly string[];
  status?: EndpointStatus;
}

@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  // ---- endpoints ----

  async insertEndpoint(
    row: Omit<
      EndpointRow,
      | 'previous_secret_encrypted'
      | 'previous_secret_expires_at'
      | 'secret_rotated_at'
      | 'status'
      | 'disabled_reason'
      | 'disabled_at'
      | 'consecutive_failures'
      | 'failing_since'
    >,
  ): Promise<void> {
    await runSql(
      this.m(),
      `INSERT INTO webhook_endpoint (id, tenant_id, url, description, event_types, secret_encrypted, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)`,
      [
        row.id,
        row.tenant_id,
        row.url,
        row.description,
        JSON.stringify(row.event_types),
        row.secret_encrypted,
        row.created_at,
        row.updated_at,
      ],
    );
  }

  async findEndpoint(tenantId: string, id: string, manager?: EntityManager): Promise<EndpointRow | null> {
    const { rows } = await runSql<EndpointRow>(
      this.m(manager),
      'SELECT * FROM webhook_endpoint WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return rows[0] ? endpointFromRow(rows[0]) : null;
  }

  async listEndpoints(tenantId: string): Promise<EndpointRow[]> {
    const { rows } = await runSql<EndpointRow>(
      this.m(),
      'SELECT * FROM webhook_endpoint WHERE tenant_id = $1 ORDER BY created_at, id',
      [tenantId],
    );
    return rows.map(endpointFromRow);
  }

  async updateEndpoint(
    tenantId: string,
    id: string,
    change: EndpointChange,
    now: Date,
  ): Promise<EndpointRow | null> {
    const sets: string[] = ['updated_at = $3'];
    const params: unknown[] = [tenantId, id, now];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      sets.push(sql.replace('?', `$${params.length}`));
    };
    if (change.url !== undefined) add('url = ?', change.url);
    if (change.description !== undefined) add('description = ?', change.description);
    if (change.eventTypes !== undefined) add('event_types = ?::jsonb', JSON.stringify(change.eventTypes));
    if (change.status === 'enabled')
      sets.push(
        `status = 'enabled', disabled_reason = NULL, disabled_at = NULL, consecutive_failures = 0, failing_since = NULL`,
      );
    if (change.status === 'disabled') {
      add(`status = 'disabled', disabled_reason = 'Disabled by the partner.', disabled_at = ?`, now);
    }
    const { rows } = await runSql<EndpointRow>(
      this.m(),
      `UPDATE webhook_endpoint SET ${sets.join(', ')} WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      params,
    );
    return rows[0] ? endpointFromRow(rows[0]) : null;
  }

  async rotateSecret(
    tenantId: string,
    id: string,
    secretEncrypted: string,
    previousEncrypted: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<EndpointRow | null> {
    const { rows } = await runSql<EndpointRow>(
      this.m(),
      `UPDATE webhook_endpoint SET secret_encrypted = $3, previous_secret_encrypted = $4,
         previous_secret_expires_at = $5, secret_rotated_at = $6, updated_at = $6
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [tenantId, id, secretEncrypted, previousEncrypted, previousExpiresAt, now],
    );
    return rows[0] ? endpointFromRow(rows[0]) : null;
  }

  async deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    const { affected } = await runSql(
      this.m(),
      'DELETE FROM webhook_endpoint WHERE tenant_id = $1 AND id = $2',
      [tenantId, id],
    );
    return affected > 0;
  }

  /** The worker's read of an endpoint it delivers to (any tenant: the delivery row names it). */
  /** Pending deliveries of every tenant and the age of the oldest one's event (the metrics). */
  async pendingBacklog(now: Date): Promise<{ pending: number; oldestPendingSeconds: number }> {
    const { rows } = await runSql<{ pending: number; oldest: Date | string | null }>(
      this.dataSource.manager,
      `SELECT count(*)::int AS pending, min(created_at) AS oldest FROM webhook_delivery WHERE status = 'pending'`,
      [],
    );
    const row = rows[0];
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
    return {
      pending: Number(row?.pending ?? 0),
      oldestPendingSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
    };
  }

  async findEndpointAcrossTenants(id: string): Promise<EndpointRow | null> {
    const { rows } = await runSql<EndpointRow>(this.m(), 'SELECT * FROM webhook_endpoint WHERE id = $1', [
      id,
    ]);
    return rows[0] ? endpointFromRow(rows[0]) : null;
  }

  async recordEndpointSuccess(id: string): Promise<void> {
    await runSql(
      this.m(),
      `UPDATE webhook_endpoint SET consecutive_failures = 0, failing_since = NULL
       WHERE id = $1 AND (consecutive_failures <> 0 OR failing_since IS NOT NULL)`,
      [id],
    );
  }

  /**
   * Counts a failed attempt; disables the endpoint (with the reason) once it failed `maxFailures`
   * times in a row or has failed without a success since `failingSinceLimit`. True when this call
   * disabled it.
   */
  async recordEndpointFailure(
    id: string,
    now: Date,
    maxFailures: number,
    failingSinceLimit: Date,
    reason: (failures: number, since: Date) => string,
  ): Promise<boolean> {
    const { rows } = await runSql<{ consecutive_failures: number; failing_since: Date; status: string }>(
      this.m(),
      `UPDATE webhook_endpoint SET consecutive_failures = consecutive_failures + 1,
         failing_since = COALESCE(failing_since, $2)
       WHERE id = $1 RETURNING consecutive_failures, failing_since, status`,
      [id, now],
    );
    const row = rows[0];
    if (!row || row.status !== 'enabled') return false;
    const failures = Number(row.consecutive_failures);
    const since = new Date(row.failing_since);
    if (failures < maxFailures && since > failingSinceLimit) return false;
    const { affected } = await runSql(
      this.m(),
      `UPDATE webhook_endpoint SET status = 'disabled', disabled_at = $2, disabled_reason = $3, updated_at = $2
       WHERE id = $1 AND status = 'enabled'`,
      [id, now, reason(failures, since).slice(0, 500)],
    );
    return affected > 0;
  }

  // ---- outbox ----

  async insertOutbox(events: readonly OutboxInsert[], manager: EntityManager): Promise<void> {
    for (const event of events)
      await runSql(
        manager,
        `INSERT INTO outbox_event (id, tenant_id, account_id, endpoint_id, type, body, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          event.id,
          event.tenantId,
          event.accountId,
          event.endpointId,
          event.type,
          event.body,
          event.createdAt,
        ],
      );
  }

  /**
   * Fan-out, across tenants: turns up to `limit` undispatched outbox events (oldest first) into
   * one pending delivery per matching enabled endpoint, and marks them dispatched, in one
   * transaction. A transaction-scoped advisory lock makes fan-outs of N instances take turns, so
   * deliveries are numbered in event order (the per-account ordering relies on it). Returns the
   * numbers of events and deliveries.
   */
  async fanOutAcrossTenants(now: Date, limit: number): Promise<{ events: number; deliveries: number }> {
    return this.dataSource.transaction(async (manager) => {
      await runSql(manager, `SELECT pg_advisory_xact_lock(hashtext('webhook-fan-out'))`);
      const { rows } = await runSql<{ seq: string }>(
        manager,
        'SELECT seq FROM outbox_event WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE',
        [limit],
      );
      if (rows.length === 0) return { events: 0, deliveries: 0 };
      const seqs = rows.map((r) => String(r.seq));
      const inserted = await runSql(
        manager,
        `INSERT INTO webhook_delivery (id, endpoint_id, tenant_id, event_id, event_type, account_id, body, status, attempts, next_attempt_at, created_at)
         SELECT gen_random_uuid(), e.id, o.tenant_id, o.id, o.type, o.account_id, o.body, 'pending', 0, $2, $2
         FROM outbox_event o
         JOIN webhook_endpoint e ON e.tenant_id = o.tenant_id AND e.status = 'enabled'
           AND (e.id = o.endpoint_id OR (o.endpoint_id IS NULL AND e.event_types ? o.type))
         WHERE o.seq = ANY($1::bigint[])
         ORDER BY o.seq, e.id
         ON CONFLICT DO NOTHING`,
        [seqs, now],
      );
      await runSql(manager, 'UPDATE outbox_event SET dispatched_at = $2 WHERE seq = ANY($1::bigint[])', [
        seqs,
        now,
      ]);
      return { events: rows.length, deliveries: inserted.affected };
    });
  }

  /** Dispatched outbox events older than `before` are removed (the deliveries keep the body). */
  async pruneOutbox(before: Date): Promise<number> {
    const { affected } = await runSql(
      this.m(),
      'DELETE FROM outbox_event WHERE dispatched_at IS NOT NULL AND dispatched_at < $1',
      [before],
    );
    return affected;
  }

  // ---- deliveries ----

  /**
   * The worker's claim, across tenants: up to `limit` pending deliveries that are due, not leased
   * (or whose lease lapsed: a killed instance's), of enabled endpoints, and with no earlier
   * pending delivery of the same account to the same endpoint (order per account). Leased to
   * `owner` until `leaseUntil`, the attempt counted. SKIP LOCKED: N instances claim disjoint rows.
   */
  async claimDueAcrossTenants(
    now: Date,
    owner: string,
    leaseUntil: Date,
    limit: number,
  ): Promise<DeliveryRow[]> {
    const { rows } = await runSql<DeliveryRow>(
      this.m(),
      `UPDATE webhook_delivery d SET lease_until = $2, lease_owner = $3, attempts = d.attempts + 1, last_attempt_at = $1
       WHERE d.seq IN (
         SELECT p.seq FROM webhook_delivery p
         JOIN webhook_endpoint e ON e.id = p.endpoint_id AND e.status = 'enabled'
         WHERE p.status = 'pending' AND p.next_attempt_at <= $1
           AND (p.lease_until IS NULL OR p.lease_until < $1)
           AND (p.account_id IS NULL OR NOT EXISTS (
             SELECT 1 FROM webhook_delivery q
             WHERE q.endpoint_id = p.endpoint_id AND q.account_id = p.account_id
               AND q.status = 'pending' AND q.seq < p.seq))
         ORDER BY p.seq
         LIMIT $4
         FOR UPDATE OF p SKIP LOCKED)
       RETURNING d.*`,
      [now, leaseUntil, owner, limit],
    );
    return rows.map(deliveryFromRow).sort((a, b) => Number(a.seq) - Number(b.seq));
  }

  async markDelivered(
    id: string,
    owner: string,
    now: Date,
    status: number,
    excerpt: string | null,
  ): Promise<void> {
    await runSql(
      this.m(),
      `UPDATE webhook_delivery SET status = 'delivered', delivered_at = $3, last_status_code = $4,
         response_excerpt = $5, last_error = NULL, lease_until = NULL, lease_owner = NULL, next_attempt_at = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [id, owner, now, status, excerpt],
    );
  }

  /** A failed attempt: retried at `nextAttemptAt`, or `failed` for good when that is null. */
  async markAttemptFailed(
    id: string,
    owner: string,
    statusCode: number | null,
    error: string,
    excerpt: string | null,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await runSql(
      this.m(),
      `UPDATE webhook_delivery SET status = $6, last_status_code = $3, last_error = $4, response_excerpt = $5,
         next_attempt_at = $7, lease_until = NULL, lease_owner = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [
        id,
        owner,
        statusCode,
        error.slice(0, 500),
        excerpt,
        nextAttemptAt === null ? 'failed' : 'pending',
        nextAttemptAt,
      ],
    );
  }

  /** Gives a claim back untouched (the endpoint went away or was disabled meanwhile). */
  async release(id: string, owner: string): Promise<void> {
    await runSql(
      this.m(),
      `UPDATE webhook_delivery SET lease_until = NULL, lease_owner = NULL, attempts = GREATEST(attempts - 1, 0)
       WHERE id = $1 AND lease_owner = $2`,
      [id, owner],
    );
  }

  async findDelivery(tenantId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
    const { rows } = await runSql<DeliveryRow>(
      this.m(),
      'SELECT * FROM webhook_delivery WHERE tenant_id = $1 AND endpoint_id = $2 AND id = $3',
      [tenantId, endpointId, id],
    );
    return rows[0] ? deliveryFromRow(rows[0]) : null;
  }

  /** Newest first, keyset on seq. */
  async listDeliveries(
    tenantId: string,
    endpointId: string,
    beforeSeq: string | null,
    limit: number,
    status: DeliveryStatus | null,
  ): Promise<DeliveryRow[]> {
    const { rows } = await runSql<DeliveryRow>(
      this.m(),
      `SELECT * FROM webhook_delivery
       WHERE tenant_id = $1 AND endpoint_id = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
         AND ($5::text IS NULL OR status = $5::text)
       ORDER BY seq DESC LIMIT $4`,
      [tenantId, endpointId, beforeSeq, limit, status],
    );
    return rows.map(deliveryFromRow);
  }

  /** A new pending delivery of the same event (same webhook-id), due now. */
  async insertReplay(original: DeliveryRow, id: string, now: Date): Promise<DeliveryRow> {
    const { rows } = await runSql<DeliveryRow>(
      this.m(),
      `INSERT INTO webhook_delivery (id, endpoint_id, tenant_id, event_id, event_type, account_id, body, replay_of, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, $9) RETURNING *`,
      [
        id,
        original.endpoint_id,
        original.tenant_id,
        original.event_id,
        original.event_type,
        original.account_id,
        original.body,
        original.replay_of ?? original.id,
        now,
      ],
    );
    return deliveryFromRow(rows[0]!);
  }
}

function endpointFromRow(row: EndpointRow): EndpointRow {
  return {
    ...row,
    event_types:
      typeof row.event_types === 'string' ? (JSON.parse(row.event_types) as string[]) : row.event_types,
    consecutive_failures: Number(row.consecutive_failures),
  };
}

function deliveryFromRow(row: DeliveryRow): DeliveryRow {
  return { ...row, seq: String(row.seq), attempts: Number(row.attempts) };
}
