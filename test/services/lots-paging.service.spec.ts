/**
 * Service tier: the lists that grow with a history are paged (issue 27 item 10; docs/tax-report.md,
 * "Paging of lots"): open lots, harvesting candidates and the safe-harbor allocation's lots, on a
 * real database. Pages of `limit` follow each other through `nextCursor` until null, together they
 * are the whole list in order, and the totals are the same on every page. A cursor of another
 * query, altered or whose last item is gone is a 400 naming `cursor`.
 *
 * The history: acct-a buys 240 lots of BTC in 2024 (0.01 each at 50,000 + i), then sends 0.4 BTC
 * to acct-b (a transfer between own accounts), which buys 30 lots of its own and 3 of ETH.
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { DomainError } from '../../src/common/errors/domain-error.js';
import { AccountsModule } from '../../src/modules/accounts/index.js';
import { CostBasisModule } from '../../src/modules/cost-basis/index.js';
import { SafeHarborService } from '../../src/modules/cost-basis/testing.js';
import { LedgerModule } from '../../src/modules/ledger/index.js';
import { ConnectorRegistry, RefreshService, SourcesModule } from '../../src/modules/sources/index.js';
import { TaxModule } from '../../src/modules/tax/index.js';
import { TaxLotsService } from '../../src/modules/tax/testing.js';
import { insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-03-15T12:00:00Z');
const DAY = 86_400_000;

const A_HISTORY = [
  ...Array.from({ length: 240 }, (_, i) =>
    sourceTx({
      transactionId: `a-buy-${String(i).padStart(3, '0')}`,
      at: new Date(Date.UTC(2024, 0, 1) + i * DAY).toISOString(),
      direction: 'buy',
      amount: '0.01',
      priceUsd: String(50_000 + i),
    }),
  ),
  sourceTx({
    transactionId: 'a-out',
    at: '2024-10-01T00:00:00Z',
    direction: 'transfer_out',
    amount: '0.4',
    priceUsd: null,
    transferId: 'x1',
  }),
];
const B_HISTORY = [
  sourceTx({
    transactionId: 'b-in',
    at: '2024-10-01T00:00:00Z',
    direction: 'transfer_in',
    amount: '0.4',
    priceUsd: null,
    transferId: 'x1',
  }),
  ...Array.from({ length: 30 }, (_, i) =>
    sourceTx({
      transactionId: `b-buy-${String(i).padStart(3, '0')}`,
      at: new Date(Date.UTC(2025, 5, 1) + i * DAY).toISOString(),
      direction: 'buy',
      amount: '0.02',
      priceUsd: String(70_000 + i),
    }),
  ),
  ...Array.from({ length: 3 }, (_, i) =>
    sourceTx({
      transactionId: `b-eth-${i}`,
      at: new Date(Date.UTC(2025, 6, 1) + i * DAY).toISOString(),
      direction: 'buy',
      symbol: 'ETH',
      amount: '1',
      priceUsd: '4000',
    }),
  ),
];

/** Every page of a list, through the cursors, with the number of calls it took. */
async function allPages<T>(
  fetch: (cursor: string | undefined) => Promise<{ items: readonly T[]; next: string | null }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await fetch(cursor);
    items.push(...page.items);
    pages += 1;
    cursor = page.next ?? undefined;
  } while (cursor !== undefined && pages < 100);
  return { items, pages };
}

async function cursorError(promise: Promise<unknown>): Promise<Record<string, string[]> | undefined> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).fieldErrors;
}

describe('paging of lots, harvesting candidates and the safe-harbor lots (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;
  let a: string;
  let b: string;
  let connectorA: ScriptedConnector;
  let lots: TaxLotsService;
  let safeHarbor: SafeHarborService;

  beforeAll(async () => {
    const clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [LedgerModule, SourcesModule, AccountsModule, TaxModule, CostBasisModule],
      clock,
      // BTC at 60,000: acct-a's lots (50,000 to 50,239) gain, acct-b's (70,000 to 70,029) lose.
      prices: new FixedMarketPrices({ BTC: '60000', ETH: '3000' }, NOW),
    });
    tenantId = await insertTenant(s.dataSource, 'service-lots-paging');
    connectorA = new ScriptedConnector().serves(A_HISTORY);
    s.get(ConnectorRegistry).register('paging-a', connectorA);
    s.get(ConnectorRegistry).register('paging-b', new ScriptedConnector().serves(B_HISTORY));
    a = await insertAccount(s.dataSource, tenantId, {
      source: 'paging-a',
      createdOn: new Date(NOW.getTime() - 2000),
    });
    b = await insertAccount(s.dataSource, tenantId, {
      source: 'paging-b',
      createdOn: new Date(NOW.getTime() - 1000),
    });
    await s.get(RefreshService).refresh(tenantId, a, 'admin');
    await s.get(RefreshService).refresh(tenantId, b, 'admin');
    lots = s.get(TaxLotsService);
    safeHarbor = s.get(SafeHarborService);
  });

  afterAll(() => s?.close());

  it('GET /taip/lots: 100 a page by default, the pages together are the whole list, totals the same on each', async () => {
    const whole = await lots.lots(tenantId, { limit: 1000 });
    // acct-a: 240 − 40 moved = 200 lots; acct-b: the 40 moved + 30 BTC + 3 ETH.
    expect(whole.lots).toHaveLength(273);
    expect(whole.nextCursor).toBeNull();
    const first = await lots.lots(tenantId, {});
    expect(first.lots).toHaveLength(100);
    expect(first.totals).toEqual(whole.totals);
    const totalsSeen: unknown[] = [];
    const paged = await allPages(async (cursor) => {
      const page = await lots.lots(tenantId, { limit: 100, cursor });
      totalsSeen.push(page.totals);
      return { items: page.lots, next: page.nextCursor };
    });
    expect(paged.pages).toBe(3);
    expect(paged.items).toEqual(whole.lots);
    for (const totals of totalsSeen) expect(totals).toEqual(whole.totals);
    expect(whole.totals.map((t) => [t.symbol, t.lots, t.quantity])).toEqual([
      ['BTC', 270, '3'],
      ['ETH', 3, '3'],
    ]);
  });

  it('harvesting candidates are paged; the losses and counts sum every candidate', async () => {
    const whole = await lots.harvesting(tenantId, { limit: 1000, minLossUsd: '0', washSale: 'ignore' });
    // acct-b's 30 lots bought at 70,000 + i, 0.02 each: a loss of (10,000 + i) × 0.02 at 60,000.
    expect(whole.candidateLots).toBe(30 + 3);
    expect(whole.candidates).toHaveLength(33);
    const paged = await allPages(async (cursor) => {
      const page = await lots.harvesting(tenantId, {
        limit: 7,
        cursor,
        minLossUsd: '0',
        washSale: 'ignore',
      });
      expect([page.shortTermLossUsd, page.allowableLossUsd, page.candidateLots]).toEqual([
        whole.shortTermLossUsd,
        whole.allowableLossUsd,
        33,
      ]);
      return { items: page.candidates, next: page.nextCursor };
    });
    expect(paged.pages).toBe(5);
    expect(paged.items).toEqual(whole.candidates);
  });

  it('a cursor is good only for its own query and tenant, and unaltered: else a 400 naming cursor', async () => {
    const first = await lots.lots(tenantId, { limit: 10 });
    const cursor = first.nextCursor!;
    expect(await cursorError(lots.lots(tenantId, { limit: 10, cursor, asset: 'BTC' }))).toHaveProperty(
      'cursor',
    );
    expect(await cursorError(lots.lots(tenantId, { limit: 10, cursor, method: 'hifo' }))).toHaveProperty(
      'cursor',
    );
    expect(
      await cursorError(lots.harvesting(tenantId, { cursor, minLossUsd: '0', washSale: 'ignore' })),
    ).toHaveProperty('cursor');
    const otherTenant = await insertTenant(s.dataSource, 'service-lots-paging-other');
    expect(await cursorError(lots.lots(otherTenant, { limit: 10, cursor }))).toHaveProperty('cursor');
    const [body, mac] = cursor.split('.');
    const altered = Buffer.from(JSON.stringify({ n: 20, k: 'x' })).toString('base64url');
    expect(await cursorError(lots.lots(tenantId, { cursor: `${altered}.${mac}` }))).toHaveProperty('cursor');
    expect(await cursorError(lots.lots(tenantId, { cursor: `${body}.AAAA` }))).toHaveProperty('cursor');
    expect(await cursorError(lots.lots(tenantId, { cursor: 'nonsense' }))).toHaveProperty('cursor');
  });

  it('a page resumes after its last lot when the list moved, and refuses when that lot is gone', async () => {
    // HIFO over the whole history (a what-if): the transfer took acct-b the 40 highest, a-buy-200 to 239.
    const first = await lots.lots(tenantId, { limit: 5, method: 'hifo', accountId: a });
    expect(first.lots.map((l) => l.lotId)).toEqual([
      'a-buy-199',
      'a-buy-198',
      'a-buy-197',
      'a-buy-196',
      'a-buy-195',
    ]);
    // A new lot with the highest basis comes first under HIFO: the next page still starts after a-buy-195.
    const bought = sourceTx({
      transactionId: 'a-buy-top',
      at: '2025-02-01T00:00:00Z',
      direction: 'buy',
      amount: '0.01',
      priceUsd: '99000',
    });
    connectorA.serves([...A_HISTORY, bought]);
    await s.get(RefreshService).refresh(tenantId, a, 'admin');
    const second = await lots.lots(tenantId, {
      limit: 5,
      method: 'hifo',
      accountId: a,
      cursor: first.nextCursor!,
    });
    expect(second.lots[0]?.lotId).toBe('a-buy-194');
    // A sale takes a-buy-top and the five HIFO lots after it: the cursor's last lot is gone.
    const sold = sourceTx({
      transactionId: 'a-sell',
      at: '2025-03-01T00:00:00Z',
      direction: 'sell',
      amount: '0.06',
      priceUsd: '60000',
    });
    connectorA.serves([...A_HISTORY, bought, sold]);
    await s.get(RefreshService).refresh(tenantId, a, 'admin');
    const errors = await cursorError(
      lots.lots(tenantId, { limit: 5, method: 'hifo', accountId: a, cursor: first.nextCursor! }),
    );
    expect(errors?.cursor?.join(' ')).toMatch(/changed since this cursor was issued/);
  });

  it('the safe-harbor lots are paged; positions and totals are whole on every page; the transfer moved nothing in the pool', async () => {
    const whole = await safeHarbor.view(tenantId, undefined, null, { limit: 1000 });
    // acct-a holds 2 BTC (200 allocated lots), acct-b 0.4 (40): 240 allocated, then each one's
    // own per-account lots (200 and 40).
    expect(whole.lots.filter((row) => row.kind === 'allocated')).toHaveLength(240);
    expect(whole.lots).toHaveLength(480);
    expect(whole.nextCursor).toBeNull();
    // Item 1 through the service: the pool is the 240 buys, nothing of unknown basis.
    expect(whole.assets[0]).toMatchObject({
      symbol: 'BTC',
      poolQuantity: '2.4',
      poolUnknownBasisQuantity: '0',
      shortfallQuantity: '0',
      excessQuantity: '0',
    });
    const paged = await allPages(async (cursor) => {
      const page = await safeHarbor.view(tenantId, undefined, null, { limit: 150, cursor });
      expect(page.positions).toEqual(whole.positions);
      expect(page.assets).toEqual(whole.assets);
      return { items: page.lots, next: page.nextCursor };
    });
    expect(paged.pages).toBe(4);
    expect(paged.items).toEqual(whole.lots);
    const first = await safeHarbor.view(tenantId, undefined, null, {});
    expect(first.lots).toHaveLength(100);
    // A proposal's cursor is bound to its universal method and account.
    expect(
      await cursorError(safeHarbor.view(tenantId, 'hifo', null, { cursor: first.nextCursor! })),
    ).toHaveProperty('cursor');
    expect(
      await cursorError(safeHarbor.view(tenantId, undefined, a, { cursor: first.nextCursor! })),
    ).toHaveProperty('cursor');
    const one = await safeHarbor.view(tenantId, undefined, b, {});
    expect(one.lots.every((row) => row.lot.accountId === b)).toBe(true);
    expect(one.lots).toHaveLength(80);
  });

  it('the confirmation answers the first page; its cursor continues with GET', async () => {
    const proposed = await safeHarbor.view(tenantId, undefined, null, { limit: 1000 });
    const confirmed = await safeHarbor.confirm(tenantId, undefined, 'client-1', 25);
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.lots).toEqual(proposed.lots.slice(0, 25));
    const rest = await allPages(async (cursor) => {
      const page = await safeHarbor.view(tenantId, 'lifo', null, {
        limit: 1000,
        cursor: cursor ?? confirmed.nextCursor!,
      });
      return { items: page.lots, next: page.nextCursor };
    });
    expect([...confirmed.lots, ...rest.items]).toEqual(proposed.lots);
  });
});
