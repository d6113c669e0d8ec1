/**
 * Idempotency-Key on writes (issue 18 item 5, Stripe's semantics): the same key and request get
 * the first response again without executing twice; the same key with another request is 422;
 * a retry while the first runs is 409 with Retry-After; keys are per client and kept 24 hours.
 */
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { IdempotencyService } from '../../../src/modules/idempotency/testing.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

describe('Idempotency-Key (e2e)', () => {
  let t: TestApp;
  let a: string;
  let b: string;
  let admin: string;
  const clock = new ManualClock(START);

  beforeAll(async () => {
    t = await startSuite({}, { clock });
    a = `Bearer ${await t.token()}`;
    b = `Bearer ${await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret)}`;
    admin = `Bearer ${await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)}`;
  });
  afterAll(() => t.close());

  let n = 0;
  const uniqueKey = () => `key-${process.pid}-${++n}`;
  const create = (body: object, key?: string, auth = a) => {
    const req = t.http.post('/api/portfolios').set('Authorization', auth);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const portfolioNames = async (auth = a) =>
    (
      (await t.http.get('/api/portfolios').set('Authorization', auth).expect(200)).body as { name: string }[]
    ).map((p) => p.name);

  it('answers a retry with the first response, byte for byte, and creates one portfolio', async () => {
    const key = uniqueKey();
    const body = { name: 'Idem once', allocations: { BTC: 60, ETH: 40 } };
    const first = await create(body, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await create(body, key).expect(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.text).toBe(first.text);
    // Key order in the JSON body does not make it another request.
    const reordered = await create({ allocations: { ETH: 40, BTC: 60 }, name: 'Idem once' }, key).expect(201);
    expect(reordered.text).toBe(first.text);
    expect((await portfolioNames()).filter((name) => name === 'Idem once')).toHaveLength(1);
  });

  it('refuses the same key with another body with 422 naming Idempotency-Key, and writes nothing', async () => {
    const key = uniqueKey();
    await create({ name: 'Idem first', allocations: { BTC: 100 } }, key).expect(201);
    const res = await create({ name: 'Idem second', allocations: { BTC: 100 } }, key).expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      status: 422,
      reason: 'idempotency_key_reused',
      errors: { 'Idempotency-Key': ['Already used with a different request.'] },
    });
    expect(await portfolioNames()).not.toContain('Idem second');
    // Another path with the same key is another request too.
    const put = await t.http
      .put(
        `/api/portfolios/${(await create({ name: 'Idem put', allocations: { BTC: 100 } }).expect(201)).body.id}`,
      )
      .set('Authorization', a)
      .set('Idempotency-Key', key)
      .send({ name: 'Idem first', allocations: { BTC: 100 } });
    expect(put.status).toBe(422);
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['empty', ''],
  ])('refuses a key %s with 400 naming Idempotency-Key', async (_label, key) => {
    const res = await create({ name: 'Idem bad key', allocations: { BTC: 100 } }, key).expect(400);
    expect(res.body.errors).toEqual({ 'Idempotency-Key': ['Must be 1 to 255 visible ASCII characters.'] });
    expect(await portfolioNames()).not.toContain('Idem bad key');
  });

  it('keeps keys per client: another tenant with the same key gets its own execution', async () => {
    const key = uniqueKey();
    const body = { name: 'Idem shared key', allocations: { BTC: 100 } };
    const mine = await create(body, key).expect(201);
    const theirs = await create(body, key, b).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect((await portfolioNames(b)).filter((name) => name === 'Idem shared key')).toHaveLength(1);
    expect((await portfolioNames(a)).filter((name) => name === 'Idem shared key')).toHaveLength(1);
  });

  it('does not keep a 400 validation failure: the same key executes again once the body is valid', async () => {
    const key = uniqueKey();
    const bad = await create({ name: 'Idem fixed', allocations: { BTC: 50 } }, key).expect(400);
    expect(bad.headers['idempotent-replayed']).toBeUndefined();
    const fixed = await create({ name: 'Idem fixed', allocations: { BTC: 100 } }, key).expect(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    await create({ name: 'Idem fixed', allocations: { BTC: 100 } }, key)
      .expect(201)
      .expect('Idempotent-Replayed', 'true');
  });

  it('replays a DELETE (204), where executing it again would have said 404', async () => {
    const { id } = (await create({ name: 'Idem delete', allocations: { BTC: 100 } }).expect(201)).body;
    const key = uniqueKey();
    const del = () =>
      t.http.delete(`/api/portfolios/${id}`).set('Authorization', a).set('Idempotency-Key', key);
    await del().expect(204);
    const again = await del().expect(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await t.http.delete(`/api/portfolios/${id}`).set('Authorization', a).expect(404);
  });

  it('does not keep an error: a retry of a 404 executes again, with its own traceId', async () => {
    const key = uniqueKey();
    const missing = '00000000-0000-4000-8000-000000000000';
    const del = () =>
      t.http.delete(`/api/portfolios/${missing}`).set('Authorization', a).set('Idempotency-Key', key);
    const first = await del().expect(404);
    const again = await del().expect(404);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.traceId).toBe(again.headers['x-request-id']);
    expect(again.body.traceId).not.toBe(first.body.traceId);
  });

  it('replays an enveloped admin write with its envelope, and creates the account once', async () => {
    const key = uniqueKey();
    const body = {
      tenant: 'sandbox',
      platform: 'coinbase',
      identity: `idem-${process.pid}-${Date.now()}`,
      source: 'csv',
    };
    const post = () =>
      t.http.post('/admin/accounts').set('Authorization', admin).set('Idempotency-Key', key).send(body);
    const first = await post();
    expect(first.status).toBe(201);
    const retry = await post();
    expect(retry.status).toBe(first.status);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
  });

  it('fingerprints an uploaded file itself: another CSV under the same key is 422, the same one replays (text/csv and multipart)', async () => {
    const created = await t.http
      .post('/admin/accounts')
      .set('Authorization', admin)
      .send({
        tenant: 'sandbox',
        platform: 'coinbase',
        identity: `idem-csv-${process.pid}-${Date.now()}`,
        source: 'csv',
      })
      .expect(201);
    const accountId = created.body.accountId as string;
    const header = 'transactionId,timestamp,symbol,direction,amount,price,fee,transferId';
    const csvA = `${header}\nidem-a,2024-01-02T03:04:05Z,BTC,buy,0.5,42000,1,\n`;
    const csvB = `${header}\nidem-b,2024-01-03T03:04:05Z,BTC,buy,0.25,43000,1,\n`;
    const importCsv = (csv: string, key: string) =>
      t.http
        .post(`/admin/accounts/${accountId}/import?tenant=sandbox`)
        .set('Authorization', admin)
        .set('Idempotency-Key', key)
        .set('Content-Type', 'text/csv')
        .send(csv);
    const key = uniqueKey();
    const first = await importCsv(csvA, key).expect(200);
    const replay = await importCsv(csvA, key).expect(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    // Before: the file was not in the fingerprint, so this replayed A's answer and B was never imported.
    const other = await importCsv(csvB, key).expect(422);
    expect(JSON.stringify(other.body)).toContain('Idempotency-Key');

    const upload = (csv: string, key: string) =>
      t.http
        .post(`/admin/accounts/${accountId}/import?tenant=sandbox`)
        .set('Authorization', admin)
        .set('Idempotency-Key', key)
        .attach('file', Buffer.from(csv), 'transactions.csv');
    const formKey = uniqueKey();
    const uploaded = await upload(csvB, formKey).expect(200);
    expect(uploaded.body.result ?? uploaded.body).toMatchObject({ accountId });
    const transactions = await t.http
      .get(`/admin/support/accounts/${accountId}/transactions?tenant=sandbox`)
      .set('Authorization', admin);
    if (transactions.status === 200) {
      const ids = JSON.stringify(transactions.body);
      expect(ids).toContain('idem-a');
      expect(ids).toContain('idem-b');
    }
  });

  it('keeps the answer encrypted at rest: a webhook secret shown once is replayed, never stored in clear', async () => {
    const key = uniqueKey();
    const register = () =>
      t.http
        .post('/v1/api/webhooks')
        .set('Authorization', a)
        .set('Idempotency-Key', key)
        .send({ url: 'http://127.0.0.1:9/hook', eventTypes: ['account.synced'] });
    const first = await register().expect(201);
    const secret = first.body.result.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const replay = await register().expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT response_body FROM idempotency_key WHERE idempotency_key = $1', [key])) as {
      response_body: string;
    }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.response_body.startsWith('enc1.')).toBe(true);
    expect(rows[0]?.response_body).not.toContain(secret);
    expect(rows[0]?.response_body).not.toContain(secret.slice('whsec_'.length, 20));
  });

  it('lets 20 concurrent retries of one POST create exactly one portfolio', async () => {
    const key = uniqueKey();
    const body = { name: 'Idem concurrent', allocations: { BTC: 30, ETH: 70 } };
    const responses = await Promise.all(Array.from({ length: 20 }, () => create(body, key)));
    const statuses = responses.map((res) => res.status);
    const created = responses.filter((res) => res.status === 201);
    const busy = responses.filter((res) => res.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((res) => res.text)).size).toBe(1);
    for (const res of busy) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.reason).toBe('idempotency_request_in_progress');
    }
    expect((await portfolioNames()).filter((name) => name === 'Idem concurrent')).toHaveLength(1);
    // Once the first has finished, every retry gets its response.
    const later = await create(body, key).expect(201);
    expect(later.text).toBe(created[0]!.text);
    console.log(
      `20 concurrent retries: ${created.length} × 201 (1 executed), ${busy.length} × 409; statuses ${statuses.join(',')}`,
    );
  });

  it('ignores the header on reads and on unauthenticated token requests', async () => {
    const key = uniqueKey();
    const list = await t.http
      .get('/api/portfolios')
      .set('Authorization', a)
      .set('Idempotency-Key', key)
      .expect(200);
    expect(list.headers['idempotent-replayed']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const token = await t.http
        .post('/v1/api/token')
        .set('Idempotency-Key', key)
        .send({ clientId: SANDBOX.partner.clientId, clientSecret: SANDBOX.partner.secret })
        .expect(200);
      expect(token.headers['idempotent-replayed']).toBeUndefined();
    }
  });

  it('forgets a key after 24 hours: the same key then executes again', async () => {
    const key = uniqueKey();
    const body = { name: 'Idem expiring', allocations: { BTC: 100 } };
    await create(body, key).expect(201);
    clock.advanceMs(DAY_MS - 1);
    await create(body, key).expect(201).expect('Idempotent-Replayed', 'true');
    clock.advanceMs(2);
    const fresh = await create(body, key).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect((await portfolioNames()).filter((name) => name === 'Idem expiring')).toHaveLength(2);
    // The sweep deletes keys older than 24 hours: everything made before the clock moved.
    clock.advanceMs(DAY_MS + 1);
    expect(await t.app.get(IdempotencyService).deleteExpired()).toBeGreaterThanOrEqual(8);
  });
});
