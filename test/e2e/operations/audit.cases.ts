/**
 * The audit trail (docs/audit.md): what is recorded (admin writes, client changes, links, partner
 * reads including the cached balances fast path), the admin query with its filters, the exports,
 * the chain verification (an edited row is found), concurrent appends and retention.
 *
 * It reads the whole audit table (every suite's entries, fewer than its queries' limit of 1000)
 * and in the end prunes all of it: in operations.e2e-spec.ts it runs before the suites that make
 * many requests, and no later suite reads the audit trail. Its clock starts after every other
 * suite's (2026-06-01), so its time filters see its own entries only. Its last case, after the
 * prune, fills the backlog of reads waiting for their append (docs/audit.md, "Backpressure").
 */
import { jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { AppConfig } from '../../../src/config/app-config.js';
import { EnvelopeInterceptor } from '../../../src/common/interceptors/envelope.interceptor.js';
import { AuditService, canonicalLine, entryHash, GENESIS_HASH } from '../../../src/modules/audit/index.js';
import { sandboxId, sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import { bearer, createAccount, csvOf, importCsv, simpleHistory } from '../../factories/accounts.factory.js';
import { holdReadCacheTime } from '../../support/read-cache-time.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';

interface Entry {
  sequence: number;
  occurredAt: string;
  tenantId: string | null;
  actor: { kind: string; id: string };
  action: string;
  target: { kind: string; id: string } | null;
  requestId: string | null;
  status: number | null;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

describe('audit trail (e2e)', () => {
  const clock = new ManualClock(new Date('2026-06-01T12:00:00.000Z'));
  let t: SuiteApp;
  let partner: string;
  let admin: string;
  let audit: AuditService;
  let db: DataSource;
  const sandboxTenant = sandboxTenantId('sandbox');
  const kraken = sandboxId('account:sandbox:kraken-trading');

  beforeAll(async () => {
    t = await startSuite({ AUDIT_READ_FLUSH_MS: '20' }, { clock });
    [partner, admin] = await Promise.all([t.token(), t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)]);
    audit = t.app.get(AuditService);
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** In the chain's order (`order=asc`) unless asked otherwise: most cases read a sequence of events. */
  const query = async (params: Record<string, string | number> = {}): Promise<Entry[]> => {
    const qs = new URLSearchParams(
      Object.entries({ order: 'asc', ...params }).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const res = await t.http
      .get(`/admin/audit${qs ? `?${qs}` : ''}`)
      .set(bearer(admin))
      .expect(200);
    return res.body.entries as Entry[];
  };
  /** GET a JSON Lines export (`application/x-ndjson`, which supertest does not buffer as text). */
  const exportJsonl = (qs: string) =>
    t.http
      .get(`/admin/audit/export?format=jsonl${qs}`)
      .set(bearer(admin))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      })
      .expect(200);
  const byRequest = async (requestId: string) =>
    (await query({ limit: 1000 })).filter((entry) => entry.requestId === requestId);

  it('records an admin write with the admin as actor, the request id and the status', async () => {
    await t.http
      .post('/admin/tenants')
      .set(bearer(admin))
      .set('X-Request-Id', 'audit-tenant-1')
      .send({ slug: 'audit-acme', name: 'Audit Acme' })
      .expect(201);
    const [entry] = await byRequest('audit-tenant-1');
    expect(entry).toMatchObject({
      action: 'tenant.created',
      actor: { kind: 'admin', id: SANDBOX.admin.clientId },
      status: 201,
      details: { method: 'POST', route: '/admin/tenants' },
    });
    expect(entry!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records client changes and never a secret', async () => {
    const created = await t.http
      .post('/admin/clients')
      .set(bearer(admin))
      .set('X-Request-Id', 'audit-client-1')
      .send({ tenant: 'audit-acme', clientId: 'audit-acme-client' })
      .expect(201);
    const rotated = await t.http
      .post('/admin/clients/audit-acme-client/rotate?tenant=audit-acme')
      .set(bearer(admin))
      .set('X-Request-Id', 'audit-client-2')
      .expect(200);
    const [create] = await byRequest('audit-client-1');
    const [rotate] = await byRequest('audit-client-2');
    expect(create).toMatchObject({ action: 'client.created', tenantId: created.body.tenantId });
    expect(rotate).toMatchObject({ action: 'client.secret_rotated', status: 200 });
    const everything = JSON.stringify(await query({ limit: 1000 }));
    expect(everything).not.toContain(created.body.clientSecret);
    expect(everything).not.toContain(rotated.body.clientSecret);
  });

  it('records a refused admin write with its error status', async () => {
    await t.http
      .post('/admin/tenants')
      .set(bearer(admin))
      .set('X-Request-Id', 'audit-tenant-dup')
      .send({ slug: 'audit-acme', name: 'Again' })
      .expect(409);
    expect(await byRequest('audit-tenant-dup')).toMatchObject([{ action: 'tenant.created', status: 409 }]);
  });

  it('commits a write and its entry together: a change whose entry cannot be written is not made', async () => {
    // Entries of successful creations can no longer be written (the failure's own entry can).
    await db.query(
      `ALTER TABLE "audit_entry" ADD CONSTRAINT "audit_test_block" CHECK (NOT ("action" IN ('tenant.created', 'account.linked') AND "status" IN (201, 202))) NOT VALID`,
    );
    try {
      const tenant = await t.http
        .post('/admin/tenants')
        .set(bearer(admin))
        .set('X-Request-Id', 'audit-atomic-tenant')
        .send({ slug: 'audit-atomic', name: 'Never made' });
      expect(tenant.status).toBeGreaterThanOrEqual(500);
      const link = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .set('X-Request-Id', 'audit-atomic-link')
        .send({ tenant: 'sandbox', source: 'csv', platform: 'coinbase', identity: 'audit-atomic-link' });
      expect(link.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.query(`ALTER TABLE "audit_entry" DROP CONSTRAINT "audit_test_block"`);
    }
    await t.http.get('/admin/tenants/audit-atomic').set(bearer(admin)).expect(404);
    const accounts = await db.query(`SELECT 1 FROM "account" WHERE "identity" = 'audit-atomic-link'`);
    expect(accounts).toHaveLength(0);
    // Each refused request is recorded once, with the status it answered.
    await audit.flush();
    const [tenantEntry] = await byRequest('audit-atomic-tenant');
    expect(tenantEntry).toMatchObject({ action: 'tenant.created', status: 500 });
    expect(await byRequest('audit-atomic-link')).toMatchObject([{ action: 'account.linked', status: 500 }]);
  });

  it('records link, import, refresh and unlink of an account (admin and partner)', async () => {
    const { accountId } = await createAccount(t, admin, {});
    await importCsv(t, admin, accountId, csvOf(simpleHistory('aud')))
      .set('X-Request-Id', 'audit-import')
      .expect(200);
    await t.http
      .post(`/admin/accounts/${accountId}/refresh?tenant=sandbox`)
      .set(bearer(admin))
      .set('X-Request-Id', 'audit-refresh');
    await t.http
      .delete(`/v1/api/accounts/${accountId}`)
      .set(bearer(partner))
      .set('X-Request-Id', 'audit-unlink')
      .expect(204);
    const entries = await query({ accountId, limit: 1000 });
    expect(entries.map((entry) => entry.action)).toEqual([
      'account.linked',
      'account.imported',
      'account.refreshed',
      'account.unlinked',
    ]);
    expect(entries[0]).toMatchObject({ actor: { kind: 'admin' }, details: { tenant: 'sandbox' } });
    expect(entries[3]).toMatchObject({
      actor: { kind: 'client', id: SANDBOX.partner.clientId },
      tenantId: sandboxTenant,
      target: { kind: 'account', id: accountId },
      requestId: 'audit-unlink',
      status: 204,
    });
  });

  it('records partner reads: transactions, gains report, and balances on the route and on the fast path', async () => {
    const intercepted = jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');
    const path = `/v1/api/account/${kraken}/balances`;
    const release = holdReadCacheTime(t.app); // the second read finds the first's entry, however slow the machine
    try {
      await t.http.get(path).set(bearer(partner)).set('X-Request-Id', 'audit-read-1').expect(200);
      const routeCalls = intercepted.mock.calls.length;
      await t.http.get(path).set(bearer(partner)).set('X-Request-Id', 'audit-read-2').expect(200);
      expect(intercepted.mock.calls.length).toBe(routeCalls); // the second one took the fast path
    } finally {
      release();
    }
    intercepted.mockRestore();
    await t.http
      .get(`/v1/api/account/${kraken}/transactions?limit=5`)
      .set(bearer(partner))
      .set('X-Request-Id', 'audit-read-3')
      .expect(200);
    await t.http
      .get(`/taip/gains-report?tax_year=2025&account_id=${kraken}`)
      .set(bearer(partner))
      .set('X-Request-Id', 'audit-read-4')
      .expect(200);
    const reads = (await query({ accountId: kraken, actor: SANDBOX.partner.clientId, limit: 1000 })).filter(
      (e) => e.requestId?.startsWith('audit-read-'),
    );
    expect(reads.map((e) => [e.requestId, e.action])).toEqual([
      ['audit-read-1', 'account.read.balances'],
      ['audit-read-2', 'account.read.balances'],
      ['audit-read-3', 'account.read.transactions'],
      ['audit-read-4', 'account.read.gains'],
    ]);
    expect(reads[1]!.details).toMatchObject({ fastPath: true });
    expect(reads[3]!.details).toMatchObject({ tax_year: '2025' });
    for (const read of reads) expect(read).toMatchObject({ tenantId: sandboxTenant, status: 200 });
  });

  it('records a read that failed, with its status', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    await t.http
      .get(`/v1/api/account/${missing}/balances`)
      .set(bearer(partner))
      .set('X-Request-Id', 'audit-read-404')
      .expect(404);
    expect(await byRequest('audit-read-404')).toMatchObject([
      { action: 'account.read.balances', status: 404 },
    ]);
  });

  it('records a read naming an id with a lone surrogate as stored (U+FFFD), and the chain still verifies', async () => {
    // A JSON body can carry a lone surrogate; the database stores it as U+FFFD, so the entry must
    // be hashed that way too (and a 128-unit cut through a surrogate pair likewise).
    await t.http
      .post('/qscore/evaluate')
      .set(bearer(partner))
      .set('X-Request-Id', 'audit-read-surrogate')
      .send({ account_id: 'x\ud800y', as_of: '2025-01-01' })
      .expect(400);
    const [entry] = await byRequest('audit-read-surrogate');
    expect(entry).toMatchObject({
      action: 'account.read.qscore',
      status: 400,
      target: { kind: 'account', id: 'x\ufffdy' },
    });
    const cut = `${'a'.repeat(127)}😀`; // the pair's first half is the 128th unit
    await audit.append({
      tenantId: null,
      actor: { kind: 'system', id: cut },
      action: 'test.cut-pair',
      target: { kind: 'account', id: cut },
    });
    const verdict = await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200);
    expect(verdict.body).toMatchObject({ valid: true, firstBrokenSequence: null });
  });

  it('filters by tenant, actor, account, action and time, and pages with a cursor', async () => {
    const all = await query({ limit: 1000 });
    expect(all.map((e) => e.sequence)).toEqual([...all.map((e) => e.sequence)].sort((a, b) => a - b));
    const mine = await query({ tenantId: sandboxTenant, limit: 1000 });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.tenantId === sandboxTenant)).toBe(true);
    const admins = await query({ actor: SANDBOX.admin.clientId, limit: 1000 });
    expect(admins.every((e) => e.actor.id === SANDBOX.admin.clientId)).toBe(true);
    const linked = await query({ action: 'account.linked', limit: 1000 });
    expect(linked.every((e) => e.action === 'account.linked')).toBe(true);

    const later = new Date(clock.now().getTime() + 60_000);
    clock.set(later);
    await t.http.get(`/v1/api/account/${kraken}/transactions?limit=1`).set(bearer(partner)).expect(200);
    const since = await query({ from: later.toISOString(), limit: 1000 });
    expect(since.map((e) => e.action)).toEqual(['account.read.transactions']);
    const before = await query({ to: later.toISOString(), limit: 1000 });
    expect(before.length).toBe(all.length);

    const first = await t.http.get('/admin/audit?limit=2&order=asc').set(bearer(admin)).expect(200);
    expect(first.body.entries).toHaveLength(2);
    const second = await t.http
      .get(`/admin/audit?limit=2&order=asc&cursor=${first.body.nextCursor}`)
      .set(bearer(admin))
      .expect(200);
    expect(second.body.entries[0].sequence).toBe(first.body.entries[1].sequence + 1);
  });

  it('answers newest first with no parameter at all (Swagger UI’s defaults find entries), and pages backwards', async () => {
    const all = await query({ limit: 1000 });
    const latest = await t.http.get('/admin/audit').set(bearer(admin)).expect(200);
    const newest = [...all].reverse();
    expect(latest.body.entries.map((e: Entry) => e.sequence)).toEqual(
      newest.slice(0, Math.min(100, newest.length)).map((e) => e.sequence),
    );
    const first = await t.http.get('/admin/audit?limit=2').set(bearer(admin)).expect(200);
    const second = await t.http
      .get(`/admin/audit?limit=2&cursor=${first.body.nextCursor}`)
      .set(bearer(admin))
      .expect(200);
    expect([...first.body.entries, ...second.body.entries].map((e: Entry) => e.sequence)).toEqual(
      newest.slice(0, 4).map((e) => e.sequence),
    );
  });

  it('names a tenant by its slug, as every other admin route does', async () => {
    const bySlug = await query({ tenant: 'sandbox', limit: 1000 });
    expect(bySlug.length).toBeGreaterThan(0);
    expect(bySlug).toEqual(await query({ tenantId: sandboxTenant, limit: 1000 }));
    const exported = await exportJsonl('&tenant=sandbox');
    expect((exported.body as string).trim().split('\n').length).toBeGreaterThanOrEqual(bySlug.length);
    for (const [qs, message] of [
      ['tenant=no-such-firm', 'Tenant "no-such-firm" does not exist.'],
      [`tenant=sandbox&tenantId=${sandboxTenant}`, 'Give tenant (a slug) or tenantId (a UUID), not both.'],
    ]) {
      const res = await t.http.get(`/admin/audit?${qs}`).set(bearer(admin)).expect(400);
      expect(res.body.errors).toEqual({ tenant: [message] });
    }
  });

  it('answers 400 naming the field for bad filters, and 403 to a partner', async () => {
    for (const [qs, field] of [
      ['limit=1001', 'limit'],
      ['tenantId=nope', 'tenantId'],
      ['order=sideways', 'order'],
      ['from=yesterday', 'from'],
      ['cursor=abc', 'cursor'],
    ]) {
      const res = await t.http.get(`/admin/audit?${qs}`).set(bearer(admin)).expect(400);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    await t.http.get('/admin/audit').set(bearer(partner)).expect(403);
  });

  it('exports CSV and JSONL with the same filters, each entry once', async () => {
    const entries = await query({ tenantId: sandboxTenant, limit: 1000 });
    const jsonl = await exportJsonl(`&tenantId=${sandboxTenant}`);
    expect(jsonl.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = (jsonl.body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Entry);
    expect(lines).toEqual(entries);

    const csv = await t.http
      .get(`/admin/audit/export?format=csv&tenantId=${sandboxTenant}`)
      .set(bearer(admin))
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe(
      'sequence,id,occurredAt,tenantId,actorKind,actorId,action,targetKind,targetId,requestId,status,details,prevHash,hash',
    );
    expect(rows).toHaveLength(entries.length + 1);
    expect(rows[1]!.startsWith(`${entries[0]!.sequence},`)).toBe(true);
    expect(rows[1]!.endsWith(entries[0]!.hash)).toBe(true);

    await t.http.get('/admin/audit/export?format=xml').set(bearer(admin)).expect(400);
  });

  it('verifies the chain, and each hash is reproducible from the documented canonical line', async () => {
    const verdict = await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200);
    const entries = await query({ limit: 1000 });
    expect(verdict.body).toEqual({
      valid: true,
      entries: entries.length,
      firstBrokenSequence: null,
      anchorSequence: 0,
    });
    expect(entries[0]!.prevHash).toBe(GENESIS_HASH);
    // docs/audit.md: details enter as their stored (canonical) JSON text.
    const [row] = await db.query(`SELECT "details" FROM "audit_entry" WHERE "sequence" = $1`, [
      entries[1]!.sequence,
    ]);
    const fields = {
      sequence: String(entries[1]!.sequence),
      occurredAt: entries[1]!.occurredAt,
      tenantId: entries[1]!.tenantId,
      actorKind: entries[1]!.actor.kind,
      actorId: entries[1]!.actor.id,
      action: entries[1]!.action,
      targetKind: entries[1]!.target?.kind ?? null,
      targetId: entries[1]!.target?.id ?? null,
      requestId: entries[1]!.requestId,
      status: entries[1]!.status,
      details: row.details as string,
    };
    expect(canonicalLine(fields, entries[1]!.prevHash).startsWith(`["${entries[1]!.sequence}",`)).toBe(true);
    expect(entryHash(fields, entries[1]!.prevHash)).toBe(entries[1]!.hash);
    expect(entries[1]!.prevHash).toBe(entries[0]!.hash);
  });

  it('an export re-verifies offline with scripts/verify-audit.mjs (docs/audit.md), and a changed line fails', async () => {
    const res = await exportJsonl('');
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    const file = join(dir, 'audit.jsonl');
    writeFileSync(file, res.body as string);
    const run = (path: string) => {
      try {
        return execFileSync(process.execPath, ['scripts/verify-audit.mjs', path], { encoding: 'utf8' });
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    };
    expect(run(file)).toMatch(/^valid: \d+ entries/);
    const lines = (res.body as string).trim().split('\n');
    const edited = JSON.parse(lines[3]!) as Entry;
    edited.status = 599;
    lines[3] = JSON.stringify(edited);
    writeFileSync(file, lines.join('\n'));
    expect(run(file)).toBe(`INVALID: entry ${edited.sequence} does not verify\n`);
  });

  it('refuses UPDATE and DELETE in the database', async () => {
    await expect(db.query(`UPDATE "audit_entry" SET "status" = 200 WHERE "sequence" = 1`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query(`DELETE FROM "audit_entry" WHERE "sequence" = 1`)).rejects.toThrow(/append-only/);
  });

  it('finds an edited row (edited as a superuser would, with the trigger off)', async () => {
    const target = (await query({ limit: 1000 }))[2]!;
    await db.query(`ALTER TABLE "audit_entry" DISABLE TRIGGER "audit_entry_append_only"`);
    try {
      await db.query(`UPDATE "audit_entry" SET "actor_id" = 'someone-else' WHERE "sequence" = $1`, [
        target.sequence,
      ]);
      const broken = await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200);
      expect(broken.body).toMatchObject({ valid: false, firstBrokenSequence: target.sequence });
      await db.query(`UPDATE "audit_entry" SET "actor_id" = $1 WHERE "sequence" = $2`, [
        target.actor.id,
        target.sequence,
      ]);
      // A deleted entry breaks the link of the one after it.
      const saved = (
        await db.query(`SELECT * FROM "audit_entry" WHERE "sequence" = $1`, [target.sequence])
      )[0];
      await db.query(`DELETE FROM "audit_entry" WHERE "sequence" = $1`, [target.sequence]);
      const gap = await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200);
      expect(gap.body).toMatchObject({ valid: false, firstBrokenSequence: target.sequence + 1 });
      const columns = Object.keys(saved as object);
      await db.query(
        `INSERT INTO "audit_entry" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        columns.map((c) => (saved as Record<string, unknown>)[c]),
      );
    } finally {
      await db.query(`ALTER TABLE "audit_entry" ENABLE TRIGGER "audit_entry_append_only"`);
    }
    expect((await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200)).body.valid).toBe(true);
  });

  it('keeps the chain linear under concurrent appends', async () => {
    const before = await audit.verify();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        audit.append({
          tenantId: sandboxTenant,
          actor: { kind: 'system', id: `writer-${i % 4}` },
          action: 'test.concurrent',
          details: { i },
        }),
      ),
    );
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.http
          .get(`/v1/api/account/${kraken}/balances`)
          .set(bearer(partner))
          .set('X-Request-Id', `burst-${i}`),
      ),
    );
    const after = await audit.verify();
    expect(after).toMatchObject({ valid: true, firstBrokenSequence: null });
    expect(after.entries).toBe(before.entries + 70);
  });

  it('prunes past the retention period and still verifies from the anchor', async () => {
    const all = await query({ limit: 1000 });
    clock.set(new Date(clock.now().getTime() + 2555 * 86_400_000 + 1000));
    // Only entries older than 2555 days go: everything so far; a new one stays.
    await audit.append({ tenantId: null, actor: { kind: 'system', id: 'test' }, action: 'test.after' });
    const pruned = await audit.prune();
    expect(pruned).toBe(all.length);
    const verdict = await t.http.get('/admin/audit/verify').set(bearer(admin)).expect(200);
    expect(verdict.body).toEqual({
      valid: true,
      entries: 1,
      firstBrokenSequence: null,
      anchorSequence: all[all.length - 1]!.sequence,
    });
  });

  it('holds a partner read while the audit backlog is full, and refuses it with 503 and Retry-After when the trail cannot catch up', async () => {
    // An account no other suite of the file reads: the entry this case caches stays out of their way.
    const account = sandboxId('account:sandbox:btc-cold-storage');
    const path = `/v1/api/account/${account}/balances`;
    const backlog = t.app.get(AppConfig).AUDIT_READ_BACKLOG;
    const token = await t.token();
    const first = await t.http.get(path).set(bearer(token)).expect(200); // cached now: the next takes the fast path unless held
    await audit.flush();
    // Appends fail while the backlog's reads are in them (a database refusing them, as when it is down).
    await db.query(
      `ALTER TABLE "audit_entry" ADD CONSTRAINT "audit_test_backlog" CHECK ("actor_id" <> 'backlog-filler') NOT VALID`,
    );
    const errors = jest.spyOn((audit as unknown as { logger: { error: () => void } }).logger, 'error');
    errors.mockImplementation(() => undefined);
    let blocked = true;
    let fillers = 0;
    try {
      // Reads until the backlog is full (the first full batch went into an append of its own, which fails too).
      for (; audit.hasRoom(); fillers++)
        audit.recordRead({
          tenantId: sandboxTenant,
          actorKind: 'client',
          actorId: 'backlog-filler',
          action: 'account.read.balances',
          accountId: account,
          requestId: `backlog-${fillers}`,
          status: 200,
        });
      expect(audit.pendingReads).toBe(backlog);

      const startedAt = performance.now();
      // Every audited route waits the same way (here: the fast path's and one without it, at once).
      const [refused, otherRoute] = await Promise.all([
        t.http.get(path).set(bearer(token)).set('X-Request-Id', 'audit-backlog-refused'),
        t.http.get(`/v1/api/account/${account}/transactions?limit=5`).set(bearer(token)),
      ]);
      expect([refused.status, otherRoute.status]).toEqual([503, 503]);
      expect(performance.now() - startedAt).toBeGreaterThanOrEqual(1_900); // it waited for room first
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.body).toMatchObject({
        isError: true,
        statusCode: 503,
        result: null,
        responseException: {
          exceptionMessage: {
            status: 503,
            title: 'Service Unavailable',
            reason: 'audit_backlog',
            instance: path,
            traceId: 'audit-backlog-refused',
          },
        },
      });
      expect(refused.body.message).toMatch(/audit trail/);
      // What is not audited is not held.
      await t.http.get('/health/live').expect(200);

      // A read that waits is answered once appends take reads from the backlog again.
      const held = t.http
        .get(path)
        .set(bearer(token))
        .set('X-Request-Id', 'audit-backlog-held')
        .then((res) => res);
      let answeredYet = false;
      void held.then(() => (answeredYet = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answeredYet).toBe(false); // waiting for room
      await db.query(`ALTER TABLE "audit_entry" DROP CONSTRAINT "audit_test_backlog"`);
      blocked = false;
      void audit.flush(); // the retry timer would too, after its back-off
      const answered = await held;
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual(first.body);
    } finally {
      if (blocked) await db.query(`ALTER TABLE "audit_entry" DROP CONSTRAINT "audit_test_backlog"`);
      errors.mockRestore();
    }
    await audit.flush();
    const reads = await query({ actor: SANDBOX.partner.clientId, limit: 1000 });
    const ids = reads.map((entry) => entry.requestId);
    expect(ids).toContain('audit-backlog-held');
    expect(ids).not.toContain('audit-backlog-refused'); // refused before it read anything
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM "audit_entry" WHERE "actor_id" = 'backlog-filler'`,
    );
    expect(count).toBe(fillers); // none lost
    expect(await audit.verify()).toMatchObject({ valid: true });
  });
});
