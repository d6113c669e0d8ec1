/**
 * The open-lots and harvesting worked example of test/e2e/tax/lots.cases.ts (issue 19 items 3 and
 * 4; docs/tax-report.md, "Open lots"), pinned on the domain with fixed prices (issue 29 item 4:
 * the e2e suite reads the stored price, so it can check values only as quantity × price − basis).
 * As of 2026-03-15T12:00Z; prices BTC 70,000 and ETH 2,000:
 *
 *   b1 2025-01-10 buy 2 BTC at 20,000 + 10 fee = 40,010; b2 2025-06-01 sells 0.5 (FIFO, of b1):
 *      1.5 left, basis 40,010 × 1.5 ÷ 2 = 30,007.5, long-term since 2026-01-11; worth 105,000,
 *      +74,992.5
 *   b3 2026-03-01 buy 1 BTC at 1,000,000: short-term, long-term from 2027-03-02; −930,000
 *   e1 2026-02-20 buy 1 ETH at 100,000: short, from 2027-02-21; worth 2,000, −98,000
 *   e2 2026-03-10 buy 0.25 ETH at 1 (basis 0.25): short, from 2027-03-11; worth 500, +499.75
 *
 * Totals: BTC 2 lots, 2.5 BTC, basis 1,030,007.5; ETH 2 lots, 1.25 ETH, basis 100,000.25.
 * Harvesting candidates, largest loss first: b3 (930,000), e1 (98,000); short-term losses 1,028,000.
 * The wash-sale window opens 30 days before: 2026-02-13T12:00Z. b3's only purchase in it is its
 * own: nothing disallowed. e2 bought 0.25 ETH in it: a quarter of e1's loss, 24,500, would be
 * disallowed; 73,500 allowable. A threshold of 98,001 keeps b3 alone.
 */
import { computeCostBasis, type LedgerEntry } from '../cost-basis/index.js';
import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import { harvestingCandidates, totalLotsBySymbol, valueOpenLots, type LotPrice } from './open-lots.js';

const AS_OF = new Date('2026-03-15T12:00:00.000Z');
const PRICES = new Map<string, LotPrice>([
  ['BTC', { priceUsd: '70000', asOf: AS_OF }],
  ['ETH', { priceUsd: '2000', asOf: AS_OF }],
]);

const HISTORY: readonly LedgerEntry[] = [
  ledgerEntry({
    tx: 'b1',
    at: '2025-01-10T10:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '20000',
    feeUsd: '10',
  }),
  ledgerEntry({ tx: 'b2', at: '2025-06-01T10:00:00Z', direction: 'sell', amount: '0.5', priceUsd: '65000' }),
  ledgerEntry({ tx: 'b3', at: '2026-03-01T10:00:00Z', direction: 'buy', amount: '1', priceUsd: '1000000' }),
  ledgerEntry({
    tx: 'e1',
    at: '2026-02-20T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '1',
    priceUsd: '100000',
  }),
  ledgerEntry({
    tx: 'e2',
    at: '2026-03-10T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '0.25',
    priceUsd: '1',
  }),
];

const lotsOf = (method: 'fifo' | 'hifo' = 'fifo', asset?: string) =>
  valueOpenLots(
    computeCostBasis(HISTORY, { method, openLotsAsOf: AS_OF }).openLots,
    { accountIds: new Set(['acct-a']), asset },
    PRICES,
    AS_OF,
  );
const harvest = (washSale: 'ignore' | 'assume', minLossUsd = '0') =>
  harvestingCandidates(lotsOf(), { minLossUsd, washSale, asOf: AS_OF, entries: HISTORY });

describe('open lots and harvesting: the worked example of test/e2e/tax/lots.cases.ts', () => {
  it('every open lot with its exact basis, term, long-term date, value and gain', () => {
    expect(
      lotsOf().map((l) => [
        l.lotId,
        l.symbol,
        l.quantity,
        l.costBasisUsd,
        l.term,
        l.longTermFrom,
        l.acquiredAt.toISOString(),
        l.marketValueUsd,
        l.unrealizedGainUsd,
      ]),
    ).toEqual([
      ['b1', 'BTC', '1.5', '30007.5', 'long', '2026-01-11', '2025-01-10T10:00:00.000Z', '105000', '74992.5'],
      ['b3', 'BTC', '1', '1000000', 'short', '2027-03-02', '2026-03-01T10:00:00.000Z', '70000', '-930000'],
      ['e1', 'ETH', '1', '100000', 'short', '2027-02-21', '2026-02-20T10:00:00.000Z', '2000', '-98000'],
      ['e2', 'ETH', '0.25', '0.25', 'short', '2027-03-11', '2026-03-10T10:00:00.000Z', '500', '499.75'],
    ]);
    // HIFO lists ETH from the highest basis: e1, e2.
    expect(lotsOf('hifo', 'ETH').map((l) => l.lotId)).toEqual(['e1', 'e2']);
  });

  it('totals: BTC 2 lots, 2.5, basis 1,030,007.5; ETH 2 lots, 1.25, basis 100,000.25', () => {
    expect(totalLotsBySymbol(lotsOf()).map((t) => [t.symbol, t.lots, t.quantity, t.costBasisUsd])).toEqual([
      ['BTC', 2, '2.5', '1030007.5'],
      ['ETH', 2, '1.25', '100000.25'],
    ]);
  });

  it('harvesting candidates: b3 (930,000) then e1 (98,000), short-term losses 1,028,000', () => {
    const plain = harvest('ignore');
    expect(plain.candidates.map((c) => [c.lotId, c.lossUsd, c.allowableLossUsd, c.washSale])).toEqual([
      ['b3', '930000', '930000', null],
      ['e1', '98000', '98000', null],
    ]);
    expect([plain.shortTermLossUsd, plain.longTermLossUsd]).toEqual(['1028000', '0']);
    expect(harvest('ignore', '98001').candidates.map((c) => c.lotId)).toEqual(['b3']);
  });

  it('as if wash-sale rules applied: window from 2026-02-13T12:00Z; e2’s 0.25 ETH disallows 24,500 of e1’s loss', () => {
    const [b3, e1] = harvest('assume').candidates;
    expect(b3?.washSale).toEqual({
      windowFrom: new Date('2026-02-13T12:00:00.000Z'),
      replacementQuantity: '0',
      disallowedLossUsd: '0',
    });
    expect(e1?.washSale).toEqual({
      windowFrom: new Date('2026-02-13T12:00:00.000Z'),
      replacementQuantity: '0.25',
      disallowedLossUsd: '24500',
    });
    expect(e1?.allowableLossUsd).toBe('73500');
  });
});
