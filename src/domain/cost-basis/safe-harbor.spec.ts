/**
 * The universal-to-per-wallet transition (docs/cost-basis.md, "Universal to per-wallet"), worked
 * by hand. Two accounts of one taxpayer, BTC: acct-a (an exchange) and acct-w (a wallet).
 *
 *   b1 2024-01-10 acct-a buy 1 at 40,000              basis 40,000
 *   b2 2024-03-10 acct-w buy 1 at 60,000              basis 60,000
 *   b3 2024-06-10 acct-a buy 1.5 at 50,000 + 10 fee   basis 75,010
 *   s1 2024-09-01 acct-w sell 0.5 at 70,000           proceeds 35,000
 *   s2 2025-03-01 acct-w sell 0.5 at 80,000           proceeds 40,000
 *
 * Per account (FIFO): s1 takes ½ b2 (30,000). On 2025-01-01 acct-a holds b1 1 + b3 1.5 (2.5 BTC,
 * basis 115,010), acct-w ½ b2 (0.5 BTC, basis 30,000).
 *
 * Universal (FIFO over one pool): s1 takes ½ b1 (20,000), so the pool on 2024-12-31 is b1 0.5
 * (20,000), b2 1 (60,000), b3 1.5 (75,010): 3 BTC, basis 155,010.
 *
 * Allocation (oldest lot first, acct-a then acct-w): acct-a needs 2.5: b1 0.5 (20,000), b2 1
 * (60,000), b3 1 of 1.5 (75,010 × 1 / 1.5 = 50,006.666…667 at 30 places, half up); acct-w
 * needs 0.5: the rest of b3 (75,010 − 50,006.666…667 = 25,003.333…333). Σ 155,010 = the pool.
 *
 * s2 then takes acct-w's allocated b3 half: 40,000 − 25,003.333…333 = 14,996.666…667 (per-account
 * lots: 40,000 − 30,000 = 10,000). s1 (2024) is the same either way: 35,000 − 30,000 = 5,000.
 */
import { computeCostBasis } from './cost-basis-engine.js';
import type { CostBasisResult, LedgerEntry } from './cost-basis.types.js';
import { computeSafeHarborAllocation, SAFE_HARBOR_SHORTFALL_ORIGIN } from './safe-harbor.js';
import { isoDate, ledgerEntry } from './testing/ledger-entry.factory.js';

const THIRDS_A = '50006.666666666666666666666666666667';
const THIRDS_W = '25003.333333333333333333333333333333';

const history: LedgerEntry[] = [
  ledgerEntry({ tx: 'b1', at: '2024-01-10', direction: 'buy', amount: '1', priceUsd: '40000' }),
  ledgerEntry({
    tx: 'b2',
    at: '2024-03-10',
    direction: 'buy',
    amount: '1',
    priceUsd: '60000',
    account: 'acct-w',
  }),
  ledgerEntry({
    tx: 'b3',
    at: '2024-06-10',
    direction: 'buy',
    amount: '1.5',
    priceUsd: '50000',
    feeUsd: '10',
  }),
  ledgerEntry({
    tx: 's1',
    at: '2024-09-01',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '70000',
    account: 'acct-w',
  }),
  ledgerEntry({
    tx: 's2',
    at: '2025-03-01',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '80000',
    account: 'acct-w',
  }),
];

const lotRows = (
  lots: readonly {
    accountId: string;
    originTransactionId: string;
    quantity: string;
    costBasisUsd: string;
    acquiredAt: Date;
  }[],
) => lots.map((l) => [l.accountId, l.originTransactionId, l.quantity, l.costBasisUsd, isoDate(l.acquiredAt)]);

const gains = (result: CostBasisResult) =>
  result.disposals.map((d) => [
    d.transactionId,
    d.lotOriginTransactionId,
    d.quantity,
    d.costBasisUsd,
    d.gainUsd,
    d.term,
  ]);

describe('computeSafeHarborAllocation', () => {
  const allocation = computeSafeHarborAllocation({ entries: history, universalMethod: 'fifo' });

  it('allocates the universal pool, oldest lot first, to what each account holds on 2025-01-01', () => {
    expect(lotRows(allocation.transition.lots)).toEqual([
      ['acct-a', 'b1', '0.5', '20000', '2024-01-10'],
      ['acct-a', 'b2', '1', '60000', '2024-03-10'],
      ['acct-a', 'b3', '1', THIRDS_A, '2024-06-10'],
      ['acct-w', 'b3', '0.5', THIRDS_W, '2024-06-10'],
    ]);
    expect(allocation.transition.at.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(allocation.firstDisposalAt?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
  });

  it('shows each account against its own per-account lots', () => {
    expect(
      allocation.positions.map((p) => [
        p.accountId,
        p.quantity,
        p.allocatedQuantity,
        p.shortfallQuantity,
        p.allocatedCostBasisUsd,
        p.perAccountCostBasisUsd,
        p.basisChangeUsd,
      ]),
    ).toEqual([
      [
        'acct-a',
        '2.5',
        '2.5',
        '0',
        '130006.666666666666666666666666666667',
        '115010',
        '14996.666666666666666666666666666667',
      ],
      ['acct-w', '0.5', '0.5', '0', THIRDS_W, '30000', '-4996.666666666666666666666666666667'],
    ]);
    expect(lotRows(allocation.positions[1].perAccountLots)).toEqual([
      ['acct-w', 'b2', '0.5', '30000', '2024-03-10'],
    ]);
  });

  it('totals: the pool = the holdings = the allocation, basis 155,010 exactly', () => {
    expect(allocation.assets).toEqual([
      {
        symbol: 'BTC',
        poolQuantity: '3',
        poolCostBasisUsd: '155010',
        poolUnknownBasisQuantity: '0',
        holdingsQuantity: '3',
        allocatedQuantity: '3',
        allocatedCostBasisUsd: '155010',
        shortfallQuantity: '0',
        excessQuantity: '0',
        excessCostBasisUsd: '0',
        excessLots: [],
        perAccountCostBasisUsd: '145010',
      },
    ]);
  });

  it('the engine starts 2025 from the allocation: s2 gains 14,996.67 instead of 10,000; s1 unchanged', () => {
    const without = computeCostBasis(history, { method: 'fifo' });
    const withAllocation = computeCostBasis(history, { method: 'fifo', transition: allocation.transition });
    expect(gains(without)).toEqual([
      ['s1', 'b2', '0.5', '30000', '5000', 'short'],
      ['s2', 'b2', '0.5', '30000', '10000', 'short'],
    ]);
    expect(gains(withAllocation)).toEqual([
      ['s1', 'b2', '0.5', '30000', '5000', 'short'],
      ['s2', 'b3', '0.5', THIRDS_W, '14996.666666666666666666666666666667', 'short'],
    ]);
    expect(lotRows(withAllocation.openLots)).toEqual([
      ['acct-a', 'b1', '0.5', '20000', '2024-01-10'],
      ['acct-a', 'b2', '1', '60000', '2024-03-10'],
      ['acct-a', 'b3', '1', THIRDS_A, '2024-06-10'],
    ]);
  });

  it('a history without 2025 entries still ends on the allocated lots (the books as of now)', () => {
    const pre = history.filter((e) => e.transactionId !== 's2');
    const result = computeCostBasis(pre, { method: 'fifo', transition: allocation.transition });
    expect(lotRows(result.openLots).map((row) => row.slice(0, 3))).toEqual([
      ['acct-a', 'b1', '0.5'],
      ['acct-a', 'b2', '1'],
      ['acct-a', 'b3', '1'],
      ['acct-w', 'b3', '0.5'],
    ]);
  });

  it('a position whose quantity changed since the confirmation keeps its own lots', () => {
    const changed = [
      ...history,
      ledgerEntry({
        tx: 'b0',
        at: '2024-12-01',
        direction: 'buy',
        amount: '1',
        priceUsd: '90000',
        account: 'acct-w',
      }),
    ];
    const result = computeCostBasis(changed, { method: 'fifo', transition: allocation.transition });
    // acct-w now holds 1.5, not the allocated 0.5: its own lots (FIFO: ½ b2 first); acct-a still switches.
    expect(gains(result)).toEqual([
      ['s1', 'b2', '0.5', '30000', '5000', 'short'],
      ['s2', 'b2', '0.5', '30000', '10000', 'short'],
    ]);
    expect(lotRows(result.openLots.filter((l) => l.accountId === 'acct-a')).map((r) => r[1])).toEqual([
      'b1',
      'b2',
      'b3',
    ]);
  });

  it('the fill order is the order given (acct-w first)', () => {
    const reversed = computeSafeHarborAllocation({
      entries: history,
      universalMethod: 'fifo',
      accountOrder: ['acct-w', 'acct-a'],
    });
    expect(lotRows(reversed.transition.lots)).toEqual([
      ['acct-w', 'b1', '0.5', '20000', '2024-01-10'],
      ['acct-a', 'b2', '1', '60000', '2024-03-10'],
      ['acct-a', 'b3', '1.5', '75010', '2024-06-10'],
    ]);
  });

  it('HIFO over the pool before 2025: s1 took ½ b2 (the highest basis), so the pool differs', () => {
    const hifo = computeSafeHarborAllocation({ entries: history, universalMethod: 'hifo' });
    // HIFO: b2 60,000 a unit is the highest, so s1 takes ½ b2 from the pool: b1 1, b2 0.5, b3 1.5.
    expect(lotRows(hifo.transition.lots)).toEqual([
      ['acct-a', 'b1', '1', '40000', '2024-01-10'],
      ['acct-a', 'b2', '0.5', '30000', '2024-03-10'],
      ['acct-a', 'b3', '1', THIRDS_A, '2024-06-10'],
      ['acct-w', 'b3', '0.5', THIRDS_W, '2024-06-10'],
    ]);
  });

  it('a shortfall (an account sold what only another held) is an unknown-basis lot, reported', () => {
    const entries = [
      ledgerEntry({
        tx: 'b1',
        at: '2024-01-10',
        direction: 'buy',
        amount: '1',
        priceUsd: '40000',
        account: 'acct-w',
      }),
      // acct-a never held BTC: per account it is an insufficient holding; the pool covers it from b1.
      ledgerEntry({ tx: 's1', at: '2024-02-01', direction: 'sell', amount: '0.4', priceUsd: '50000' }),
    ];
    const result = computeSafeHarborAllocation({ entries, universalMethod: 'fifo' });
    expect(lotRows(result.transition.lots)).toEqual([
      ['acct-w', 'b1', '0.6', '24000', '2024-01-10'],
      ['acct-w', SAFE_HARBOR_SHORTFALL_ORIGIN, '0.4', '0', '2025-01-01'],
    ]);
    expect(result.transition.lots[1].basisKnown).toBe(false);
    expect(result.positions[0].shortfallQuantity).toBe('0.4');
    expect(result.assets[0]).toMatchObject({
      poolQuantity: '0.6',
      holdingsQuantity: '1',
      allocatedQuantity: '0.6',
      shortfallQuantity: '0.4',
      excessQuantity: '0',
    });
  });
});

/**
 * Own transfers inside the pool (issue 27 item 1; docs/cost-basis.md, "Universal to per-wallet",
 * worked example 6). One taxpayer, BTC, acct-a linked first:
 *
 *   b1 2023-03-01 acct-a buy 1 at 20,000                         basis 20,000
 *   t1 2024-06-01 acct-a → acct-b transfer 0.3 (transferId x1)   moves nothing in the pool
 *   s1 2025-03-01 acct-b sell 0.3 at 50,000                      proceeds 15,000
 *
 * The pool is b1 1 BTC, basis 20,000, nothing of unknown basis. On 2025-01-01 acct-a holds 0.7 and
 * acct-b 0.3: acct-a takes 0.7 of b1 (20,000 × 0.7 = 14,000), acct-b the rest (6,000), acquired
 * 2023-03-01. s1 gains 15,000 − 6,000 = 9,000, long-term (held since 2023-03-01). Before the fix the
 * transfer was a withdrawal and a deposit in the pool: pool 0.7 (14,000) + 0.3 of unknown basis,
 * which went to acct-b acquired 2024-06-01: s1 gained 15,000 (short-term, flagged).
 */
describe('computeSafeHarborAllocation: transfers between own accounts', () => {
  const transfer = (out: string, received: string) => [
    ledgerEntry({ tx: 'b1', at: '2023-03-01', direction: 'buy', amount: '1', priceUsd: '20000' }),
    ledgerEntry({ tx: 't1-out', at: '2024-06-01', direction: 'transfer_out', amount: out, transferId: 'x1' }),
    ledgerEntry({
      tx: 't1-in',
      at: '2024-06-01',
      direction: 'transfer_in',
      amount: received,
      transferId: 'x1',
      account: 'acct-b',
    }),
    ledgerEntry({
      tx: 's1',
      at: '2025-03-01',
      direction: 'sell',
      amount: '0.3',
      priceUsd: '50000',
      account: 'acct-b',
    }),
  ];

  it('moves nothing in the pool: basis 20,000, nothing unknown; acct-b keeps b1’s date and basis', () => {
    const entries = transfer('0.3', '0.3');
    const allocation = computeSafeHarborAllocation({ entries, universalMethod: 'fifo' });
    expect(allocation.assets).toEqual([
      {
        symbol: 'BTC',
        poolQuantity: '1',
        poolCostBasisUsd: '20000',
        poolUnknownBasisQuantity: '0',
        holdingsQuantity: '1',
        allocatedQuantity: '1',
        allocatedCostBasisUsd: '20000',
        shortfallQuantity: '0',
        excessQuantity: '0',
        excessCostBasisUsd: '0',
        excessLots: [],
        perAccountCostBasisUsd: '20000',
      },
    ]);
    expect(lotRows(allocation.transition.lots)).toEqual([
      ['acct-a', 'b1', '0.7', '14000', '2023-03-01'],
      ['acct-b', 'b1', '0.3', '6000', '2023-03-01'],
    ]);
    expect(allocation.transition.lots.every((lot) => lot.basisKnown)).toBe(true);

    const result = computeCostBasis(entries, { method: 'fifo', transition: allocation.transition });
    expect(gains(result)).toEqual([['s1', 'b1', '0.3', '6000', '9000', 'long']]);
    expect(result.issues).toEqual([]);
  });

  it('its network fee is still a removal: 0.3 out, 0.299 in leaves a pool of 0.999 BTC, basis 19,980', () => {
    const entries = transfer('0.3', '0.299');
    const allocation = computeSafeHarborAllocation({ entries, universalMethod: 'fifo' });
    expect(allocation.assets[0]).toMatchObject({
      poolQuantity: '0.999',
      poolCostBasisUsd: '19980',
      poolUnknownBasisQuantity: '0',
      holdingsQuantity: '0.999',
      shortfallQuantity: '0',
      excessQuantity: '0',
    });
    // 0.7 × 19,980 ÷ 0.999 = 14,000; the rest 5,980.
    expect(lotRows(allocation.transition.lots)).toEqual([
      ['acct-a', 'b1', '0.7', '14000', '2023-03-01'],
      ['acct-b', 'b1', '0.299', '5980', '2023-03-01'],
    ]);
  });

  it('an in larger than its out adds only the excess, of unknown basis, as in the per-account books', () => {
    const entries = transfer('0.3', '0.35').filter((e) => e.transactionId !== 's1');
    const allocation = computeSafeHarborAllocation({ entries, universalMethod: 'fifo' });
    expect(allocation.assets[0]).toMatchObject({
      poolQuantity: '1.05',
      poolCostBasisUsd: '20000',
      poolUnknownBasisQuantity: '0.05',
      holdingsQuantity: '1.05',
      shortfallQuantity: '0',
    });
  });
});

describe('computeSafeHarborAllocation with a conversion (a wrap) before the transition', () => {
  it('keeps the wrap in the universal pool: the WETH lot carries the ETH basis and date', () => {
    const entries = [
      ledgerEntry({
        tx: 'b',
        at: '2024-01-10',
        direction: 'buy',
        amount: '2',
        priceUsd: '2000',
        symbol: 'ETH',
      }),
      ledgerEntry({
        tx: 'w:out',
        at: '2024-06-01',
        direction: 'transfer_out',
        amount: '1',
        symbol: 'ETH',
        transferId: 'wrap:0xw',
      }),
      ledgerEntry({
        tx: 'w:in',
        at: '2024-06-01',
        direction: 'transfer_in',
        amount: '1',
        symbol: 'WETH',
        transferId: 'wrap:0xw',
      }),
    ];
    const allocation = computeSafeHarborAllocation({ entries, universalMethod: 'fifo' });
    expect(
      allocation.transition.lots.map((l) => [
        l.accountId,
        l.symbol,
        l.quantity,
        l.costBasisUsd,
        isoDate(l.acquiredAt),
      ]),
    ).toEqual([
      ['acct-a', 'ETH', '1', '2000', '2024-01-10'],
      ['acct-a', 'WETH', '1', '2000', '2024-01-10'],
    ]);
  });
});
