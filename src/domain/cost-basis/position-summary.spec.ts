import { computeCostBasis } from './cost-basis-engine.js';
import { summarizeByAccountAndSymbol, valuePositions } from './position-summary.js';
import { ledgerEntry } from './testing/ledger-entry.factory.js';

describe('summarizeByAccountAndSymbol and valuePositions', () => {
  const result = computeCostBasis(
    [
      // worked example 1 (FIFO): open b2 1.5 BTC / 75015 USD, b3 1 BTC / 45000 USD; realized 24955
      ledgerEntry({
        tx: 'b1',
        at: '2024-01-10',
        direction: 'buy',
        amount: '1',
        priceUsd: '40000',
        feeUsd: '10',
      }),
      ledgerEntry({
        tx: 'b2',
        at: '2024-02-10',
        direction: 'buy',
        amount: '2',
        priceUsd: '50000',
        feeUsd: '20',
      }),
      ledgerEntry({ tx: 'b3', at: '2024-03-10', direction: 'buy', amount: '1', priceUsd: '45000' }),
      ledgerEntry({
        tx: 's1',
        at: '2024-06-01',
        direction: 'sell',
        amount: '1.5',
        priceUsd: '60000',
        feeUsd: '30',
      }),
      ledgerEntry({ tx: 'dep', at: '2024-07-01', direction: 'deposit', amount: '0.5' }),
      ledgerEntry({
        tx: 'e1',
        at: '2024-01-01',
        direction: 'buy',
        amount: '1',
        priceUsd: '2000',
        symbol: 'ETH',
        account: 'acct-b',
      }),
      ledgerEntry({
        tx: 'c1',
        at: '2024-01-01',
        direction: 'buy',
        amount: '2',
        priceUsd: '10',
        symbol: 'SOL',
        account: 'acct-c',
      }),
      ledgerEntry({
        tx: 'c2',
        at: '2024-02-01',
        direction: 'sell',
        amount: '2',
        priceUsd: '7',
        symbol: 'SOL',
        account: 'acct-c',
      }),
    ],
    { method: 'fifo' },
  );

  it('sums open lots (known and unknown basis apart) and realized gains per account and asset', () => {
    expect(summarizeByAccountAndSymbol(result)).toEqual([
      {
        accountId: 'acct-a',
        symbol: 'BTC',
        quantity: '3',
        knownBasisQuantity: '2.5',
        unknownBasisQuantity: '0.5',
        costBasisUsd: '120015',
        realizedGainUsd: '24955',
        realizedGainNeedsReview: false,
      },
      {
        accountId: 'acct-b',
        symbol: 'ETH',
        quantity: '1',
        knownBasisQuantity: '1',
        unknownBasisQuantity: '0',
        costBasisUsd: '2000',
        realizedGainUsd: '0',
        realizedGainNeedsReview: false,
      },
      {
        accountId: 'acct-c',
        symbol: 'SOL',
        quantity: '0',
        knownBasisQuantity: '0',
        unknownBasisQuantity: '0',
        costBasisUsd: '0',
        realizedGainUsd: '-6',
        realizedGainNeedsReview: false,
      },
    ]);
  });

  it('values unknown-basis quantity at market but leaves it out of the unrealized gain, flagged', () => {
    const valued = valuePositions(summarizeByAccountAndSymbol(result), { BTC: '70000', SOL: '8' });
    expect(
      valued.map((p) => [
        p.symbol,
        p.priceUsd,
        p.marketValueUsd,
        p.unrealizedGainUsd,
        p.unrealizedGainNeedsReview,
      ]),
    ).toEqual([
      // 3 × 70000; 2.5 × 70000 − 120015
      ['BTC', '70000', '210000', '54985', true],
      // no ETH price: no value rather than a made-up one
      ['ETH', null, null, null, false],
      ['SOL', '8', '0', '0', false],
    ]);
  });

  it('accepts prices as a Map and values an empty position at 0 without a price', () => {
    const valued = valuePositions(summarizeByAccountAndSymbol(result), new Map([['ETH', '2500.5']]));
    expect(valued.map((p) => [p.symbol, p.marketValueUsd, p.unrealizedGainUsd])).toEqual([
      ['BTC', null, null],
      ['ETH', '2500.5', '500.5'],
      ['SOL', '0', '0'],
    ]);
  });

  it('does not read prices from the object prototype', () => {
    const summaries = [{ ...summarizeByAccountAndSymbol(result)[1], symbol: 'toString' }];
    expect(valuePositions(summaries, {})[0].marketValueUsd).toBeNull();
  });

  it('rejects a price that is not decimal text >= 0', () => {
    expect(() => valuePositions(summarizeByAccountAndSymbol(result), { BTC: '-1' })).toThrow(RangeError);
  });

  it('marks realized gains that include a disposal of unknown or missing basis', () => {
    const flagged = computeCostBasis(
      [ledgerEntry({ tx: 's', at: '2024-01-01', direction: 'sell', amount: '1', priceUsd: '5' })],
      { method: 'fifo' },
    );
    expect(
      summarizeByAccountAndSymbol(flagged).map((p) => [p.realizedGainUsd, p.realizedGainNeedsReview]),
    ).toEqual([['5', true]]);
  });
});
