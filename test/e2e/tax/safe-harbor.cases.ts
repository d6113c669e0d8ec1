/**
 * The universal-to-per-wallet transition (issue 19 item 6; docs/cost-basis.md, "Universal to
 * per-wallet") through HTTP on a tenant of its own: the worked example of
 * src/domain/cost-basis/safe-harbor.spec.ts, with acct-a an exchange account linked first and
 * acct-w a wallet linked second.
 *
 *   b1 2024-01-10 A buy 1 at 40,000 · b2 2024-03-10 W buy 1 at 60,000
 *   b3 2024-06-10 A buy 1.5 at 50,000 + 10 fee · s1 2024-09-01 W sell 0.5 at 70,000
 *   s2 2025-03-01 W sell 0.5 at 80,000
 *
 * Per account: s1 and s2 each take ½ b2 (30,000): W's 2025 gain 10,000, realized 15,000.
 * Universal FIFO pool on 2024-12-31: b1 0.5 (20,000), b2 1 (60,000), b3 1.5 (75,010). Allocated:
 * A b1 0.5, b2 1, b3 1 (50,006.666…667); W b3 0.5 (25,003.333…333). After the confirmation s2
 * gains 40,000 − 25,003.333…333 = 14,996.666…667: W's realized 19,996.67.
 *
 * The allocation is pinned on the domain in src/domain/cost-basis/safe-harbor.spec.ts, the balances'
 * and gains report's figures before and after in src/domain/tax/safe-harbor-example.spec.ts (issue
 * 29 item 4); here each endpoint shows its wire shape, one figure that proves it reads the
 * confirmation, and its error paths.
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
const TENANT = 'safe-harbor-example';
const THIRDS_A = '50006.666666666666666666666666666667';
const THIRDS_W = '25003.333333333333333333333333333333';

const A_HISTORY = [
  sourceTx({
    transactionId: 'b1',
    at: '2024-01-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
  }),
  sourceTx({
    transactionId: 'b3',
    at: '2024-06-10T10:00:00Z',
    direction: 'buy',
    amount: '1.5',
    priceUsd: '50000',
    feeUsd: '10',
  }),
];
const W_HISTORY = [
  sourceTx({
    transactionId: 'b2',
    at: '2024-03-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '60000',
  }),
  sourceTx({
    transactionId: 's1',
    at: '2024-09-01T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '70000',
  }),
  sourceTx({
    transactionId: 's2',
    at: '2025-03-01T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '80000',
  }),
];

describe('safe-harbor allocation (e2e)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let admin: string;
  let partner: string;
  let partnerClientId: string;
  let partnerB: string;
  let a: CreatedAccount;
  let w: CreatedAccount;

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startSuite({}, { clock });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partnerB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.app.get(TenantsService).createTenant(TENANT, 'Safe-harbor worked example');
    const client = await t.app.get(ClientsService).createClient(TENANT, ['partner']);
    partnerClientId = client.clientId;
    partner = await t.token(client.clientId, client.clientSecret);
    a = await createAccount(t, admin, { tenant: TENANT, identity: `${TENANT}/exchange` });
    clock.advanceMs(1000); // linked second: filled second
    w = await createAccount(t, admin, { tenant: TENANT, identity: `${TENANT}/wallet`, platform: 'bitcoin' });
    await importCsv(t, admin, a.accountId, csvOf(A_HISTORY), TENANT).expect(200);
    await importCsv(t, admin, w.accountId, csvOf(W_HISTORY), TENANT).expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const confirm = (body: Record<string, unknown> = {}, token = partner) =>
    t.http.post('/taip/safe-harbor-allocation').set(bearer(token)).send(body);
  const balances = async (id: string) =>
    (await get(`/v1/api/account/${id}/balances`).expect(200)).body.result;
  const gains = async (id: string, year: number) =>
    (await get(`/taip/gains-report?account_id=${id}&tax_year=${year}`).expect(200)).body;
  interface LotRow {
    account_id: string;
    kind: 'allocated' | 'per_account';
    origin_transaction_id: string;
    quantity: string;
    cost_basis_usd: string;
    acquired_at: string;
  }
  /** The rows of one account and kind from an answer's (paged) `lots`, as [origin, qty, basis, date]. */
  const lots = (body: { lots: LotRow[] }, accountId: string, kind: LotRow['kind'] = 'allocated') =>
    body.lots
      .filter((l) => l.account_id === accountId && l.kind === kind)
      .map((l) => [l.origin_transaction_id, l.quantity, l.cost_basis_usd, l.acquired_at.slice(0, 10)]);

  it('before: b3 is not a lot of the wallet, so a selection of it for s2 is refused', async () => {
    const res = await t.http
      .post('/taip/lot-selections')
      .set(bearer(partner))
      .send({ account_id: w.accountId, transaction_id: 's2', lots: [{ lot_id: 'b3', quantity: '0.5' }] })
      .expect(400);
    expect(res.body.errors['lots[0].lot_id'].join(' ')).toMatch(/Lot b3 is not an open BTC lot/);
  });

  it('GET proposes the allocation, against the per-account lots, with totals', async () => {
    const res = await get('/taip/safe-harbor-allocation').expect(200);
    const body = res.body;
    expect(body).toMatchObject({
      status: 'proposed',
      transition_at: '2025-01-01T00:00:00.000Z',
      universal_method: 'fifo',
      first_disposal_at: '2025-03-01T10:00:00.000Z',
      confirmed_at: null,
      confirmed_by: null,
      confirmed_after_first_disposal: null,
      account_id: null,
    });
    expect(body.positions.map((p: { account_id: string }) => p.account_id)).toEqual([
      a.accountId,
      w.accountId,
    ]);
    const [, pw] = body.positions;
    expect(lots(body, a.accountId)).toEqual([
      ['b1', '0.5', '20000', '2024-01-10'],
      ['b2', '1', '60000', '2024-03-10'],
      ['b3', '1', THIRDS_A, '2024-06-10'],
    ]);
    expect(lots(body, w.accountId)).toEqual([['b3', '0.5', THIRDS_W, '2024-06-10']]);
    expect(lots(body, w.accountId, 'per_account')).toEqual([['b2', '0.5', '30000', '2024-03-10']]);
    // Position by position: its allocated lots, then its own (A's own: b1 and b3).
    expect(body.lots.map((l: LotRow) => [l.account_id === a.accountId ? 'a' : 'w', l.kind])).toEqual([
      ['a', 'allocated'],
      ['a', 'allocated'],
      ['a', 'allocated'],
      ['a', 'per_account'],
      ['a', 'per_account'],
      ['w', 'allocated'],
      ['w', 'per_account'],
    ]);
    expect(body.next_cursor).toBeNull();
    expect(pw).toMatchObject({
      asset: 'BTC',
      quantity: '0.5',
      allocated_quantity: '0.5',
      shortfall_quantity: '0',
      allocated_cost_basis_usd: THIRDS_W,
      per_account_cost_basis_usd: '30000',
      basis_change_usd: '-4996.666666666666666666666666666667',
      applied: true,
      lot_count: 1,
      per_account_lot_count: 1,
    });
    expect(body.assets).toEqual([
      {
        asset: 'BTC',
        pool_quantity: '3',
        pool_cost_basis_usd: '155010',
        pool_unknown_basis_quantity: '0',
        holdings_quantity: '3',
        allocated_quantity: '3',
        allocated_cost_basis_usd: '155010',
        shortfall_quantity: '0',
        excess_quantity: '0',
        excess_cost_basis_usd: '0',
        per_account_cost_basis_usd: '145010',
      },
    ]);
    // Proposing stores nothing: the figures are unchanged.
    expect(await balances(w.accountId)).toMatchObject({ realizedGainLoss: '15000.00' });
  });

  it('GET ?account_id= shows one account; universal_method=hifo another pool', async () => {
    const one = await get(`/taip/safe-harbor-allocation?account_id=${w.accountId}`).expect(200);
    expect(one.body.account_id).toBe(w.accountId);
    expect(one.body.positions).toHaveLength(1);
    const hifo = await get('/taip/safe-harbor-allocation?universal_method=HIFO').expect(200);
    expect(hifo.body.universal_method).toBe('hifo');
    expect(lots(hifo.body, a.accountId)).toEqual([
      ['b1', '1', '40000', '2024-01-10'],
      ['b2', '0.5', '30000', '2024-03-10'],
      ['b3', '1', THIRDS_A, '2024-06-10'],
    ]);
  });

  it('GET pages the lots (limit, cursor, next_cursor); positions and totals are whole on every page', async () => {
    const whole = (await get('/taip/safe-harbor-allocation').expect(200)).body;
    const first = (await get('/taip/safe-harbor-allocation?limit=4').expect(200)).body;
    expect(first.lots).toEqual(whole.lots.slice(0, 4));
    expect(typeof first.next_cursor).toBe('string');
    const second = (
      await get(
        `/taip/safe-harbor-allocation?limit=4&cursor=${encodeURIComponent(first.next_cursor)}`,
      ).expect(200)
    ).body;
    expect(second.lots).toEqual(whole.lots.slice(4));
    expect(second.next_cursor).toBeNull();
    expect([first.positions, first.assets]).toEqual([whole.positions, whole.assets]);
    expect([second.positions, second.assets]).toEqual([whole.positions, whole.assets]);
    // The cursor of the FIFO proposal is not one for the HIFO proposal.
    const other = await get(
      `/taip/safe-harbor-allocation?universal_method=hifo&cursor=${encodeURIComponent(first.next_cursor)}`,
    ).expect(400);
    expect(Object.keys(other.body.errors)).toContain('cursor');
  });

  it.each<[string, string]>([
    ['/taip/safe-harbor-allocation?universal_method=average', 'universal_method'],
    ['/taip/safe-harbor-allocation?account_id=nope', 'account_id'],
    ['/taip/safe-harbor-allocation?acount_id=x', 'acount_id'],
    ['/taip/safe-harbor-allocation?limit=0', 'limit'],
    ['/taip/safe-harbor-allocation?limit=1001', 'limit'],
    ['/taip/safe-harbor-allocation?limit=ten', 'limit'],
    ['/taip/safe-harbor-allocation?cursor=not-a-cursor', 'cursor'],
  ])('GET %s is a 400 naming %s', async (path, field) => {
    const res = await get(path).expect(400);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('POST with a bad body is a 400 naming the field; nothing is stored', async () => {
    const res = await confirm({ universal_method: 'average' }).expect(400);
    expect(Object.keys(res.body.errors)).toContain('universal_method');
    const other = await confirm({ universal_method: 'fifo', extra: 1 }).expect(400);
    expect(Object.keys(other.body.errors)).toContain('extra');
    const limit = await t.http
      .post('/taip/safe-harbor-allocation?limit=1001')
      .set(bearer(partner))
      .send({ universal_method: 'fifo' })
      .expect(400);
    expect(Object.keys(limit.body.errors)).toContain('limit');
    expect((await get('/taip/safe-harbor-allocation').expect(200)).body.status).toBe('proposed');
  });

  it('401 without a token', async () => {
    await t.http.get('/taip/safe-harbor-allocation').expect(401);
    await t.http.post('/taip/safe-harbor-allocation').send({}).expect(401);
  });

  it('another tenant’s account is a 404, and its own proposal holds none of this tenant’s accounts', async () => {
    await get(`/taip/safe-harbor-allocation?account_id=${w.accountId}`, partnerB).expect(404);
    const res = await get('/taip/safe-harbor-allocation', partnerB).expect(200);
    const ids = res.body.positions.map((p: { account_id: string }) => p.account_id);
    expect(ids).not.toContain(a.accountId);
    expect(ids).not.toContain(w.accountId);
  });

  it('POST confirms it: stored with who and when; the 2025 sale now gains 14,996.67', async () => {
    const res = await t.http
      .post('/taip/safe-harbor-allocation?limit=5')
      .set(bearer(partner))
      .send({ universal_method: 'fifo' })
      .expect(201);
    expect(res.body).toMatchObject({
      status: 'confirmed',
      universal_method: 'fifo',
      confirmed_at: START.toISOString().replace('12:00:00.000', '12:00:01.000'),
      confirmed_by: partnerClientId,
      confirmed_after_first_disposal: true,
    });
    // The answer holds the first 5 lot rows (A's 3 allocated and 2 own); GET continues with its cursor.
    expect(res.body.lots).toHaveLength(5);
    const rest = await get(
      `/taip/safe-harbor-allocation?cursor=${encodeURIComponent(res.body.next_cursor)}`,
    ).expect(200);
    expect(lots(rest.body, w.accountId)).toEqual([['b3', '0.5', THIRDS_W, '2024-06-10']]);
    expect(rest.body.next_cursor).toBeNull();

    // Balances were recomputed in the confirmation's transaction.
    expect(await balances(w.accountId)).toMatchObject({ realizedGainLoss: '19996.67' });
    const g2025 = await gains(w.accountId, 2025);
    expect(g2025.exact.net_gains_usd).toBe('14996.666666666666666666666666666667');

    // Form 8949 line of s2 carries the allocated lot's basis and date.
    const form = await get(`/taip/form-8949?account_id=${w.accountId}&tax_year=2025`).expect(200);
    expect(JSON.stringify(form.body)).toContain('25003.33');

    // Lots: A starts 2025 from its allocated lots.
    const open = await get(`/taip/lots?account_id=${a.accountId}`).expect(200);
    expect(
      open.body.lots.map((l: { lot_id: string; quantity: string; cost_basis_usd: string }) => [
        l.lot_id,
        l.quantity,
        l.cost_basis_usd,
      ]),
    ).toEqual([
      ['b1', '0.5', '20000'],
      ['b2', '1', '60000'],
      ['b3', '1', THIRDS_A],
    ]);

    // Lot selections are checked against the allocated lots: b3 is now the wallet's lot.
    await t.http
      .post('/taip/lot-selections')
      .set(bearer(partner))
      .send({ account_id: w.accountId, transaction_id: 's2', lots: [{ lot_id: 'b3', quantity: '0.5' }] })
      .expect(201);
    expect(await balances(w.accountId)).toMatchObject({ realizedGainLoss: '19996.67' });

    // GET now shows the confirmed one, applied.
    const view = await get('/taip/safe-harbor-allocation?universal_method=hifo').expect(200);
    expect(view.body).toMatchObject({ status: 'confirmed', universal_method: 'fifo' });
    expect(view.body.positions.every((p: { applied: boolean }) => p.applied)).toBe(true);
    expect(view.body.assets[0]).toMatchObject({
      allocated_cost_basis_usd: '155010',
      pool_cost_basis_usd: '155010',
    });
  });

  it('a second confirmation is a 409; nothing changes', async () => {
    const res = await confirm({ universal_method: 'hifo' }).expect(409);
    expect(res.body.message ?? JSON.stringify(res.body)).toMatch(/already confirmed/);
    expect((await get('/taip/safe-harbor-allocation').expect(200)).body.universal_method).toBe('fifo');
    expect(await balances(w.accountId)).toMatchObject({ realizedGainLoss: '19996.67' });
  });
});
