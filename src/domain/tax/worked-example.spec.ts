/**
 * The worked example of docs/tax-report.md ("Worked example"), pinned to the cent on the domain:
 * the figures test/e2e/tax/tax.cases.ts checked over HTTP for every year and method (issue 29
 * item 4: the arithmetic moves down; the e2e file keeps one success per endpoint and its errors).
 *
 * Worked by hand. Exchange account A (custodial), own bitcoin wallet W (address + chain). BTC lots:
 *   a1 2022-03-01 A buy 1 @ 40,000 + 10 fee        basis 40,010 (40,010/BTC)
 *   a2 2022-09-15 A buy 2 @ 20,000 + 20 fee        basis 40,020 (20,010/BTC)
 *   a3 2023-03-01 A sell 0.5 @ 25,000 − 5 fee      12,495 − 20,005 (half of a1) = −7,510, SHORT: the anniversary itself
 *   a4 2023-03-02 A sell 0.25 @ 24,000             6,000 − 10,002.5 (a1) = −4,002.5, LONG: the day after
 *   a5/w1 2023-06-01 A → W 1 BTC out, 0.9995 in    a1's last 0.25 and 0.75 of a2 move with their dates;
 *                                                  the 0.0005 network fee comes off the a1 piece (0.2495 left)
 *   w2 2024-01-10 W sell 0.5 @ 45,000              0.2495 a1: 11,227.5 − 9,982.495 = 1,245.005 (line 1,245.00)
 *                                                  0.2505 a2: 11,272.5 − 5,012.505 = 6,259.995 (line 6,259.99)
 *   w3 2024-02-01 W fee 0.0001 BTC @ 42,000        a disposal: 4.2 − 2.001 (a2) = 2.199, long (line 2.20)
 *   a7 2024-03-01 A buy 0.5 @ 70,000               basis 35,000
 *   a6 2024-05-01 A sell 1 @ 60,000 − 30 fee       FIFO: 1 of a2, 59,970 − 20,010 = 39,960 long
 *                                                  HIFO: 0.5 a7 29,985 − 35,000 = −5,015 short
 *                                                        + 0.5 a2 29,985 − 10,005 = 19,980 long
 *   a8 2025-02-01 A sell 0.1 @ 100,000             10,000 − 2,001 (a2) = 7,999 long, box K (exchange)
 *   w4 2025-03-01 W sell 0.1 @ 90,000              9,000 − 2,001 (a2) = 6,999 long, box L (own wallet)
 * Other assets on A: e1 2024-02-01 buy 10 ETH @ 2,000; e2 2024-12-31T23:59:59Z sell 4 @ 3,000 − 12
 * = 11,988 − 8,000 = 3,988 short (box C); s1 2025-01-15 buy 10 SOL @ 200; s2 2025-07-01 sell 10 @ 150
 * − 1 = 1,499 − 2,000 = −501 short (box H).
 *
 *   2023      short −7,510      long −4,002.5                              net −11,512.5
 *   2024 FIFO short 3,988       long 1,245.005 + 6,259.995 + 2.199 + 39,960 = 47,467.199; net 51,455.199
 *             (the cent-rounded lines: long 1,245.00 + 6,259.99 + 2.20 + 39,960.00 = 47,467.19)
 *   2024 HIFO short 3,988 − 5,015 = −1,027; long 7,507.199 + 19,980 = 27,487.199; net 26,460.199
 *   2025      short −501        long 7,999 + 6,999 = 14,998                net 14,497
 * Per account over every year: A −11,512.5 + 3,988 + 39,960 − 501 + 7,999 = 39,933.5;
 * W 7,505 + 2.199 + 6,999 = 14,506.199 (what the balances' realizedGainLoss holds).
 */
import { Decimal } from 'decimal.js';
import type { CostBasisMethod, LedgerEntry } from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { totalsByBox } from './form-8949-lines.js';
import { computeTaxYear, summarizeGains, type TaxAccount, type TaxYearInput } from './tax-year-report.js';

const A: TaxAccount = { id: 'acct-a', syncStatus: 'synced', address: null, chain: null };
const W: TaxAccount = { id: 'acct-w', syncStatus: 'synced', address: 'bc1qcoldwallet', chain: 'bitcoin' };

const a = (fields: Omit<Parameters<typeof ledgerEntry>[0], 'account'>) =>
  ledgerEntry({ ...fields, account: 'acct-a' });
const w = (fields: Omit<Parameters<typeof ledgerEntry>[0], 'account'>) =>
  ledgerEntry({ ...fields, account: 'acct-w' });

const history: readonly LedgerEntry[] = [
  a({ tx: 'a1', at: '2022-03-01T15:00:00Z', direction: 'buy', amount: '1', priceUsd: '40000', feeUsd: '10' }),
  a({ tx: 'a2', at: '2022-09-15T15:00:00Z', direction: 'buy', amount: '2', priceUsd: '20000', feeUsd: '20' }),
  a({
    tx: 'a3',
    at: '2023-03-01T15:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '25000',
    feeUsd: '5',
  }),
  a({ tx: 'a4', at: '2023-03-02T15:00:00Z', direction: 'sell', amount: '0.25', priceUsd: '24000' }),
  a({ tx: 'a5', at: '2023-06-01T12:00:00Z', direction: 'transfer_out', amount: '1', transferId: 'T1' }),
  a({
    tx: 'e1',
    at: '2024-02-01T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '10',
    priceUsd: '2000',
  }),
  a({ tx: 'a7', at: '2024-03-01T10:00:00Z', direction: 'buy', amount: '0.5', priceUsd: '70000' }),
  a({
    tx: 'a6',
    at: '2024-05-01T10:00:00Z',
    direction: 'sell',
    amount: '1',
    priceUsd: '60000',
    feeUsd: '30',
  }),
  a({
    tx: 'e2',
    at: '2024-12-31T23:59:59Z',
    direction: 'sell',
    symbol: 'ETH',
    amount: '4',
    priceUsd: '3000',
    feeUsd: '12',
  }),
  a({ tx: 's1', at: '2025-01-15T10:00:00Z', direction: 'buy', symbol: 'SOL', amount: '10', priceUsd: '200' }),
  a({ tx: 'a8', at: '2025-02-01T10:00:00Z', direction: 'sell', amount: '0.1', priceUsd: '100000' }),
  a({
    tx: 's2',
    at: '2025-07-01T10:00:00Z',
    direction: 'sell',
    symbol: 'SOL',
    amount: '10',
    priceUsd: '150',
    feeUsd: '1',
  }),
  w({ tx: 'w1', at: '2023-06-01T12:00:00Z', direction: 'transfer_in', amount: '0.9995', transferId: 'T1' }),
  w({ tx: 'w2', at: '2024-01-10T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '45000' }),
  w({ tx: 'w3', at: '2024-02-01T10:00:00Z', direction: 'fee', amount: '0.0001', priceUsd: '42000' }),
  w({ tx: 'w4', at: '2025-03-01T10:00:00Z', direction: 'sell', amount: '0.1', priceUsd: '90000' }),
];

const query = (taxYear: number, fields: Partial<TaxYearInput> = {}): TaxYearInput => ({
  taxYear,
  method: 'fifo',
  accounts: [A, W],
  entries: history,
  ...fields,
});
const gains = (taxYear: number, fields: Partial<TaxYearInput> = {}) => {
  const q = query(taxYear, fields);
  return summarizeGains(q, computeTaxYear(q));
};
const cents = (d: Decimal) => d.toFixed(2);
const lineRows = (taxYear: number, fields: Partial<TaxYearInput> = {}) =>
  computeTaxYear(query(taxYear, fields)).lines.map((l) => [
    l.box,
    l.description,
    l.dateAcquired,
    l.dateSold,
    cents(l.proceedsUsd),
    cents(l.costBasisUsd),
    cents(l.gainUsd),
    l.transactionId,
  ]);

describe('the worked example of docs/tax-report.md (moved down from test/e2e/tax/tax.cases.ts)', () => {
  it('2023: a sale on the anniversary is short-term, the next day long-term (FIFO, partial lot, sell fee)', () => {
    const g = gains(2023);
    expect(g.transactions).toBe(2);
    expect(
      [g.totals.shortTerm, g.totals.longTerm].map((t) => [
        t.lines,
        ...[t.proceedsUsd, t.costBasisUsd, t.gainUsd].map(cents),
      ]),
    ).toEqual([
      [1, '12495.00', '20005.00', '-7510.00'],
      [1, '6000.00', '10002.50', '-4002.50'],
    ]);
    expect([g.exact.netGainUsd, g.exact.shortTermGainUsd, g.exact.longTermGainUsd]).toEqual([
      '-11512.5',
      '-7510',
      '-4002.5',
    ]);
    expect(computeTaxYear(query(2023)).readiness.reasons).toEqual([]);
  });

  it('2024 FIFO: the transfer keeps the 2022 acquisition dates (long-term), a BTC-paid fee is a disposal, lines round to cents', () => {
    const g = gains(2024);
    expect(g.transactions).toBe(4);
    expect(
      [g.totals.shortTerm, g.totals.longTerm, g.totals.total].map((t) => [
        t.lines,
        ...[t.proceedsUsd, t.costBasisUsd, t.gainUsd].map(cents),
      ]),
    ).toEqual([
      [1, '11988.00', '8000.00', '3988.00'],
      [4, '82474.20', '35007.01', '47467.19'],
      [5, '94462.20', '43007.01', '51455.19'],
    ]);
    // Unrounded, the lines' half cents add up to 51,455.199: the exact figure balances agree with.
    expect(g.exact).toMatchObject({
      netGainUsd: '51455.199',
      shortTermGainUsd: '3988',
      longTermGainUsd: '47467.199',
      proceedsUsd: '94462.2',
      costBasisUsd: '43007.001',
    });
    expect(g.ordinaryIncomeUsd).toBe('0');
    expect(
      g.assets.map((x) => [
        x.symbol,
        x.transactions,
        cents(x.total.gainUsd),
        cents(x.shortTerm.gainUsd),
        cents(x.longTerm.gainUsd),
        cents(x.total.proceedsUsd),
        cents(x.total.costBasisUsd),
      ]),
    ).toEqual([
      ['BTC', 3, '47467.19', '0.00', '47467.19', '82474.20', '35007.01'],
      ['ETH', 1, '3988.00', '3988.00', '0.00', '11988.00', '8000.00'],
    ]);
  });

  it('2024 Form 8949: lines in form order with boxes C and F, totals per box', () => {
    expect(lineRows(2024)).toEqual([
      ['C', '4 ETH', '2024-02-01', '2024-12-31', '11988.00', '8000.00', '3988.00', 'e2'],
      ['F', '0.2495 BTC', '2022-03-01', '2024-01-10', '11227.50', '9982.50', '1245.00', 'w2'],
      ['F', '0.2505 BTC', '2022-09-15', '2024-01-10', '11272.50', '5012.51', '6259.99', 'w2'],
      ['F', '0.0001 BTC', '2022-09-15', '2024-02-01', '4.20', '2.00', '2.20', 'w3'],
      ['F', '1 BTC', '2022-09-15', '2024-05-01', '59970.00', '20010.00', '39960.00', 'a6'],
    ]);
    const totals = totalsByBox(computeTaxYear(query(2024)).lines);
    expect(
      totals.map((t) => [
        t.part,
        t.box,
        t.lines,
        cents(t.proceedsUsd),
        cents(t.costBasisUsd),
        cents(t.gainUsd),
      ]),
    ).toEqual([
      ['I', 'C', 1, '11988.00', '8000.00', '3988.00'],
      ['II', 'F', 4, '82474.20', '35007.01', '47467.19'],
    ]);
  });

  it('2024 HIFO: the sale takes the 70,000 lot first (a short-term loss) and half of the 2022 lot', () => {
    const g = gains(2024, { method: 'hifo' as CostBasisMethod });
    expect(g.transactions).toBe(4);
    expect([g.totals.shortTerm.lines, g.totals.longTerm.lines]).toEqual([2, 4]);
    expect([g.totals.total, g.totals.shortTerm, g.totals.longTerm].map((t) => cents(t.gainUsd))).toEqual([
      '26460.19',
      '-1027.00',
      '27487.19',
    ]);
    expect(g.exact.netGainUsd).toBe('26460.199');
    expect(lineRows(2024, { method: 'hifo' }).filter((l) => l[7] === 'a6')).toEqual([
      ['C', '0.5 BTC', '2024-03-01', '2024-05-01', '29985.00', '35000.00', '-5015.00', 'a6'],
      ['F', '0.5 BTC', '2022-09-15', '2024-05-01', '29985.00', '10005.00', '19980.00', 'a6'],
    ]);
  });

  it('2025: short- and long-term across both accounts; digital-asset boxes H/K for the exchange, L for the own wallet', () => {
    const g = gains(2025);
    expect(g.transactions).toBe(3);
    expect([g.totals.total, g.totals.shortTerm, g.totals.longTerm].map((t) => cents(t.gainUsd))).toEqual([
      '14497.00',
      '-501.00',
      '14998.00',
    ]);
    expect(g.exact).toMatchObject({ netGainUsd: '14497', proceedsUsd: '20499', costBasisUsd: '6002' });
    expect(lineRows(2025)).toEqual([
      ['H', '10 SOL', '2025-01-15', '2025-07-01', '1499.00', '2000.00', '-501.00', 's2'],
      ['K', '0.1 BTC', '2022-09-15', '2025-02-01', '10000.00', '2001.00', '7999.00', 'a8'],
      ['L', '0.1 BTC', '2022-09-15', '2025-03-01', '9000.00', '2001.00', '6999.00', 'w4'],
    ]);
    expect(totalsByBox(computeTaxYear(query(2025)).lines).map((t) => [t.box, cents(t.gainUsd)])).toEqual([
      ['H', '-501.00'],
      ['K', '7999.00'],
      ['L', '6999.00'],
    ]);
  });

  it('narrowed to the wallet (its entries and the linked account’s) or to one asset; a year without sales is empty', () => {
    const wallet = gains(2024, { accounts: [W] });
    expect([
      wallet.transactions,
      cents(wallet.totals.total.gainUsd),
      cents(wallet.totals.shortTerm.gainUsd),
    ]).toEqual([2, '7507.19', '0.00']);
    expect(wallet.exact.netGainUsd).toBe('7507.199');
    const eth = gains(2024, { asset: 'ETH' });
    expect([eth.transactions, cents(eth.totals.total.gainUsd)]).toEqual([1, '3988.00']);
    const none = gains(2022);
    expect([none.transactions, none.assets, none.exact.netGainUsd]).toEqual([0, [], '0']);
  });

  it('each account’s exact gains summed over the years: A 39,933.5, W 14,506.199', () => {
    for (const [account, sum] of [
      [A, '39933.5'],
      [W, '14506.199'],
    ] as const) {
      let total = new Decimal(0);
      for (let year = 2022; year <= 2026; year++)
        total = total.plus(gains(year, { accounts: [account] }).exact.netGainUsd);
      expect(total.toFixed()).toBe(sum);
    }
  });
});
