import type { Snapshot, SnapshotAsset } from '../balances/index.js';
import { summarizePortfolio, type SummaryAccount } from './portfolio-summary.js';
import { walletFigures } from './wallet-figures.js';

const asset = (symbol: string, fields: Partial<SnapshotAsset> = {}): SnapshotAsset => ({
  symbol,
  quantity: '1',
  costBasisUsd: '0',
  priceUsd: null,
  marketValueUsd: null,
  realizedGainUsd: '0',
  unrealizedGainUsd: null,
  needsReview: false,
  ...fields,
});

const snapshot = (
  accountId: string,
  assets: readonly SnapshotAsset[],
  fields: Partial<Snapshot> = {},
): Snapshot => ({
  accountId,
  lastUpdatedOn: new Date('2024-06-30T10:00:00Z'),
  method: 'fifo',
  marketValueUsd: '0',
  realizedGainUsd: '0',
  unrealizedGainUsd: '0',
  reportedBalances: null,
  issue: null,
  assets,
  ...fields,
});

const inconsistent = { reason: 'inconsistent_history', detail: 'gap', symbol: 'BTC' } as const;

describe('summarizePortfolio', () => {
  it('sums BTC and USD over the usable snapshots and names the accounts left out', () => {
    const accounts: SummaryAccount[] = [
      { id: 'a', platform: 'coinbase', syncStatus: 'synced' },
      { id: 'b', platform: 'kraken', syncStatus: 'error' },
      { id: 'c', platform: 'coinbase', syncStatus: 'syncing' },
      { id: 'd', platform: 'ledger', syncStatus: 'synced' },
    ];
    const snapshots = new Map([
      ['a', snapshot('a', [asset('BTC', { marketValueUsd: '60000' }), asset('ETH', { quantity: '2' })])],
      [
        'b',
        snapshot(
          'b',
          [asset('BTC', { quantity: '0.25', marketValueUsd: '15000.005' }), asset('SOL', { quantity: '0' })],
          {
            lastUpdatedOn: new Date('2024-06-30T09:00:00Z'),
          },
        ),
      ],
      ['d', snapshot('d', [asset('BTC', { quantity: '7', marketValueUsd: '1' })], { issue: inconsistent })],
    ]);
    const summary = summarizePortfolio(accounts, snapshots, new Date('2024-06-30T10:30:00.900Z'));
    expect({
      ...summary,
      btcQuantity: summary.btcQuantity.toFixed(),
      marketValueUsd: summary.marketValueUsd.toFixed(),
    }).toEqual({
      btcQuantity: '1.25',
      marketValueUsd: '75000.005',
      platforms: ['coinbase', 'kraken', 'ledger'],
      syncStatus: 'error',
      accountCount: 4,
      includedAccountCount: 2,
      excluded: [
        { accountId: 'c', reason: 'no_balances_yet' },
        { accountId: 'd', reason: 'inconsistent_history' },
      ],
      unpricedSymbols: ['ETH'],
      lastUpdatedOn: new Date('2024-06-30T09:00:00Z'),
      cacheAgeSeconds: 5400,
    });
  });

  it('has no age and zero sums without usable snapshots', () => {
    const summary = summarizePortfolio(
      [{ id: 'a', platform: 'kraken', syncStatus: 'synced' }],
      new Map(),
      new Date(),
    );
    expect([
      summary.btcQuantity.toFixed(),
      summary.marketValueUsd.toFixed(),
      summary.lastUpdatedOn,
      summary.cacheAgeSeconds,
    ]).toEqual(['0', '0', null, null]);
  });
});

describe('walletFigures', () => {
  const btc = asset('BTC', {
    quantity: '0.5',
    costBasisUsd: '10000',
    marketValueUsd: '30000',
    unrealizedGainUsd: '20000',
  });
  it.each<[string, readonly SnapshotAsset[], string | null, [string, string, string, boolean]]>([
    [
      'converts other assets at the BTC price: 0.5 + 9,000 / 60,000 = 0.65',
      [
        btc,
        asset('ETH', {
          quantity: '3',
          costBasisUsd: '4500',
          marketValueUsd: '9000',
          unrealizedGainUsd: '4500',
        }),
      ],
      '60000',
      ['0.65', '14500', '24500', false],
    ],
    [
      'rounds a conversion to 60 significant digits: 0.5 + 10,000 / 30,000',
      [
        btc,
        asset('ETH', {
          quantity: '3',
          costBasisUsd: '0',
          marketValueUsd: '10000',
          unrealizedGainUsd: '10000',
        }),
      ],
      '30000',
      [`0.8${'3'.repeat(59)}`, '10000', '30000', false],
    ],
    [
      'leaves an asset out of the BTC value without a BTC price, and says so',
      [
        btc,
        asset('ETH', {
          quantity: '3',
          costBasisUsd: '4500',
          marketValueUsd: '9000',
          unrealizedGainUsd: '4500',
        }),
      ],
      null,
      ['0.5', '14500', '24500', true],
    ],
    [
      'ignores the review flag of an asset no longer held',
      [
        btc,
        asset('ETH', { quantity: '0', realizedGainUsd: '-5', needsReview: true, unrealizedGainUsd: '0' }),
      ],
      '60000',
      ['0.5', '10000', '20000', false],
    ],
  ])('%s', (_, assets, btcPrice, [btcHoldings, costBasis, unrealized, needsReview]) => {
    const figures = walletFigures(snapshot('w', assets), btcPrice);
    expect([
      figures.btcHoldings?.toFixed(),
      figures.costBasisUsd?.toFixed(),
      figures.unrealizedGainUsd?.toFixed(),
      figures.needsReview,
      figures.unavailableReason,
    ]).toEqual([btcHoldings, costBasis, unrealized, needsReview, null]);
  });

  it.each([
    ['no snapshot', undefined, 'no_balances_yet', null],
    [
      'an inconsistent history',
      snapshot('w', [btc], { issue: inconsistent }),
      'inconsistent_history',
      new Date('2024-06-30T10:00:00Z'),
    ],
  ])('shows no figures for %s', (_, given, reason, lastUpdatedOn) => {
    expect(walletFigures(given, '60000')).toEqual({
      btcHoldings: null,
      costBasisUsd: null,
      unrealizedGainUsd: null,
      needsReview: false,
      unavailableReason: reason,
      lastUpdatedOn,
    });
  });
});
