/**
 * Swaps and wraps on chain (docs/cost-basis.md, "Swaps and wraps on chain", worked examples 7
 * and 8): classifyWalletLegs on a transaction's legs, then the cost-basis engine on what it
 * makes, with every figure worked by hand in the comments.
 */
import { computeCostBasis } from '../cost-basis/cost-basis-engine.js';
import type { LedgerEntry } from '../cost-basis/cost-basis.types.js';
import { isoDate, ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { classifyWalletLegs, type ClassifiedLeg, type WalletLeg } from './swaps.js';

const WRAPS = [
  { native: 'ETH', wrapped: 'WETH' },
  { native: 'POL', wrapped: 'WPOL' },
];

/** Stored daily prices: ETH 3,000.00 on 2024-06-03, 2,500.00 on 2025-03-05; USDC 1.00. */
const PRICES: Record<string, Record<string, string>> = {
  '2024-06-03': { ETH: '3000.00', USDC: '1.00' },
  '2025-03-05': { ETH: '2500.00', USDC: '1.00' },
};
const priceOnDay = (symbol: string, date: string) => PRICES[date]?.[symbol];

const leg = (
  hash: string,
  id: string,
  direction: WalletLeg['direction'],
  symbol: string,
  amount: string,
  at: string,
  transferId: string | null = null,
): WalletLeg => ({
  transactionId: `${hash}:${id}`,
  hash,
  direction,
  symbol,
  amount,
  occurredAt: new Date(at),
  transferId,
});

const summary = (legs: readonly ClassifiedLeg[]) =>
  legs.map((l) => [l.transactionId, l.direction, l.symbol, l.amount, l.priceUsd, l.transferId]);

/** The ledger entries of classified legs, gas priced at the day's ETH price (the connector's job). */
const entries = (legs: readonly ClassifiedLeg[]): LedgerEntry[] =>
  legs.map((l) => ({
    accountId: 'wallet',
    transactionId: l.transactionId,
    symbol: l.symbol,
    direction: l.direction,
    amount: l.amount,
    priceUsd: l.direction === 'fee' ? priceOnDay(l.symbol, isoDate(l.occurredAt)!)! : (l.priceUsd ?? '0'),
    timestamp: l.occurredAt,
    ...(l.transferId === null ? {} : { transferId: l.transferId }),
  }));

/** 2 ETH bought at 2,000.00 on 2024-03-01: one lot, basis 4,000.00. */
const bought = ledgerEntry({
  tx: 'buy-eth',
  at: '2024-03-01T00:00:00Z',
  direction: 'buy',
  amount: '2',
  priceUsd: '2000.00',
  symbol: 'ETH',
  account: 'wallet',
});

const lots = (result: ReturnType<typeof computeCostBasis>) =>
  result.openLots.map((l) => [l.symbol, l.quantity, l.costBasisUsd, isoDate(l.acquiredAt)]);
const disposals = (result: ReturnType<typeof computeCostBasis>) =>
  result.disposals.map((d) => [
    d.direction,
    d.symbol,
    d.quantity,
    d.proceedsUsd,
    d.costBasisUsd,
    d.gainUsd,
    d.term,
  ]);

describe('classifyWalletLegs and the engine: worked example 7, a swap', () => {
  // 2024-06-03 12:00 UTC, ETH = 3,000.00: the address sends 1.5 ETH to a router and receives
  // 4,500 USDC; gas 0.002 ETH.
  const at = '2024-06-03T12:00:00Z';
  const swap = [
    leg('0xs1', 'eth-out', 'withdrawal', 'ETH', '1.5', at, 'chain:s1'),
    leg('0xs1', 'fee', 'fee', 'ETH', '0.002', at),
    leg('0xs1', 'token:7', 'deposit', 'USDC', '4500', at),
  ];

  it('is a sell of what left and a buy of what arrived at one value, V = 1.5 × 3,000.00 = 4,500.00', () => {
    const classified = classifyWalletLegs(swap, { wraps: WRAPS, priceOnDay });
    // ETH (the side that left) is priced: V = 4,500.00; USDC's unit price = 4,500.00 / 4,500 = 1.
    // The ETH leg loses its chain transfer id: a router is not an exchange account.
    expect(summary(classified)).toEqual([
      ['0xs1:eth-out', 'sell', 'ETH', '1.5', '3000', null],
      ['0xs1:fee', 'fee', 'ETH', '0.002', null, null],
      ['0xs1:token:7', 'buy', 'USDC', '4500', '1', null],
    ]);
    expect(classified[0]!.meaning).toEqual({ kind: 'swap', valueUsd: '4500', pricedBy: 'sent' });
  });

  it('disposes of 1.5 ETH (gain 1,500.00) and of the gas (gain 2.00); 4,500 USDC open at 4,500.00', () => {
    const result = computeCostBasis(
      [bought, ...entries(classifyWalletLegs(swap, { wraps: WRAPS, priceOnDay }))],
      {
        method: 'fifo',
      },
    );
    // Before: ETH 2, basis 4,000.00 (2,000.00 each), acquired 2024-03-01.
    // Sell 1.5 ETH: proceeds 1.5 × 3,000.00 = 4,500.00, basis 1.5 × 2,000.00 = 3,000.00, gain 1,500.00.
    // Gas 0.002 ETH (a fee, its own disposal): proceeds 0.002 × 3,000.00 = 6.00, basis 4.00, gain 2.00.
    expect(disposals(result)).toEqual([
      ['sell', 'ETH', '1.5', '4500', '3000', '1500', 'short'],
      ['fee', 'ETH', '0.002', '6', '4', '2', 'short'],
    ]);
    // After: ETH 2 − 1.5 − 0.002 = 0.498, basis 0.498 × 2,000.00 = 996.00, still from 2024-03-01;
    // USDC 4,500 with basis 4,500.00 (the trade's value), acquired on the swap's day.
    expect(lots(result)).toEqual([
      ['ETH', '0.498', '996', '2024-03-01'],
      ['USDC', '4500', '4500', '2024-06-03'],
    ]);
    expect(result.issues).toEqual([]);
  });

  it('takes the value from what arrived when what left has no price (an unknown token), and keeps both as they came when neither has one', () => {
    // 1,000 of an unknown token for 0.5 ETH on 2024-06-03: V = 0.5 × 3,000.00 = 1,500.00; the
    // token's unit price = 1,500.00 / 1,000 = 1.5.
    const tokenForEth = [
      leg('0xs2', 'token:1', 'withdrawal', 'BASE833589FCD6EDB6E0', '1000', at),
      leg('0xs2', 'internal:0:deposit', 'deposit', 'ETH', '0.5', at, 'chain:s2'),
    ];
    const classified = classifyWalletLegs(tokenForEth, { wraps: WRAPS, priceOnDay });
    expect(summary(classified)).toEqual([
      ['0xs2:token:1', 'sell', 'BASE833589FCD6EDB6E0', '1000', '1.5', null],
      ['0xs2:internal:0:deposit', 'buy', 'ETH', '0.5', '3000', null],
    ]);
    expect(classified[0]!.meaning).toEqual({ kind: 'swap', valueUsd: '1500', pricedBy: 'received' });
    // Two unknown tokens: no value to give the trade; a withdrawal and a deposit, never guessed.
    const unpriced = classifyWalletLegs(
      [
        leg('0xs3', 'token:1', 'withdrawal', 'ARBAAAAAAAAAAAAAAAAA', '10', at),
        leg('0xs3', 'token:2', 'deposit', 'ARBBBBBBBBBBBBBBBBBB', '20', at),
      ],
      { wraps: WRAPS, priceOnDay },
    );
    expect(unpriced.map((l) => [l.direction, l.priceUsd, l.meaning.kind])).toEqual([
      ['withdrawal', null, 'as_is'],
      ['deposit', null, 'as_is'],
    ]);
  });

  it('derives the unpriced side’s unit price to 20 decimals, half up', () => {
    // 1 ETH for 3 unknown tokens: V = 3,000.00; 3,000.00 / 3 = 1,000 exactly. For 7: 428.571428…
    const classified = classifyWalletLegs(
      [
        leg('0xs4', 'eth-out', 'withdrawal', 'ETH', '1', at, 'chain:s4'),
        leg('0xs4', 'token:1', 'deposit', 'OPAAAAAAAAAAAAAAAAAA', '7', at),
      ],
      { wraps: WRAPS, priceOnDay },
    );
    expect(classified[1]!.priceUsd).toBe('428.57142857142857142857');
  });

  it('leaves alone what is not one asset for another: a payment, a receipt, three assets, one asset both ways', () => {
    const legs = [
      // A plain payment and its gas.
      leg('0xp1', 'eth-out', 'withdrawal', 'ETH', '1', at, 'chain:p1'),
      leg('0xp1', 'fee', 'fee', 'ETH', '0.001', at),
      // A liquidity deposit: ETH and USDC leave, an LP token arrives.
      leg('0xl1', 'eth-out', 'withdrawal', 'ETH', '1', at, 'chain:l1'),
      leg('0xl1', 'token:1', 'withdrawal', 'USDC', '3000', at),
      leg('0xl1', 'token:2', 'deposit', 'ERCAAAAAAAAAAAAAAAAA', '5', at),
      // ETH sent and some of it refunded, nothing else.
      leg('0xr1', 'eth-out', 'withdrawal', 'ETH', '1', at, 'chain:r1'),
      leg('0xr1', 'internal:0:deposit', 'deposit', 'ETH', '0.1', at, 'chain:r1'),
    ];
    const classified = classifyWalletLegs(legs, { wraps: WRAPS, priceOnDay });
    expect(classified.map((l) => [l.direction, l.transferId])).toEqual(
      legs.map((l) => [l.direction, l.transferId]),
    );
    expect(classified.every((l) => l.meaning.kind === 'as_is')).toBe(true);
  });
});

describe('classifyWalletLegs and the engine: worked example 8, wrap and unwrap', () => {
  // 2024-06-03: wrap 1 ETH into 1 WETH, gas 0.001 ETH (ETH = 3,000.00).
  // 2025-03-05: unwrap 1 WETH into 1 ETH, gas 0.001 ETH (ETH = 2,500.00).
  const wrapAt = '2024-06-03T12:00:00Z';
  const unwrapAt = '2025-03-05T12:00:00Z';
  const history = [
    leg('0xw1', 'eth-out', 'withdrawal', 'ETH', '1', wrapAt, 'chain:w1'),
    leg('0xw1', 'fee', 'fee', 'ETH', '0.001', wrapAt),
    leg('0xw1', 'token:3', 'deposit', 'WETH', '1', wrapAt),
    leg('0xu1', 'fee', 'fee', 'ETH', '0.001', unwrapAt),
    leg('0xu1', 'internal:0:deposit', 'deposit', 'ETH', '1', unwrapAt, 'chain:u1'),
    leg('0xu1', 'token:4', 'withdrawal', 'WETH', '1', unwrapAt),
  ];

  it('makes each a conversion pair (transfer_out, transfer_in, transferId wrap:<hash>), not a trade', () => {
    expect(summary(classifyWalletLegs(history, { wraps: WRAPS, priceOnDay }))).toEqual([
      ['0xw1:eth-out', 'transfer_out', 'ETH', '1', null, 'wrap:0xw1'],
      ['0xw1:fee', 'fee', 'ETH', '0.001', null, null],
      ['0xw1:token:3', 'transfer_in', 'WETH', '1', null, 'wrap:0xw1'],
      ['0xu1:fee', 'fee', 'ETH', '0.001', null, null],
      ['0xu1:internal:0:deposit', 'transfer_in', 'ETH', '1', null, 'wrap:0xu1'],
      ['0xu1:token:4', 'transfer_out', 'WETH', '1', null, 'wrap:0xu1'],
    ]);
  });

  it('moves basis and acquisition date ETH → WETH → ETH; only the gas is disposed of', () => {
    const classified = classifyWalletLegs(history, { wraps: WRAPS, priceOnDay });
    const afterWrap = computeCostBasis([bought, ...entries(classified.slice(0, 3))], { method: 'fifo' });
    // Wrap: 1 ETH of the 2024-03-01 lot (basis 2,000.00) becomes 1 WETH with that basis and date.
    // Gas: 0.001 ETH, proceeds 3.00, basis 2.00, gain 1.00. ETH left: 0.999, basis 1,998.00.
    expect(disposals(afterWrap)).toEqual([['fee', 'ETH', '0.001', '3', '2', '1', 'short']]);
    expect(lots(afterWrap)).toEqual([
      ['ETH', '0.999', '1998', '2024-03-01'],
      ['WETH', '1', '2000', '2024-03-01'],
    ]);

    const result = computeCostBasis([bought, ...entries(classified)], { method: 'fifo' });
    // Unwrap: the gas leaves first (0.001 ETH of the 0.999 lot: proceeds 0.001 × 2,500.00 = 2.50,
    // basis 2.00, gain 0.50, long-term: held from 2024-03-01 to 2025-03-05); then the WETH lot
    // comes back as 1 ETH, basis 2,000.00, still acquired 2024-03-01.
    expect(disposals(result)).toEqual([
      ['fee', 'ETH', '0.001', '3', '2', '1', 'short'],
      ['fee', 'ETH', '0.001', '2.5', '2', '0.5', 'long'],
    ]);
    expect(lots(result)).toEqual([
      ['ETH', '0.998', '1996', '2024-03-01'],
      ['ETH', '1', '2000', '2024-03-01'],
    ]);
    expect(result.removals).toEqual([]);
    expect(result.issues).toEqual([]);
  });

  it('reads POL ↔ WPOL the same way, and a wrap of unequal amounts as a swap', () => {
    const pol = classifyWalletLegs(
      [
        leg('0xw2', 'eth-out', 'withdrawal', 'POL', '50', wrapAt, 'chain:w2'),
        leg('0xw2', 'token:1', 'deposit', 'WPOL', '50', wrapAt),
      ],
      { wraps: WRAPS, priceOnDay },
    );
    expect(pol.map((l) => [l.direction, l.transferId])).toEqual([
      ['transfer_out', 'wrap:0xw2'],
      ['transfer_in', 'wrap:0xw2'],
    ]);
    const uneven = classifyWalletLegs(
      [
        leg('0xw3', 'eth-out', 'withdrawal', 'ETH', '1', wrapAt, 'chain:w3'),
        leg('0xw3', 'token:1', 'deposit', 'WETH', '0.99', wrapAt),
      ],
      { wraps: WRAPS, priceOnDay },
    );
    expect(uneven.map((l) => [l.direction, l.priceUsd])).toEqual([
      ['sell', '3000'],
      // 3,000.00 / 0.99 = 3,030.3030… to 20 decimals (…30303030), the last 0 not written.
      ['buy', '3030.3030303030303030303'],
    ]);
  });
});
