/**
 * How audit entries are stored (docs/audit.md): what AuditService.append hashed is what the row
 * holds, byte for byte, whatever the entry carries (nulls, non-ASCII text, long details, a lone
 * surrogate escaped in details, several statements of one append; on PostgreSQL one COPY, on
 * PGlite INSERT statements), and the chain verifies.
 */
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AuditService,
  canonicalJson,
  type AuditDraft,
  type AuditEntryRecord,
} from '../../../src/modules/audit/index.js';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

interface RawRow {
  id: string;
  sequence: string;
  occurred_at: string;
  tenant_id: string | null;
  actor_kind: string;
  actor_id: string;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  request_id: string | null;
  status: number | null;
  details: string;
  details_md5: string;
  details_bytes: number;
  prev_hash: string;
  hash: string;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

describe('audit entries as stored (e2e)', () => {
  let t: TestApp;
  let audit: AuditService;
  let db: DataSource;

  beforeAll(async () => {
    t = await startSuite();
    audit = t.app.get(AuditService);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The rows of `entries`, every column as text the database gives back. */
  const stored = async (entries: readonly AuditEntryRecord[]): Promise<Map<string, RawRow>> => {
    const rows = (await db.query(
      `SELECT "id"::text AS "id", "sequence"::text AS "sequence",
              to_char("occurred_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurred_at",
              "tenant_id"::text AS "tenant_id", "actor_kind", "actor_id", "action", "target_kind", "target_id",
              "request_id", "status", "details", md5("details") AS "details_md5",
              octet_length("details") AS "details_bytes", "prev_hash", "hash"
         FROM "audit_entry" WHERE "sequence" BETWEEN $1 AND $2`,
      [entries[0]!.sequence, entries[entries.length - 1]!.sequence],
    )) as RawRow[];
    return new Map(rows.map((row) => [row.sequence, row]));
  };

  const expectStoredAsAppended = async (entries: readonly AuditEntryRecord[]) => {
    const rows = await stored(entries);
    expect(rows.size).toBe(entries.length);
    for (const entry of entries) {
      const row = rows.get(entry.sequence)!;
      expect({
        id: row.id,
        sequence: row.sequence,
        occurredAt: row.occurred_at,
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
      }).toEqual(entry);
      expect(row.details_md5).toBe(md5(entry.details));
      expect(Number(row.details_bytes)).toBe(Buffer.byteLength(entry.details, 'utf8'));
    }
  };

  it('stores nulls, non-ASCII text and long details exactly as hashed, and verifies', async () => {
    const drafts: AuditDraft[] = [
      { tenantId: null, actor: { kind: 'system', id: 'nulls' }, action: 'test.nulls' },
      {
        occurredAt: new Date('2026-11-24T15:30:05.123Z'),
        tenantId: '724e7afe-45b3-5136-9b5f-57ccdf604e21',
        actor: { kind: 'client', id: 'клиент-ü-😀-"quoted"\\back\tslash' },
        action: 'test.unicode',
        // A tab, a backslash, CR and LF: escaped in COPY's text format on PostgreSQL (audit.service.ts copyText).
        target: { kind: 'account', id: 'Zürich-账户-𝔘\r\n\\N\t' },
        requestId: 'req-ﬁ-\u2028-\u0001',
        status: 200,
        details: { zeta: 'é😀', alpha: ['x', { b: null, a: 1.5 }], quote: '"\\/\n' },
      },
      {
        occurredAt: new Date('1999-12-31T23:59:59.999Z'),
        tenantId: null,
        actor: { kind: 'admin', id: 'a'.repeat(300) },
        action: 'test.long',
        target: { kind: 'account', id: 'b'.repeat(200) },
        requestId: 'c'.repeat(200),
        status: 599,
        details: { text: 'long—détails '.repeat(12_000), n: 1 },
      },
    ];
    const entries = await audit.append(drafts);
    expect(entries.map((entry) => entry.actorId.length)).toEqual([5, drafts[1]!.actor.id.length, 128]);
    expect(entries[1]!.details).toBe(canonicalJson(drafts[1]!.details));
    await expectStoredAsAppended(entries);
    expect(await audit.verify()).toMatchObject({ valid: true, firstBrokenSequence: null });
  });

  it('stores details holding an escaped lone surrogate exactly (the array form)', async () => {
    const entries = await audit.append([
      { tenantId: null, actor: { kind: 'system', id: 'before' }, action: 'test.surrogate' },
      {
        tenantId: null,
        actor: { kind: 'system', id: 'surrogate' },
        action: 'test.surrogate',
        details: { lone: 'x\ud800y', backslash: '\\ud800' },
      },
    ]);
    expect(entries[1]!.details).toBe('{"backslash":"\\\\ud800","lone":"x\\ud800y"}');
    await expectStoredAsAppended(entries);
    expect(await audit.verify()).toMatchObject({ valid: true, firstBrokenSequence: null });
  });

  it('appends over several statements in one call, details of changing shapes each their own text', async () => {
    const shapes: Record<string, unknown>[] = [
      { method: 'GET', route: '/r', fastPath: true },
      { fastPath: true, route: '/r', method: 'GET' },
      { method: 'HEAD', route: '/r', fastPath: true },
      { method: 'GET', route: '/r' },
      { method: 'GET', route: '/r', fastPath: true, extra: undefined },
      { method: 'GET', route: '/r', fastPath: true, extra: null },
      { method: 'GET', route: { nested: 1 }, fastPath: true },
      { 10: 'ten', 9: 'nine', b: 0, a: -0 },
      Object.assign(Object.create(null) as Record<string, unknown>, { z: 1, y: 2 }),
      {},
    ];
    const drafts: AuditDraft[] = Array.from({ length: 1_234 }, (_, i) => ({
      tenantId: null,
      actor: { kind: 'client', id: `client-${i % 7}` },
      action: 'test.batches',
      target: { kind: 'account', id: `account-${i}` },
      requestId: i % 3 === 0 ? null : `req-${i}`,
      status: i % 5 === 0 ? null : 200,
      details: { ...shapes[i % shapes.length]! },
    }));
    const entries = await audit.append(drafts);
    expect(entries).toHaveLength(1_234);
    entries.forEach((entry, i) => expect(entry.details).toBe(canonicalJson(drafts[i]!.details)));
    await expectStoredAsAppended(entries);
    expect(await audit.verify()).toMatchObject({ valid: true, firstBrokenSequence: null });
  });

  it('appends queued reads in order, one per read', async () => {
    const before = await audit.verify();
    for (let i = 0; i < 1_100; i++) {
      audit.recordRead({
        tenantId: '724e7afe-45b3-5136-9b5f-57ccdf604e21',
        actorKind: 'client',
        actorId: 'sandbox-client',
        action: 'account.read.balances',
        accountId: 'acc',
        requestId: `read-${i}`,
        status: 200,
        details: { method: 'GET', route: '/v1/api/account/:accountId/balances', fastPath: true },
      });
    }
    await audit.flush();
    const entries = await audit.list({ action: 'account.read.balances' }, 2_000);
    expect(entries.map((entry) => entry.requestId)).toEqual(
      Array.from({ length: 1_100 }, (_, i) => `read-${i}`),
    );
    expect(new Set(entries.map((entry) => entry.details))).toEqual(
      new Set(['{"fastPath":true,"method":"GET","route":"/v1/api/account/:accountId/balances"}']),
    );
    expect(await audit.verify()).toMatchObject({ valid: true, entries: before.entries + 1_100 });
  });
});
