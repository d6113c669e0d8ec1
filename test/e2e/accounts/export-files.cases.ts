/**
 * Exchange export files through the admin HTTP API (issue 15 item 4, docs/sources.md "Export
 * files"): each format uploaded as multipart/form-data (field `file`), then the account's
 * transactions, balances and gains report read back and checked against values worked by hand.
 * Stored daily prices the files need (staking income, crypto-to-crypto trades, fees paid in an
 * asset) are set in the market store first, so the expected figures are known.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { bearer, createAccount } from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'exports');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

const STORED_PRICES: [string, string, string][] = [
  ['DOT', '2024-03-01', '7.25'],
  ['BTC', '2024-03-10', '68000'],
  ['BTC', '2024-04-01', '70000'],
  ['ETH', '2024-04-01', '3500'],
  ['ETH', '2024-02-01', '2300'],
];

describe('Export files through the admin API (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let partner: string;

  beforeAll(async () => {
    t = await startSuite();
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partner = await t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret);
    const db = t.app.get(DataSource);
    for (const [symbol, date, price] of STORED_PRICES) {
      const [{ id }] = (await db.query('SELECT id FROM asset WHERE symbol = $1', [symbol])) as {
        id: number;
      }[];
      await db.query(
        `INSERT INTO price_history (asset_id, date, price_usd) VALUES ($1, $2, $3)
         ON CONFLICT (asset_id, date) DO UPDATE SET price_usd = EXCLUDED.price_usd`,
        [id, date, price],
      );
    }
  });
  afterAll(() => t.close());

  const upload = (accountId: string, file: Buffer, name: string, format?: string) => {
    const req = t.http
      .post(`/admin/accounts/${accountId}/import?tenant=sandbox`)
      .set(bearer(admin))
      .attach('file', file, { filename: name, contentType: 'text/csv' });
    return format ? req.field('format', format) : req;
  };

  /** Uploads a fixture into a new csv account; answers the account id. */
  const imported = async (name: string, expected: Record<string, unknown>) => {
    const { accountId } = await createAccount(t, admin, { tenant: 'sandbox' });
    // The name says nothing: the format is told by the header row.
    const res = await upload(accountId, fixture(name), 'export.csv').expect(200);
    expect(res.body).toEqual({ accountId, tenant: 'sandbox', updated: 0, unchanged: 0, ...expected });
    return accountId;
  };

  const transactions = async (accountId: string) => {
    const res = await t.http
      .get(`/v1/api/account/${accountId}/transactions?limit=100`)
      .set(bearer(partner))
      .expect(200);
    return (res.body.result.transactions as Record<string, unknown>[]).map((tx) => [
      tx.timestamp,
      tx.symbol,
      tx.direction,
      tx.amount,
      tx.price ?? tx.priceUsd ?? null,
      tx.fee ?? tx.feeUsd ?? null,
    ]);
  };

  const balances = async (accountId: string) => {
    const res = await t.http.get(`/v1/api/account/${accountId}/balances`).set(bearer(partner)).expect(200);
    return Object.fromEntries(
      (res.body.result.balances as Record<string, string>[]).map((b) => [
        b.symbol,
        { balance: b.balance, costBasis: b.costBasis, realizedGainLoss: b.realizedGainLoss },
      ]),
    );
  };

  const netGains = async (accountId: string, year: number) => {
    const res = await t.http
      .get(`/taip/gains-report?tax_year=${year}&account_id=${accountId}`)
      .set(bearer(partner))
      .expect(200);
    return res.body.net_gains as string;
  };

  it('Coinbase (2023 column set): buys, a sale, a reward, a send, a convert and a receive', async () => {
    const accountId = await imported('coinbase-2023.csv', { rows: 8, inserted: 8, format: 'coinbase' });
    expect(
      (await transactions(accountId)).map(([, symbol, direction, amount]) => [symbol, direction, amount]),
    ).toEqual(
      expect.arrayContaining([
        ['BTC', 'buy', '0.5'],
        ['BTC', 'sell', '0.2'],
        ['ETH', 'income', '0.01'],
        ['ETH', 'withdrawal', '0.5'],
        ['ETH', 'sell', '1'],
        ['BTC', 'buy', '0.064'],
        ['ETH', 'deposit', '0.3'],
      ]),
    );
    const held = await balances(accountId);
    // BTC: 0.5 bought for 8449.75; 0.2 sold for 4970 against 3379.90 of basis (gain 1590.10);
    // 0.064 bought with the convert's 1840. Left: 0.364 with 5069.85 + 1840 of basis.
    expect(held.BTC).toEqual({ balance: '0.364', costBasis: '6909.85', realizedGainLoss: '1590.10' });
    // ETH: 2 bought for 3020; 0.5 sent away; 1 converted for 1840 net against 1510 of basis (gain 330).
    expect(held.ETH).toMatchObject({ balance: '0.81', realizedGainLoss: '330.00' });
    expect(await netGains(accountId, 2023)).toBe('$1,920.10');
  });

  it('Coinbase (current column set): $-formatted money, negative quantities, an internal transfer skipped', async () => {
    const accountId = await imported('coinbase-2024.csv', { rows: 3, inserted: 3, format: 'coinbase' });
    // 10 SOL for 1029.90; 0.05 SOL of staking income at 110; 4 sold for 754.30 net against 411.96.
    expect((await balances(accountId)).SOL).toEqual({
      balance: '6.05',
      costBasis: '623.44',
      realizedGainLoss: '342.34',
    });
    expect(await netGains(accountId, 2024)).toBe('$342.34');
  });

  it('Kraken ledgers: legs paired by refid, staking at the stored price, a BTC→ETH trade, a withdrawal fee', async () => {
    const accountId = await imported('kraken-ledgers.csv', {
      rows: 7,
      inserted: 7,
      format: 'kraken-ledgers',
    });
    const txs = await transactions(accountId);
    expect(txs).toContainEqual(['2024-03-10T08:00:00.000Z', 'ETH', 'buy', '0.3992', '3400', '2.72']);
    expect(txs).toContainEqual(['2024-04-01T10:00:00.000Z', 'BTC', 'fee', '0.0001', '70000', null]);
    const held = await balances(accountId);
    // BTC: 0.1 for 4256.80 (42568 a coin); sold 0.04 for 2076.67 net (gain 373.95), 0.02 for 1360
    // (gain 508.64), 0.0001 as a network fee worth 7 (gain 2.7432); 0.01 withdrawn.
    expect(held.BTC).toEqual({ balance: '0.0299', costBasis: '1272.78', realizedGainLoss: '885.33' });
    expect(held.ETH).toEqual({ balance: '0.3992', costBasis: '1360.00', realizedGainLoss: '0.00' });
    expect(held.DOT).toEqual({ balance: '0.5', costBasis: '3.63', realizedGainLoss: '0.00' });
    expect(await netGains(accountId, 2024)).toBe('$885.33');
  });

  it('Kraken trades: fills by pair, the BTC fee of an ETH/XBT buy sold with it', async () => {
    const accountId = await imported('kraken-trades.csv', { rows: 4, inserted: 4, format: 'kraken-trades' });
    const held = await balances(accountId);
    // Sold 0.04 (gain 373.95) and 0.02004 at 68000 less a 2.72 fee = 1360 against 853.06272 (gain 506.93728).
    expect(held.BTC).toEqual({ balance: '0.03996', costBasis: '1701.02', realizedGainLoss: '880.89' });
    expect(held.ETH).toEqual({ balance: '0.4', costBasis: '1360.00', realizedGainLoss: '0.00' });
    expect(await netGains(accountId, 2024)).toBe('$880.89');
  });

  it('Gemini: trades with fees, earn interest at the stored price, a withdrawal, the totals row skipped', async () => {
    const accountId = await imported('gemini.csv', { rows: 5, inserted: 5, format: 'gemini' });
    const held = await balances(accountId);
    // 0.05 BTC for 2207.70; 0.02 sold for 1295.45 net against 883.08 (gain 412.37); 0.01 withdrawn.
    expect(held.BTC).toEqual({ balance: '0.02', costBasis: '883.08', realizedGainLoss: '412.37' });
    // 0.5 ETH for 1152.30 and 0.001 of interest at 3500.
    expect(held.ETH).toEqual({ balance: '0.501', costBasis: '1155.80', realizedGainLoss: '0.00' });
    expect(await netGains(accountId, 2024)).toBe('$412.37');
  });

  it('Bitstamp: market buy and sell, a staking reward, a withdrawal', async () => {
    const accountId = await imported('bitstamp.csv', { rows: 4, inserted: 4, format: 'bitstamp' });
    // 2 ETH for 4611.60; 0.0025 reward at 2300; 0.5 sold for 1970.06 net against 1152.90 (gain 817.16);
    // 0.25 withdrawn with 576.45 of basis. Left: 1.25 × 2305.80 + 5.75 = 2888.00.
    expect((await balances(accountId)).ETH).toEqual({
      balance: '1.2525',
      costBasis: '2888.00',
      realizedGainLoss: '817.16',
    });
    expect(await netGains(accountId, 2024)).toBe('$817.16');
  });

  it('re-importing the same file changes nothing; the body form takes the format in the query', async () => {
    const accountId = await imported('gemini.csv', { rows: 5, inserted: 5, format: 'gemini' });
    const again = await t.http
      .post(`/admin/accounts/${accountId}/import?tenant=sandbox&format=gemini`)
      .set(bearer(admin))
      .set('Content-Type', 'text/csv')
      .send(fixture('gemini.csv').toString('utf8'))
      .expect(200);
    expect(again.body).toMatchObject({ rows: 5, inserted: 0, updated: 0, unchanged: 5, format: 'gemini' });
  });

  it('refuses bad rows by line and column and imports nothing', async () => {
    const { accountId } = await createAccount(t, admin, { tenant: 'sandbox' });
    const broken = fixture('kraken-ledgers.csv')
      .toString('utf8')
      .replace(
        '"2024-02-20 15:30:00","trade","","currency","XXBT","-0.0400000000"',
        '"2024-02-20 15:30:00","trade","","currency","XXBT","-0.04x"',
      )
      .replace('"staking"', '"margin"');
    const res = await upload(accountId, Buffer.from(broken), 'ledgers.csv').expect(400);
    expect(res.body.errors.csv).toEqual(['2 problem(s) in the kraken-ledgers file; nothing was imported.']);
    expect(res.body.errors['line 5']).toEqual(['"amount" must be a number (got "-0.04x")']);
    expect(res.body.errors['line 7'][0]).toMatch(/^"type" is "margin", a type this importer does not take/);
    expect(await transactions(accountId)).toEqual([]);
  });

  it('refuses a number it would misread (a decimal comma, a letter O): 400 naming the line and the column, nothing imported', async () => {
    const { accountId } = await createAccount(t, admin, { tenant: 'sandbox' });
    const broken = fixture('kraken-ledgers.csv')
      .toString('utf8')
      .replace('"XXBT","-0.0400000000"', '"XXBT","-0,015"')
      .replace(
        '"XXBT","-0.0100000000","0.0001000000","0.0299000000"',
        '"XXBT","-0.01O5000000","0.0001000000","0.0299000000"',
      );
    const res = await upload(accountId, Buffer.from(broken), 'ledgers.csv').expect(400);
    expect(res.body.errors).toEqual({
      csv: ['2 problem(s) in the kraken-ledgers file; nothing was imported.'],
      'line 5': [
        '"amount" must be a number (got "-0,015"); a comma separates thousands only (1,234.5), the decimal separator is a point',
      ],
      'line 10': [
        '"amount" must be a number (got "-0.01O5000000"); a letter among the digits is not a number',
      ],
    });
    expect(await transactions(accountId)).toEqual([]);
  });

  it('refuses a named format the file is not, an unknown format, and a form without its file', async () => {
    const { accountId } = await createAccount(t, admin, { tenant: 'sandbox' });
    const wrong = await upload(accountId, fixture('gemini.csv'), 'x.csv', 'bitstamp').expect(400);
    expect(wrong.body.errors['line 1'][0]).toMatch(
      /^Not a Bitstamp transactions export: missing columns "Subtype", "Datetime", /,
    );
    const unknown = await upload(accountId, fixture('gemini.csv'), 'x.csv', 'mtgox').expect(400);
    expect(unknown.body.errors.format).toEqual([
      'format must be one of csv, coinbase, kraken-ledgers, kraken-trades, gemini, bitstamp.',
    ]);
    const noFile = await t.http
      .post(`/admin/accounts/${accountId}/import?tenant=sandbox`)
      .set(bearer(admin))
      .field('format', 'gemini')
      .expect(400);
    expect(noFile.body.errors.file).toEqual(['The form has no file; send it in the field "file".']);
  });

  it('answers 413 with a clear message for an upload over 20 MB', async () => {
    const { accountId } = await createAccount(t, admin, { tenant: 'sandbox' });
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 'a');
    const res = await upload(accountId, big, 'big.csv').expect(413);
    expect(res.body.detail ?? res.body.title).toMatch(
      /exceeds 20971520 bytes \(20 MB\); split it into several files/,
    );
    expect(await transactions(accountId)).toEqual([]);
  });
});
