/**
 * Service tier: reconciliation (docs/sources.md, "Reconciliation") on a real database. A source
 * that reports balances has them set against its transactions at every refresh; a difference
 * beyond dust marks the account for review (reason naming assets and amounts, `since` kept while
 * the disagreement lasts) and a later refresh that agrees clears it. Balances stay served (no 422).
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { reconcileBalances } from '../../src/domain/balances/index.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import { ConnectorRegistry, RefreshService, SourcesModule } from '../../src/modules/sources/index.js';
import { insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2024-06-01T12:00:00Z');
const HOUR = 3_600_000;

/** 1 + 1 − 0.5 = 1.5 BTC; 2 − 0.25 = 1.75 ETH. */
const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    direction: 'buy',
    amount: '1',
    priceUsd: '30000',
    at: '2024-01-01T00:00:00Z',
  }),
  sourceTx({
    transactionId: 'b2',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    at: '2024-02-01T00:00:00Z',
  }),
  sourceTx({
    transactionId: 's1',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '50000',
    at: '2024-03-01T00:00:00Z',
  }),
  sourceTx({
    transactionId: 'e1',
    symbol: 'ETH',
    direction: 'buy',
    amount: '2',
    priceUsd: '3000',
    at: '2024-03-02T00:00:00Z',
  }),
  sourceTx({
    transactionId: 'e2',
    symbol: 'ETH',
    direction: 'withdrawal',
    amount: '0.25',
    priceUsd: null,
    at: '2024-03-03T00:00:00Z',
  }),
];

describe('reconciliation (service tier)', () => {
  let s: ServiceModule;
  let clock: ManualClock;
  let tenantId: string;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule],
      clock,
      prices: new FixedMarketPrices({ BTC: '60000', ETH: '3000' }),
    });
    tenantId = await insertTenant(s.dataSource, 'service-reconciliation');
  });

  afterAll(() => s?.close());

  async function review(accountId: string) {
    const [row] = await s.dataSource.query(
      'SELECT review_reason, review_since, balance_source FROM account WHERE id = $1',
      [accountId],
    );
    return {
      reason: row.review_reason as string | null,
      since: row.review_since && new Date(row.review_since),
      balanceSource: row.balance_source as string,
    };
  }

  it('sets needs_review with the assets and exact amounts, keeps `since` while it lasts, and clears it when the source agrees', async () => {
    const connector = new ScriptedConnector();
    s.get(ConnectorRegistry).register('reporting', connector);
    const id = await insertAccount(s.dataSource, tenantId, { source: 'reporting', createdOn: NOW });
    const refresh = () => s.get(RefreshService).refresh(tenantId, id, 'admin');

    // Agrees exactly (trailing zeros aside): no review.
    connector.serves(HISTORY, { reportedBalances: { BTC: '1.50', ETH: '1.75' } });
    expect(await refresh()).toMatchObject({ status: 'refreshed' });
    expect(await review(id)).toEqual({ reason: null, since: null, balanceSource: 'source_reported' });

    // The exchange reports 1.4999 BTC (0.0001 short: beyond one satoshi), 1.75 ETH and 0.3 SOL the
    // history never received.
    clock.advanceMs(HOUR);
    const firstSeen = clock.now();
    connector.serves(HISTORY, { reportedBalances: { BTC: '1.4999', ETH: '1.75', SOL: '0.3' } });
    expect(await refresh()).toMatchObject({ status: 'refreshed' });
    expect(await review(id)).toEqual({
      reason:
        'Source-reported balances disagree with the transactions beyond dust: ' +
        'BTC: the source reports 1.4999, the transactions account for 1.5 (difference -0.0001); ' +
        'SOL: the source reports 0.3, the transactions account for 0 (difference 0.3).',
      since: firstSeen,
      balanceSource: 'source_reported',
    });
    // The balances are still served: the snapshot has no issue, and it keeps what the source reported.
    const snapshot = await s.get(LedgerService).snapshotOf(tenantId, id);
    expect(snapshot!.issue).toBeNull();
    expect(reconcileBalances(snapshot!.reportedBalances!, snapshot!.assets)).toEqual([
      { symbol: 'BTC', reported: '1.4999', calculated: '1.5', difference: '-0.0001', withinDust: false },
      { symbol: 'ETH', reported: '1.75', calculated: '1.75', difference: '0', withinDust: true },
      { symbol: 'SOL', reported: '0.3', calculated: '0', difference: '0.3', withinDust: false },
    ]);

    // Still disagreeing an hour later (now only BTC): the reason follows, `since` stays.
    clock.advanceMs(HOUR);
    connector.serves(HISTORY, { reportedBalances: { BTC: '1.4999', ETH: '1.75' } });
    await refresh();
    expect(await review(id)).toMatchObject({
      reason:
        'Source-reported balances disagree with the transactions beyond dust: ' +
        'BTC: the source reports 1.4999, the transactions account for 1.5 (difference -0.0001).',
      since: firstSeen,
    });

    // The source agrees within dust (one satoshi over): cleared.
    clock.advanceMs(HOUR);
    connector.serves(HISTORY, { reportedBalances: { BTC: '1.50000001', ETH: '1.75' } });
    await refresh();
    expect(await review(id)).toEqual({ reason: null, since: null, balanceSource: 'source_reported' });
  });

  it('never marks an account whose balances are calculated only', async () => {
    const connector = new ScriptedConnector().serves(HISTORY);
    s.get(ConnectorRegistry).register('calculating', connector);
    const id = await insertAccount(s.dataSource, tenantId, { source: 'calculating', createdOn: NOW });
    await s.get(RefreshService).refresh(tenantId, id, 'admin');
    expect(await review(id)).toEqual({ reason: null, since: null, balanceSource: 'calculated' });
  });
});
