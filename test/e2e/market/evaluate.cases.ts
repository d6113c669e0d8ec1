/**
 * POST /qscore/evaluate (e2e): holdings as of the end of a UTC day from the account's
 * transactions, valued at that day's prices and scored; a BTC-only account scores as BTC does in
 * /api/scores; the day before and the day of a sale give each day's weights; validation, 404s,
 * 422s and tenant isolation.
 */
import { Decimal } from 'decimal.js';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import { formatPercent } from '../../../src/domain/money/format.js';
import { grade, riskLevel } from '../../../src/domain/scoring/grades.js';
import { AssetScoringService } from '../../../src/modules/scoring/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  sandboxAccount,
  sourceTx,
  type CreatedAccount,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const TODAY = '2026-03-15';

describe('POST /qscore/evaluate (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let partnerB: string;
  let admin: string;
  let mixed: CreatedAccount;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    [partner, partnerB, admin] = await Promise.all([
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
    mixed = await createAccount(t, admin, { platform: 'coinbase', source: 'csv' });
    await importCsv(
      t,
      admin,
      mixed.accountId,
      csvOf([
        sourceTx({ transactionId: 'btc', at: '2025-01-10T09:00:00Z', amount: '1', priceUsd: '94000' }),
        sourceTx({
          transactionId: 'eth',
          at: '2025-01-10T09:05:00Z',
          symbol: 'ETH',
          amount: '10',
          priceUsd: '3300',
        }),
        sourceTx({
          transactionId: 'sell-eth',
          at: '2025-06-01T10:00:00Z',
          direction: 'sell',
          symbol: 'ETH',
          amount: '10',
          priceUsd: '2500',
        }),
      ]),
    ).expect(200);
  });
  afterAll(() => t.close());

  const evaluate = (body: unknown, token = partner) =>
    t.http
      .post('/qscore/evaluate')
      .set(bearer(token))
      .send(body as object);

  it('scores an account holding only BTC exactly as /api/scores scores BTC', async () => {
    const joint = sandboxAccount('sandbox', 'coinbase-joint');
    const res = await evaluate({ account_id: joint.accountId, as_of_date: TODAY }).expect(200);
    const scores = await t.http.get('/api/scores').set(bearer(partner)).expect(200);
    const btc = scores.body.find((s: { symbol: string }) => s.symbol === 'BTC');
    expect(res.body).toMatchObject({
      score: btc.qScore,
      grade: grade(btc.qScore),
      btc_weight: '100.00%',
      risk_level: riskLevel(btc.rScore),
      account_id: joint.accountId,
      as_of_date: TODAY,
      f_score: btc.fScore,
      r_score: btc.rScore,
      excluded: [],
    });
    expect(res.body.holdings).toEqual([
      expect.objectContaining({
        symbol: 'BTC',
        weight: '100.00%',
        value_usd: expect.stringMatching(/^\$[\d,]+\.\d{2}$/),
      }),
    ]);
  });

  it('on a past date, scores BTC as the scores of that date do', async () => {
    const cold = sandboxAccount('sandbox', 'btc-cold-storage');
    const res = await evaluate({ account_id: cold.accountId, as_of_date: '2024-06-30' }).expect(200);
    const btc = (await t.app.get(AssetScoringService).scoreAssets('2024-06-30')).find(
      (s) => s.symbol === 'BTC',
    )!;
    expect(res.body).toMatchObject({ score: btc.qScore, r_score: btc.rScore, btc_weight: '100.00%' });
  });

  it('the day before a sale and the day of it give the weights of each day', async () => {
    const prices = t.app.get<MarketPricesPort>(MARKET_PRICES);
    const before = await evaluate({ account_id: mixed.accountId, as_of_date: '2025-05-31' }).expect(200);
    const onDay = await prices.pricesOnDate(['BTC', 'ETH'], '2025-05-31');
    const btcValue = new Decimal(onDay.get('BTC')!);
    const ethValue = new Decimal(onDay.get('ETH')!).times(10);
    expect(before.body.btc_weight).toBe(formatPercent(btcValue.dividedBy(btcValue.plus(ethValue))));
    expect(before.body.btc_weight).not.toBe('100.00%');
    expect(
      before.body.holdings.map((h: { symbol: string; quantity: string }) => [h.symbol, h.quantity]).sort(),
    ).toEqual([
      ['BTC', '1'],
      ['ETH', '10'],
    ]);
    // The sale at 10:00 UTC is inside 2025-06-01: at the end of that day only BTC is held.
    const after = await evaluate({ account_id: mixed.accountId, as_of_date: '2025-06-01' }).expect(200);
    expect(after.body.btc_weight).toBe('100.00%');
    expect(after.body.holdings.map((h: { symbol: string }) => h.symbol)).toEqual(['BTC']);
    expect(after.body.score).not.toBe(before.body.score);
    // The first day of the history is allowed.
    await evaluate({ account_id: mixed.accountId, as_of_date: '2025-01-10' }).expect(200);
  });

  it('leaves out holdings without a price and says why; 422 when nothing is left to score', async () => {
    const odd = await createAccount(t, admin, { platform: 'kraken', source: 'csv' });
    await importCsv(
      t,
      admin,
      odd.accountId,
      csvOf([
        sourceTx({
          transactionId: 'foo',
          at: '2025-03-01T09:00:00Z',
          symbol: 'FOO',
          amount: '100',
          priceUsd: '2',
        }),
        sourceTx({ transactionId: 'btc', at: '2025-04-01T09:00:00Z', amount: '0.1', priceUsd: '83000' }),
      ]),
    ).expect(200);
    const res = await evaluate({ account_id: odd.accountId, as_of_date: '2025-04-01' }).expect(200);
    expect(res.body).toMatchObject({
      btc_weight: '100.00%',
      excluded: [{ symbol: 'FOO', quantity: '100', reason: 'no_price' }],
    });
    const nothing = await evaluate({ account_id: odd.accountId, as_of_date: '2025-03-15' }).expect(422);
    expect(nothing.body.reason).toBe('no_scorable_holdings');
  });

  describe('errors', () => {
    it.each([
      ['an empty body', {}, ['account_id', 'as_of_date']],
      ['a malformed account_id', { account_id: 'abc', as_of_date: TODAY }, ['account_id']],
      [
        'an impossible date',
        { account_id: '00000000-0000-4000-8000-000000000000', as_of_date: '2025-02-30' },
        ['as_of_date'],
      ],
      [
        'a timestamp for a date',
        { account_id: '00000000-0000-4000-8000-000000000000', as_of_date: '2025-02-01T00:00:00Z' },
        ['as_of_date'],
      ],
      [
        'a number for a date',
        { account_id: '00000000-0000-4000-8000-000000000000', as_of_date: 20250201 },
        ['as_of_date'],
      ],
      [
        'an unknown field',
        { account_id: '00000000-0000-4000-8000-000000000000', as_of_date: TODAY, extra: 1 },
        ['extra'],
      ],
    ])('400 for %s, naming the fields', async (_name, body, fields) => {
      const res = await evaluate(body).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    });

    it('400 for malformed JSON', async () => {
      await t.http
        .post('/qscore/evaluate')
        .set(bearer(partner))
        .set('Content-Type', 'application/json')
        .send('{"account_id":')
        .expect(400);
    });

    it('400 for a date in the future or before the account’s history', async () => {
      const future = await evaluate({ account_id: mixed.accountId, as_of_date: '2026-03-16' }).expect(400);
      expect(future.body.errors.as_of_date[0]).toMatch(/future/);
      const early = await evaluate({ account_id: mixed.accountId, as_of_date: '2025-01-09' }).expect(400);
      expect(early.body.errors.as_of_date[0]).toMatch(/starts on 2025-01-10/);
    });

    it('404 alike for an unknown account and another tenant’s', async () => {
      const unknown = await evaluate({
        account_id: '00000000-0000-4000-8000-000000000000',
        as_of_date: TODAY,
      }).expect(404);
      const foreign = await evaluate({
        account_id: sandboxAccount('sandbox-b', 'coinbase-joint').accountId,
        as_of_date: TODAY,
      }).expect(404);
      expect(foreign.body.detail).toBe(unknown.body.detail);
      await evaluate({ account_id: mixed.accountId, as_of_date: TODAY }, partnerB).expect(404);
      await evaluate(
        { account_id: sandboxAccount('sandbox-b', 'coinbase-joint').accountId, as_of_date: TODAY },
        partnerB,
      ).expect(200);
    });

    it('422 when the account has no data yet', async () => {
      const syncing = sandboxAccount('sandbox', 'binanceus-new');
      const res = await evaluate({ account_id: syncing.accountId, as_of_date: TODAY }).expect(422);
      expect(res.body.reason).toBe('no_data_yet');
    });

    it('401 without a bearer token', async () => {
      await t.http
        .post('/qscore/evaluate')
        .send({ account_id: mixed.accountId, as_of_date: TODAY })
        .expect(401);
    });
  });
});
