/**
 * Report snapshots (docs/tax-report.md, "Report snapshots"): a frozen gains report or Form 8949
 * is returned unchanged, with the checksum of the data it came from, after later imports change
 * the history (while the live report changes); tenant-scoped; survives the account's unlink;
 * audited; idempotent with Idempotency-Key.
 */
import { createHash } from 'node:crypto';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  simpleHistory,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

describe('report snapshots (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let partnerB: string;
  let admin: string;
  let accountId: string;

  beforeAll(async () => {
    t = await startSuite();
    [partner, partnerB, admin] = await Promise.all([
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
    ({ accountId } = await createAccount(t, admin, {}));
    await importCsv(t, admin, accountId, csvOf(simpleHistory('snap', '2024-01-01T10:00:00Z'))).expect(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const freeze = (body: object, token = partner) =>
    t.http.post('/v1/api/report-snapshots').set(bearer(token)).send(body);
  const live = async (kind: 'gains' | 'form8949') =>
    (
      await t.http
        .get(`/taip/${kind === 'gains' ? 'gains-report' : 'form-8949'}?tax_year=2024&account_id=${accountId}`)
        .set(bearer(partner))
        .expect(200)
    ).body;
  const checksum = async () =>
    (await t.http.get('/v1/api/checksum').set(bearer(partner)).expect(200)).body.result.checksum as string;

  let gainsId: string;
  let formId: string;
  let frozenGains: unknown;
  let frozenForm: unknown;
  let checksumThen: string;

  it('freezes a gains report and a Form 8949 exactly as the live endpoints produce them', async () => {
    checksumThen = await checksum();
    const gains = await freeze({ kind: 'gains', taxYear: 2024, accountId })
      .set('X-Request-Id', 'snap-1')
      .expect(201);
    expect(gains.body).toMatchObject({ isError: false, statusCode: 201 });
    const snapshot = gains.body.result;
    expect(snapshot).toMatchObject({
      kind: 'gains',
      accountId,
      parameters: { taxYear: 2024, method: 'fifo', asset: 'ALL', accountId, identity: null },
      createdBy: SANDBOX.partner.clientId,
      dataChecksum: checksumThen,
    });
    expect(snapshot.dataRowCount).toBeGreaterThan(0);
    expect(snapshot.report).toEqual(await live('gains'));
    expect(createHash('sha256').update(JSON.stringify(snapshot.report)).digest('hex')).toBe(
      snapshot.reportSha256,
    );
    gainsId = snapshot.id;
    frozenGains = snapshot.report;

    const form = await freeze({ kind: 'form8949', taxYear: 2024, accountId, method: 'hifo' }).expect(201);
    expect(form.body.result.parameters.method).toBe('hifo');
    expect(form.body.result.report).toMatchObject({ tax_year: 2024, method: 'hifo' });
    formId = form.body.result.id;
    frozenForm = form.body.result.report;
  });

  it('returns the frozen report and checksum unchanged after an import changes the history', async () => {
    const before = await t.http.get(`/v1/api/report-snapshots/${gainsId}`).set(bearer(partner)).expect(200);
    const more = [
      ...simpleHistory('snap', '2024-01-01T10:00:00Z'),
      sourceTx({
        transactionId: 'snap-late-sell',
        direction: 'sell',
        at: '2024-11-20T10:00:00Z',
        amount: '0.3',
        priceUsd: '91000',
      }),
    ];
    await importCsv(t, admin, accountId, csvOf(more)).expect(200);
    expect(await checksum()).not.toBe(checksumThen);
    expect(await live('gains')).not.toEqual(frozenGains);

    const after = await t.http.get(`/v1/api/report-snapshots/${gainsId}`).set(bearer(partner)).expect(200);
    expect(after.text).toBe(before.text);
    expect(after.body.result.report).toEqual(frozenGains);
    expect(after.body.result.dataChecksum).toBe(checksumThen);
    const form = await t.http.get(`/v1/api/report-snapshots/${formId}`).set(bearer(partner)).expect(200);
    expect(form.body.result.report).toEqual(frozenForm);

    // A new snapshot has the new data's checksum.
    const fresh = await freeze({ kind: 'gains', taxYear: 2024, accountId }).expect(201);
    expect(fresh.body.result.dataChecksum).toBe(await checksum());
    expect(fresh.body.result.report).toEqual(await live('gains'));
  });

  it('lists the tenant’s snapshots newest first, with filters and a cursor', async () => {
    const all = await t.http.get('/v1/api/report-snapshots').set(bearer(partner)).expect(200);
    const ids = all.body.result.snapshots.map((s: { id: string }) => s.id);
    expect(ids).toHaveLength(3);
    expect(ids.slice(1)).toEqual([formId, gainsId]);
    expect(all.body.result.snapshots[0].report).toBeUndefined();
    const forms = await t.http.get('/v1/api/report-snapshots?kind=form8949').set(bearer(partner)).expect(200);
    expect(forms.body.result.snapshots.map((s: { id: string }) => s.id)).toEqual([formId]);
    const first = await t.http.get('/v1/api/report-snapshots?limit=2').set(bearer(partner)).expect(200);
    const next = await t.http
      .get(`/v1/api/report-snapshots?limit=2&cursor=${encodeURIComponent(first.body.result.nextCursor)}`)
      .set(bearer(partner))
      .expect(200);
    expect(next.body.result.snapshots.map((s: { id: string }) => s.id)).toEqual([gainsId]);
    expect(next.body.result.nextCursor).toBeNull();
  });

  it('answers 404 to another tenant, and lists none of ours to it', async () => {
    await t.http.get(`/v1/api/report-snapshots/${gainsId}`).set(bearer(partnerB)).expect(404);
    const theirs = await t.http.get('/v1/api/report-snapshots').set(bearer(partnerB)).expect(200);
    expect(theirs.body.result.snapshots).toEqual([]);
    await freeze({ kind: 'gains', taxYear: 2024, accountId }, partnerB).expect(404);
  });

  it('answers 400 naming the field', async () => {
    const cases: [object, string][] = [
      [{ kind: 'pdf', taxYear: 2024 }, 'kind'],
      [{ kind: 'gains', taxYear: 2001 }, 'taxYear'],
      [{ kind: 'gains', taxYear: '2024' }, 'taxYear'],
      [{ kind: 'gains', taxYear: 2024, accountId: 'x' }, 'accountId'],
      [{ kind: 'gains', taxYear: 2024, accountId, identity: 'y' }, 'accountId'],
      [{ kind: 'gains', taxYear: 2024, method: 'average' }, 'method'],
    ];
    for (const [body, field] of cases) {
      const res = await freeze(body).expect(400);
      expect(Object.keys(res.body.responseException.exceptionMessage.errors)).toContain(field);
    }
    await t.http.get('/v1/api/report-snapshots/not-a-uuid').set(bearer(partner)).expect(400);
  });

  it('is idempotent with an Idempotency-Key', async () => {
    const body = { kind: 'gains', taxYear: 2024 };
    const first = await freeze(body).set('Idempotency-Key', 'snap-idem-1').expect(201);
    const again = await freeze(body).set('Idempotency-Key', 'snap-idem-1').expect(201);
    expect(again.body.result.id).toBe(first.body.result.id);
    expect(first.body.result.accountId).toBeNull();
  });

  it('records the creation (and reads) in the audit trail', async () => {
    const res = await t.http
      .get(`/admin/audit?action=report_snapshot.created&accountId=${accountId}&order=asc`)
      .set(bearer(admin))
      .expect(200);
    expect(res.body.entries[0]).toMatchObject({
      action: 'report_snapshot.created',
      requestId: 'snap-1',
      status: 201,
      actor: { kind: 'client', id: SANDBOX.partner.clientId },
      details: { snapshotId: gainsId, kind: 'gains', dataChecksum: checksumThen },
    });
    const reads = await t.http
      .get(`/admin/audit?action=account.read.report_snapshot&accountId=${accountId}`)
      .set(bearer(admin))
      .expect(200);
    expect(reads.body.entries.length).toBeGreaterThan(0);
  });

  it('survives the account’s unlink', async () => {
    const before = await t.http.get(`/v1/api/report-snapshots/${gainsId}`).set(bearer(partner)).expect(200);
    await t.http.delete(`/v1/api/accounts/${accountId}`).set(bearer(partner)).expect(204);
    await t.http
      .get(`/taip/gains-report?tax_year=2024&account_id=${accountId}`)
      .set(bearer(partner))
      .expect(404);
    const after = await t.http.get(`/v1/api/report-snapshots/${gainsId}`).set(bearer(partner)).expect(200);
    expect(after.text).toBe(before.text);
  });
});
