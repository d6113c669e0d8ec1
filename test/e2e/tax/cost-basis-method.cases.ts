/**
 * Cost-basis method elections (issue 19 item 1; docs/cost-basis.md, "Method elections") through
 * HTTP on a tenant of its own, with a hand-worked history. Every figure is worked in the comments
 * and pinned on the domain in src/domain/tax/method-elections-example.spec.ts (issue 29 item 4);
 * here each endpoint shows its wire shape, one figure that proves it follows the elections, and
 * its error paths.
 *
 *   b1 2025-01-10  buy 1 BTC at 40,000 + 10 fee   basis 40,010
 *   b2 2025-02-10  buy 2 BTC at 50,000 + 20 fee   basis 100,020 (50,010 a unit)
 *   b3 2025-03-10  buy 1 BTC at 45,000            basis 45,000
 *   s1 2025-06-01  sell 1.5 at 60,000 − 30 fee    proceeds 89,970
 *   s2 2026-03-15T10:00Z sell 1 at 70,000         proceeds 70,000
 *
 * FIFO throughout: s1 = b1 (59,980 − 40,010 = 19,970) + ½ b2 (29,990 − 25,005 = 4,985) = 24,955;
 * s2 = 1 of b2 (70,000 − 50,010) = 19,990; realized 44,945.
 * A tenant-wide LIFO election effective 2026-03-15 (today) applies to s2 (its UTC date): s2 takes
 * b3, 70,000 − 45,000 = 25,000; s1 (2025) stays FIFO; realized 24,955 + 25,000 = 49,955.
 * Then the account elects HIFO from 2026-03-20; b4 2026-03-18 buys 1 BTC at 30,000 and s3
 * 2026-03-22 sells 0.5 at 80,000 = 40,000: HIFO takes b2 (50,010 a unit > 30,000):
 * 40,000 − 25,005 = 14,995 (LIFO would take b4: 40,000 − 15,000 = 25,000). Realized 64,950.
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { ClientsService, TenantsService } from '../../../src/modules/tenancy/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  sourceTx,
  type CreatedAccount,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');

const FIRST = [
  sourceTx({
    transactionId: 'b1',
    at: '2025-01-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  sourceTx({
    transactionId: 'b2',
    at: '2025-02-10T10:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '50000',
    feeUsd: '20',
  }),
  sourceTx({
    transactionId: 'b3',
    at: '2025-03-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '45000',
  }),
  sourceTx({
    transactionId: 's1',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    amount: '1.5',
    priceUsd: '60000',
    feeUsd: '30',
  }),
  sourceTx({
    transactionId: 's2',
    at: '2026-03-15T10:00:00Z',
    direction: 'sell',
    amount: '1',
    priceUsd: '70000',
  }),
];
const LATER = [
  ...FIRST,
  sourceTx({
    transactionId: 'b4',
    at: '2026-03-18T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '30000',
  }),
  sourceTx({
    transactionId: 's3',
    at: '2026-03-22T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '80000',
  }),
];

describe('cost-basis method elections (e2e)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: string;
  let partner: string;
  let partnerB: string;
  let account: CreatedAccount;

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partnerB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.app.get(TenantsService).createTenant('elections-example', 'Elections worked example');
    const client = await t.app.get(ClientsService).createClient('elections-example', ['partner']);
    partner = await t.token(client.clientId, client.clientSecret);
    account = await createAccount(t, admin, {
      tenant: 'elections-example',
      identity: 'elections-example/exchange',
    });
    await importCsv(t, admin, account.accountId, csvOf(FIRST), 'elections-example').expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const elect = (body: Record<string, unknown>, token = partner) =>
    t.http.post('/taip/cost-basis-method').set(bearer(token)).send(body);
  const balances = async () =>
    (await get(`/v1/api/account/${account.accountId}/balances`).expect(200)).body.result;
  const gains = async (query: string) =>
    (await get(`/taip/gains-report?account_id=${account.accountId}&${query}`).expect(200)).body;

  it('without an election: FIFO everywhere, method_source default', async () => {
    const view = await get(`/taip/cost-basis-method?account_id=${account.accountId}`).expect(200);
    expect(view.body).toEqual({
      as_of: '2026-03-15',
      account_id: account.accountId,
      method_in_force: 'fifo',
      method_source: 'default',
      tenant_elections: [],
      account_elections: [],
    });
    expect(await gains('tax_year=2026')).toMatchObject({
      method: 'fifo',
      method_source: 'default',
      exact: { net_gains_usd: '19990' },
    });
  });

  it('bad input is a 400 naming the field; nothing is recorded', async () => {
    for (const [body, field] of [
      [{ method: 'average', effective_from: '2026-03-15' }, 'method'],
      [{ effective_from: '2026-03-15' }, 'method'],
      [{ method: 'lifo' }, 'effective_from'],
      [{ method: 'lifo', effective_from: '2026-03-14' }, 'effective_from'],
      [{ method: 'lifo', effective_from: '2026-02-30' }, 'effective_from'],
      [{ method: 'lifo', effective_from: '15/03/2026' }, 'effective_from'],
      [{ method: 'lifo', effective_from: '2026-03-15', account_id: 'nope' }, 'account_id'],
    ] as const) {
      const res = await elect(body).expect(400);
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    const before = await elect({ method: 'lifo', effective_from: '2026-03-14' }).expect(400);
    expect(before.body.errors.effective_from.join(' ')).toMatch(/not be before today \(2026-03-15, UTC\)/);
    await get('/taip/cost-basis-method?account_id=nope').expect(400);
    const view = await get('/taip/cost-basis-method').expect(200);
    expect(view.body.tenant_elections).toEqual([]);
  });

  it('another tenant’s account is 404 (read and write); no token is 401', async () => {
    await get(`/taip/cost-basis-method?account_id=${account.accountId}`, partnerB).expect(404);
    await elect(
      { method: 'hifo', effective_from: '2026-04-01', account_id: account.accountId },
      partnerB,
    ).expect(404);
    await t.http.get('/taip/cost-basis-method').expect(401);
    await t.http
      .post('/taip/cost-basis-method')
      .send({ method: 'hifo', effective_from: '2026-04-01' })
      .expect(401);
  });

  it('a tenant-wide LIFO election from today recomputes the balances at once; the report follows it', async () => {
    const res = await elect({ method: 'lifo', effective_from: '2026-03-15' })
      .set('Idempotency-Key', 'elect-lifo-1')
      .expect(201);
    expect(res.body).toMatchObject({ account_id: null, method: 'lifo', effective_from: '2026-03-15' });
    expect(res.body.recorded_at).toBe(START.toISOString());
    // The same key and body answer the same election (no second row).
    const replay = await elect({ method: 'lifo', effective_from: '2026-03-15' }).set(
      'Idempotency-Key',
      'elect-lifo-1',
    );
    expect([200, 201]).toContain(replay.status);
    expect(replay.body.id).toBe(res.body.id);

    // s2 now takes b3: 70,000 − 45,000 = 25,000; s1 stays FIFO (24,955).
    expect(await balances()).toMatchObject({ realizedGainLoss: '49955.00', costBasisMethod: 'lifo' });
    expect(await gains('tax_year=2026')).toMatchObject({
      method: 'lifo',
      method_source: 'elected',
      exact: { net_gains_usd: '25000' },
    });
    // An explicit method stays a what-if over the whole history.
    expect(await gains('tax_year=2026&method=fifo')).toMatchObject({
      method: 'fifo',
      method_source: 'query',
      exact: { net_gains_usd: '19990' },
    });
    const form = await get(`/taip/form-8949?tax_year=2026&account_id=${account.accountId}`).expect(200);
    expect(form.body).toMatchObject({ method: 'lifo', method_source: 'elected' });

    const view = await get('/taip/cost-basis-method').expect(200);
    expect(view.body).toMatchObject({ account_id: null, method_in_force: 'lifo', method_source: 'tenant' });
    expect(view.body.tenant_elections).toHaveLength(1);
  });

  it('an account election supersedes the tenant’s from its own date; history kept; balances, report and lots follow it', async () => {
    await elect({
      method: 'hifo',
      effective_from: '2026-03-20',
      account_id: account.accountId.toUpperCase(),
    }).expect(201);
    let view = await get(`/taip/cost-basis-method?account_id=${account.accountId}`).expect(200);
    // Not yet in force today.
    expect(view.body).toMatchObject({ method_in_force: 'lifo', method_source: 'tenant' });
    expect(view.body.account_elections).toMatchObject([
      { account_id: account.accountId, method: 'hifo', effective_from: '2026-03-20' },
    ]);

    clock.set(new Date('2026-03-25T12:00:00.000Z'));
    await importCsv(t, admin, account.accountId, csvOf(LATER), 'elections-example').expect(200);
    view = await get(`/taip/cost-basis-method?account_id=${account.accountId}`).expect(200);
    expect(view.body).toMatchObject({
      as_of: '2026-03-25',
      method_in_force: 'hifo',
      method_source: 'account',
    });

    // s3 (2026-03-22, HIFO) takes ½ of b2: 40,000 − 25,005 = 14,995.
    const balance = await balances();
    expect(balance).toMatchObject({ realizedGainLoss: '64950.00', costBasisMethod: 'hifo' });
    const y2026 = await gains('tax_year=2026');
    expect(y2026).toMatchObject({
      method: 'hifo',
      method_source: 'elected',
      exact: { net_gains_usd: '39995' },
    });

    // Lots follow the elections too: b2's last unit and b4 are open, in HIFO order.
    const lots = await get(`/taip/lots?account_id=${account.accountId}`).expect(200);
    expect(lots.body).toMatchObject({ method: 'hifo', method_source: 'elected' });
    expect(
      lots.body.lots.map((l: { lot_id: string; quantity: string; cost_basis_usd: string }) => [
        l.lot_id,
        l.quantity,
        l.cost_basis_usd,
      ]),
    ).toEqual([
      ['b2', '1', '50010'],
      ['b4', '1', '30000'],
    ]);
  });

  it('the standing orders lowest_basis (lofo) and long_term_first_highest_basis (ltfo) are methods', async () => {
    // 2025's s1 (1.5 at 60,000 − 30 = 89,970). LOFO: b1 (40,010 a unit) then ½ b3 (45,000 a unit):
    // 59,980 − 40,010 + 29,990 − 22,500 = 27,460. LTFO: no lot is long-term on 2025-06-01, so
    // highest basis first: 1.5 of b2 (50,010 a unit), 89,970 − 75,015 = 14,955.
    expect(await gains('tax_year=2025&method=lofo')).toMatchObject({
      method: 'lofo',
      method_source: 'query',
      exact: { net_gains_usd: '27460' },
    });
    expect(await gains('tax_year=2025&method=ltfo')).toMatchObject({
      method: 'ltfo',
      method_source: 'query',
    });
    const res = await elect({
      method: 'ltfo',
      effective_from: '2026-12-01',
      account_id: account.accountId,
    }).expect(201);
    expect(res.body).toMatchObject({ method: 'ltfo', effective_from: '2026-12-01' });
    const view = await get(`/taip/cost-basis-method?account_id=${account.accountId}`).expect(200);
    expect(view.body.account_elections.map((e: { method: string }) => e.method)).toContain('ltfo');
    const bad = await elect({ method: 'highest_basis', effective_from: '2026-12-01' }).expect(400);
    expect(bad.body.errors.method.join(' ')).toMatch(/fifo, hifo, lifo, lofo, ltfo/);
  });
});
