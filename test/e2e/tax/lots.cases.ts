/**
 * Open lots and tax-loss harvesting candidates (issue 19 items 3 and 4), through HTTP on a tenant
 * of its own with a hand-worked history (docs/tax-report.md, "Open lots"). Bases, terms and dates
 * are pinned exactly; values depend on the stored price, which the answer names, so they are
 * checked as quantity × price − basis in exact decimals. The lots agree with the balances. The same
 * example with fixed prices (values, losses, the wash-sale window to the dollar) is pinned on the
 * domain in src/domain/tax/open-lots-example.spec.ts (issue 29 item 4).
 */
import { Decimal as GlobalDecimal } from 'decimal.js';
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

const Decimal = GlobalDecimal.clone({ precision: 1_000 });
const START = new Date('2026-03-15T12:00:00.000Z');

/**
 * b1: 2 BTC at 20,000 + 10 fee = 40,010; b2 sells 0.5 (FIFO, from b1): 1.5 left, basis 30,007.5,
 * long-term since 2026-01-11. b3: 1 BTC at 1,000,000 (a loss at any price below), short-term,
 * long-term from 2027-03-02. e1: 1 ETH at 100,000, e2: 0.25 ETH at 1 (a gain), both in the 30 days
 * before START (the wash-sale window opens 2026-02-13T12:00Z); b1 is before it.
 */
const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    at: '2025-01-10T10:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '20000',
    feeUsd: '10',
  }),
  sourceTx({
    transactionId: 'b2',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '65000',
  }),
  sourceTx({
    transactionId: 'b3',
    at: '2026-03-01T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '1000000',
  }),
  sourceTx({
    transactionId: 'e1',
    at: '2026-02-20T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '1',
    priceUsd: '100000',
  }),
  sourceTx({
    transactionId: 'e2',
    at: '2026-03-10T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '0.25',
    priceUsd: '1',
  }),
];

interface Lot {
  lot_id: string;
  account_id: string;
  asset: string;
  acquired_at: string;
  quantity: string;
  basis_known: boolean;
  cost_basis_usd: string;
  price_usd: string | null;
  market_value_usd: string | null;
  unrealized_gain_usd: string | null;
  term: string;
  long_term_from: string;
}

describe('open lots and harvesting candidates (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let partnerB: string;
  let account: CreatedAccount;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    const admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partnerB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.app.get(TenantsService).createTenant('lots-example', 'Lots worked example');
    const client = await t.app.get(ClientsService).createClient('lots-example', ['partner']);
    partner = await t.token(client.clientId, client.clientSecret);
    account = await createAccount(t, admin, { tenant: 'lots-example', identity: 'lots-example/exchange' });
    await importCsv(t, admin, account.accountId, csvOf(HISTORY), 'lots-example').expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));

  it('GET /taip/lots: every open lot with its exact basis, term and long-term date', async () => {
    const res = await get(`/taip/lots?account_id=${account.accountId}`).expect(200);
    expect(res.body).toMatchObject({
      as_of: START.toISOString(),
      method: 'fifo',
      asset: 'ALL',
      account_id: account.accountId,
      accounts: 1,
    });
    const lots = res.body.lots as Lot[];
    expect(
      lots.map((l) => [
        l.lot_id,
        l.asset,
        l.quantity,
        l.cost_basis_usd,
        l.term,
        l.long_term_from,
        l.acquired_at,
      ]),
    ).toEqual([
      ['b1', 'BTC', '1.5', '30007.5', 'long', '2026-01-11', '2025-01-10T10:00:00.000Z'],
      ['b3', 'BTC', '1', '1000000', 'short', '2027-03-02', '2026-03-01T10:00:00.000Z'],
      ['e1', 'ETH', '1', '100000', 'short', '2027-02-21', '2026-02-20T10:00:00.000Z'],
      ['e2', 'ETH', '0.25', '0.25', 'short', '2027-03-11', '2026-03-10T10:00:00.000Z'],
    ]);
    for (const lot of lots) {
      expect(lot.account_id).toBe(account.accountId);
      expect(lot.price_usd).not.toBeNull();
      const value = new Decimal(lot.quantity).times(lot.price_usd as string);
      expect(lot.market_value_usd).toBe(value.toFixed());
      expect(lot.unrealized_gain_usd).toBe(value.minus(lot.cost_basis_usd).toFixed());
    }
    // HIFO sells from the highest basis first: b2 would have come out of b3, had it existed then
    // (it did not), so the lots are the same; the order within an asset follows the method.
    const hifo = await get(`/taip/lots?account_id=${account.accountId}&method=hifo&asset=eth`).expect(200);
    expect((hifo.body.lots as Lot[]).map((l) => l.lot_id)).toEqual(['e1', 'e2']);
    expect(hifo.body.asset).toBe('ETH');
  });

  it('GET /taip/lots pages the lots (limit, cursor, next_cursor); the totals are over every lot on every page', async () => {
    const whole = (await get(`/taip/lots?account_id=${account.accountId}`).expect(200)).body;
    expect(whole.next_cursor).toBeNull();
    const first = (await get(`/taip/lots?account_id=${account.accountId}&limit=3`).expect(200)).body;
    expect(first.lots).toEqual(whole.lots.slice(0, 3));
    expect(first.totals).toEqual(whole.totals);
    const cursor = encodeURIComponent(first.next_cursor);
    const second = (
      await get(`/taip/lots?account_id=${account.accountId}&limit=3&cursor=${cursor}`).expect(200)
    ).body;
    expect(second.lots).toEqual(whole.lots.slice(3));
    expect(second.totals).toEqual(whole.totals);
    expect(second.next_cursor).toBeNull();
    // A cursor is good only with the parameters it was issued for.
    const other = await get(`/taip/lots?account_id=${account.accountId}&asset=BTC&cursor=${cursor}`).expect(
      400,
    );
    expect(Object.keys(other.body.errors)).toEqual(['cursor']);
  });

  it('the lots add up to the balances', async () => {
    const [lots, balances] = await Promise.all([
      get(`/taip/lots?identity=lots-example/exchange`).expect(200),
      get(`/v1/api/account/${account.accountId}/balances`).expect(200),
    ]);
    const totals = lots.body.totals as Array<{
      asset: string;
      quantity: string;
      cost_basis_usd: string;
      lots: number;
    }>;
    expect(totals.map((x) => [x.asset, x.lots, x.quantity, x.cost_basis_usd])).toEqual([
      ['BTC', 2, '2.5', '1030007.5'],
      ['ETH', 2, '1.25', '100000.25'],
    ]);
    const rows = balances.body.result.balances as Array<{
      symbol: string;
      balance: string;
      costBasis: string;
    }>;
    for (const total of totals) {
      const row = rows.find((r) => r.symbol === total.asset);
      expect(new Decimal(row?.balance ?? 'NaN').equals(total.quantity)).toBe(true);
      expect(row?.costBasis).toBe(new Decimal(total.cost_basis_usd).toFixed(2, Decimal.ROUND_HALF_UP));
    }
  });

  it('GET /taip/harvesting-candidates: the losses, largest first, and what wash-sale rules would disallow', async () => {
    const plain = await get(`/taip/harvesting-candidates?account_id=${account.accountId}`).expect(200);
    const candidates = plain.body.candidates as Array<
      Lot & { loss_usd: string; allowable_loss_usd: string; wash_sale: unknown }
    >;
    expect(candidates.map((c) => c.lot_id)).toEqual(['b3', 'e1']);
    const [b3, e1] = candidates;
    const btc = new Decimal(b3?.price_usd as string);
    const eth = new Decimal(e1?.price_usd as string);
    expect(b3?.loss_usd).toBe(new Decimal(1_000_000).minus(btc).toFixed());
    expect(e1?.loss_usd).toBe(new Decimal(100_000).minus(eth).toFixed());
    expect(candidates.every((c) => c.wash_sale === null && c.allowable_loss_usd === c.loss_usd)).toBe(true);
    expect(plain.body).toMatchObject({
      wash_sale: 'ignore',
      min_loss_usd: '0',
      short_term_loss_usd: new Decimal(1_100_000).minus(btc).minus(eth).toFixed(),
      long_term_loss_usd: '0',
      unknown_basis_lots: 0,
      unpriced_lots: 0,
    });
    expect(plain.body.note).toContain('§1091');

    const assumed = await get(
      `/taip/harvesting-candidates?account_id=${account.accountId}&wash_sale=assume`,
    ).expect(200);
    const [ab3, ae1] = assumed.body.candidates as Array<{
      wash_sale: Record<string, string>;
      allowable_loss_usd: string;
      loss_usd: string;
    }>;
    // b3's only purchase in the window is its own: nothing disallowed.
    expect(ab3?.wash_sale).toEqual({
      window_from: '2026-02-13T12:00:00.000Z',
      replacement_quantity: '0',
      disallowed_loss_usd: '0',
    });
    // e1: e2 bought 0.25 ETH in the window: a quarter of e1's loss would be disallowed.
    const e1Loss = new Decimal(100_000).minus(eth);
    expect(ae1?.wash_sale).toEqual({
      window_from: '2026-02-13T12:00:00.000Z',
      replacement_quantity: '0.25',
      disallowed_loss_usd: e1Loss.times('0.25').toFixed(),
    });
    expect(ae1?.allowable_loss_usd).toBe(e1Loss.times('0.75').toFixed());

    // Paged like the lots: one candidate a page, the sums over both.
    const page = await get(`/taip/harvesting-candidates?account_id=${account.accountId}&limit=1`).expect(200);
    expect((page.body.candidates as Lot[]).map((c) => c.lot_id)).toEqual(['b3']);
    expect(page.body).toMatchObject({
      candidate_lots: 2,
      short_term_loss_usd: plain.body.short_term_loss_usd,
    });
    const next = await get(
      `/taip/harvesting-candidates?account_id=${account.accountId}&limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`,
    ).expect(200);
    expect((next.body.candidates as Lot[]).map((c) => c.lot_id)).toEqual(['e1']);
    expect(next.body.next_cursor).toBeNull();

    const large = await get(
      `/taip/harvesting-candidates?account_id=${account.accountId}&min_loss=${new Decimal(100_000).minus(eth).plus(1).toFixed(0)}`,
    ).expect(200);
    expect((large.body.candidates as Lot[]).map((c) => c.lot_id)).toEqual(['b3']);
  });

  it('bad input is a 400 naming the field', async () => {
    for (const [query, field] of [
      ['min_loss=-5', 'min_loss'],
      ['min_loss=1.234', 'min_loss'],
      ['wash_sale=maybe', 'wash_sale'],
      ['method=average', 'method'],
      ['account_id=nope', 'account_id'],
      ['asset=B-T-C', 'asset'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['cursor=forged.cursor', 'cursor'],
    ]) {
      const res = await get(`/taip/harvesting-candidates?${query}`).expect(400);
      expect(Object.keys(res.body.errors ?? {})).toContain(field);
    }
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=2.5', 'limit'],
      ['cursor=forged.cursor', 'cursor'],
    ]) {
      const res = await get(`/taip/lots?${query}`).expect(400);
      expect(Object.keys(res.body.errors ?? {})).toEqual([field]);
    }
    const both = await get(`/taip/lots?account_id=${account.accountId}&identity=x`).expect(400);
    expect(Object.keys(both.body.errors ?? {})).toContain('identity');
  });

  it('another tenant’s account is 404; no token is 401; the tenant-wide list holds only the tenant’s lots', async () => {
    await get(`/taip/lots?account_id=${account.accountId}`, partnerB).expect(404);
    await get(`/taip/harvesting-candidates?account_id=${account.accountId}`, partnerB).expect(404);
    await t.http.get('/taip/lots').expect(401);
    const other = await get('/taip/lots', partnerB).expect(200);
    expect((other.body.lots as Lot[]).some((l) => l.account_id === account.accountId)).toBe(false);
    const mine = await get('/taip/lots').expect(200);
    expect(mine.body.accounts).toBe(1);
    expect((mine.body.lots as Lot[]).length).toBe(4);
  });
});
