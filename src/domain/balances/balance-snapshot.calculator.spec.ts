import { ledgerEntry } from '../cost-basis/testing/ledger-entry.factory.js';
import type { LedgerEntry } from '../cost-basis/index.js';
import { computeBalanceSnapshots, type SnapshotInput } from './balance-snapshot.calculator.js';

const computedAt = new Date('2024-06-30T12:00:00Z');

const input = (fields: Partial<SnapshotInput> & { entries: readonly LedgerEntry[] }): SnapshotInput => ({
  accountIds: ['acct-a'],
  pricesUsd: new Map([['BTC', '60000']]),
  reportedBalances: new Map(),
  computedAt,
  ...fields,
});

// Worked by hand (FIFO): buy 1 BTC at 30,000 + 10 fee (basis 30,010) and 0.5 BTC at 40,000 (basis
// 20,000); sell 0.75 BTC at 50,000 − 15 fee: proceeds 37,485, basis 0.75 × 30,010 = 22,507.5, gain
// 14,977.5. Left: 0.25 BTC (basis 7,502.5) + 0.5 BTC (basis 20,000) = 0.75 BTC, basis 27,502.5;
// at 60,000 it is worth 45,000, unrealized 17,497.5. 2 ETH bought at 1,500 have no price.
const history: readonly LedgerEntry[] = [
  ledgerEntry({ tx: 'b1', at: '2024-01-02', direction: 'buy', amount: '1', priceUsd: '30000', feeUsd: '10' }),
  ledgerEntry({ tx: 'b2', at: '2024-02-02', direction: 'buy', amount: '0.5', priceUsd: '40000' }),
  ledgerEntry({
    tx: 's1',
    at: '2024-03-02',
    direction: 'sell',
    amount: '0.75',
    priceUsd: '50000',
    feeUsd: '15',
  }),
  ledgerEntry({ tx: 'e1', at: '2024-03-05', direction: 'buy', amount: '2', priceUsd: '1500', symbol: 'ETH' }),
];

describe('computeBalanceSnapshots', () => {
  it('values the open lots at the stored prices and sums the priced assets into the account totals', () => {
    const [snapshot] = computeBalanceSnapshots(input({ entries: history }));
    expect(snapshot).toEqual({
      accountId: 'acct-a',
      lastUpdatedOn: computedAt,
      method: 'fifo',
      marketValueUsd: '45000',
      realizedGainUsd: '14977.5',
      unrealizedGainUsd: '17497.5',
      reportedBalances: null,
      issue: null,
      assets: [
        {
          symbol: 'BTC',
          quantity: '0.75',
          costBasisUsd: '27502.5',
          priceUsd: '60000',
          marketValueUsd: '45000',
          realizedGainUsd: '14977.5',
          unrealizedGainUsd: '17497.5',
          needsReview: false,
        },
        {
          symbol: 'ETH',
          quantity: '2',
          costBasisUsd: '3000',
          priceUsd: null,
          marketValueUsd: null,
          realizedGainUsd: '0',
          unrealizedGainUsd: null,
          needsReview: false,
        },
      ],
    });
  });

  it('carries the basis across an own-account transfer and answers only for the accounts asked for', () => {
    // 1 BTC bought at 100 on A; 0.4 BTC moved to B keep their basis 40; at 250 B holds 100 USD, 60 unrealized.
    const entries = [
      ledgerEntry({ tx: 'b1', at: '2024-01-02', direction: 'buy', amount: '1', priceUsd: '100' }),
      ledgerEntry({ tx: 'o1', at: '2024-01-03', direction: 'transfer_out', amount: '0.4', transferId: 'x' }),
      ledgerEntry({
        tx: 'i1',
        at: '2024-01-03',
        direction: 'transfer_in',
        amount: '0.4',
        transferId: 'x',
        account: 'acct-b',
      }),
    ];
    const snapshots = computeBalanceSnapshots(
      input({ entries, accountIds: ['acct-b'], pricesUsd: new Map([['BTC', '250']]) }),
    );
    expect(
      snapshots.map((s) => [s.accountId, s.marketValueUsd, s.unrealizedGainUsd, s.assets[0].costBasisUsd]),
    ).toEqual([['acct-b', '100', '60', '40']]);
  });

  it('reports a disposal of more than the account held as an inconsistent history, naming the transaction', () => {
    const entries = [
      ledgerEntry({ tx: 'b1', at: '2024-01-01', direction: 'buy', amount: '1', priceUsd: '100' }),
      ledgerEntry({ tx: 's1', at: '2024-02-01', direction: 'sell', amount: '1.5', priceUsd: '200' }),
    ];
    const [snapshot] = computeBalanceSnapshots(input({ entries }));
    expect(snapshot.issue).toEqual({
      reason: 'inconsistent_history',
      detail:
        'The transaction history is inconsistent: transaction s1 (sell 1.5 BTC on 2024-02-01T00:00:00.000Z) ' +
        'disposes of 0.5 BTC more than the account held, so no honest cost basis exists. Transactions are ' +
        'probably missing from the history (a gap); import them or refresh the account.',
      transactionId: 's1',
      symbol: 'BTC',
      missingQuantity: '0.5',
    });
  });

  it('keeps balances a source reports itself with the snapshot, and a disagreement is no issue (reconciliation says it)', () => {
    const reported = { BTC: '0.7', ETH: '2' };
    const [snapshot] = computeBalanceSnapshots(
      input({ entries: history, reportedBalances: new Map([['acct-a', reported]]) }),
    );
    expect(snapshot.reportedBalances).toEqual(reported);
    expect(snapshot.issue).toBeNull();
  });
});
