/**
 * The compute pool answers what the request thread computed before (issue 28: the same figures
 * bit for bit): the tax reports, and the safe-harbor allocation, a lot selection's check and the
 * balances a write recomputes. The worker runs from dist/ (npm test builds it first), on a ledger encoded and
 * moved to it, with elections, lot selections (one recorded late) and a transfer between accounts;
 * each answer is compared with the domain functions called directly on the original entries.
 */
import { loadConfig } from '../../config/app-config.js';
import { computeBalanceSnapshots } from '../../domain/balances/index.js';
import {
  computeCostBasis,
  computeSafeHarborAllocation,
  encodeLedger,
  lotSelectionKey,
  methodForElections,
  sortForProcessing,
  type LedgerEntry,
  type LotSelection,
  type MethodElection,
} from '../../domain/cost-basis/index.js';
import { ledgerEntry } from '../../domain/cost-basis/testing/ledger-entry.factory.js';
import { SeededRandom } from '../../domain/random/seeded-random.js';
import {
  computeTaxYear,
  harvestingCandidates,
  outcomeDigest,
  parseForm1099Da,
  reconcileForm1099Da,
  summarizeGains,
  toForm8949Csv,
  totalLotsBySymbol,
  valueOpenLots,
  type TaxAccount,
} from '../../domain/tax/index.js';
import { computeWorkerFilename, ComputePool } from './compute-pool.js';
import { selectionsData, type MethodData, type OpenLotsData, type TaxYearData } from './compute-tasks.js';

const ACCOUNTS: TaxAccount[] = [
  { id: 'acct-a', syncStatus: 'synced', address: null, chain: null },
  { id: 'acct-b', syncStatus: 'synced', address: '0xabc', chain: 'ethereum' },
];

/** Two years of trading in two accounts, one transfer between them, priced and fee'd. */
function history(): LedgerEntry[] {
  const random = new SeededRandom('compute-pool.spec');
  const entries: LedgerEntry[] = [];
  const held: Record<string, number> = { 'acct-a/BTC': 0, 'acct-a/ETH': 0, 'acct-b/BTC': 0, 'acct-b/ETH': 0 };
  const start = Date.parse('2023-01-01T00:00:00Z');
  for (let i = 0; i < 1_500; i++) {
    const account = i % 3 === 0 ? 'acct-b' : 'acct-a';
    const symbol = random.next() < 0.5 ? 'BTC' : 'ETH';
    const key = `${account}/${symbol}`;
    const sell = held[key]! > 0.01 && random.next() < 0.35;
    const amount = sell
      ? Math.floor(held[key]! * 0.3 * 1e8) / 1e8
      : Math.floor((0.01 + random.next()) * 1e8) / 1e8;
    if (amount <= 0) continue;
    held[key] = held[key]! + (sell ? -amount : amount);
    entries.push(
      ledgerEntry({
        tx: `tx-${i}`,
        at: new Date(start + i * 40_000_000).toISOString(),
        direction: sell ? 'sell' : 'buy',
        amount: amount.toFixed(8),
        priceUsd: (1_000 + 500 * random.next()).toFixed(2),
        ...(i % 7 === 0 ? { feeUsd: '1.25' } : {}),
        account,
        symbol,
      }),
    );
  }
  entries.push(
    ledgerEntry({
      tx: 'move-out',
      at: '2023-06-01T12:00:00Z',
      direction: 'transfer_out',
      amount: '0.01',
      account: 'acct-a',
      transferId: 'm1',
    }),
    ledgerEntry({
      tx: 'move-in',
      at: '2023-06-01T12:00:00Z',
      direction: 'transfer_in',
      amount: '0.01',
      account: 'acct-b',
      transferId: 'm1',
    }),
  );
  return entries;
}

const ELECTIONS: MethodElection[] = [
  {
    accountId: null,
    method: 'hifo',
    effectiveFrom: '2023-09-01',
    recordedAt: new Date('2023-08-30T00:00:00Z'),
  },
  {
    accountId: 'acct-b',
    method: 'lifo',
    effectiveFrom: '2024-01-01',
    recordedAt: new Date('2023-12-30T00:00:00Z'),
  },
];

function selectionsOf(entries: readonly LedgerEntry[]): Map<string, LotSelection> {
  const firstBuy = entries.find(
    (e) => e.direction === 'buy' && e.accountId === 'acct-a' && e.symbol === 'BTC',
  )!;
  const sells = entries.filter(
    (e) =>
      e.direction === 'sell' &&
      e.accountId === 'acct-a' &&
      e.symbol === 'BTC' &&
      e.timestamp.getUTCFullYear() === 2024,
  );
  const pick = () => [{ lotId: firstBuy.transactionId, quantity: '0.001' }];
  return new Map<string, LotSelection>([
    [lotSelectionKey('acct-a', sells[0]!.transactionId), Object.assign(pick(), { recordedAt: new Date(0) })],
    // Recorded after its sale: a late identification, not applied and flagged on the line.
    [
      lotSelectionKey('acct-a', sells[1]!.transactionId),
      Object.assign(pick(), { recordedAt: new Date('2030-01-01T00:00:00Z') }),
    ],
  ]);
}

const methodData = (selections: ReadonlyMap<string, LotSelection>): MethodData => ({
  method: 'hifo',
  elections: ELECTIONS,
  selections: [...selections].map(([key, s]) => ({ key, picks: [...s], recordedAt: s.recordedAt })),
  transition: undefined,
});

describe('ComputePool', () => {
  const entries = history();
  const selections = selectionsOf(entries);
  const direct = {
    taxYear: 2024,
    method: 'hifo' as const,
    methodFor: methodForElections(ELECTIONS),
    selections,
    accounts: ACCOUNTS,
    entries,
  };
  const taxYearData = (): TaxYearData => ({
    ...methodData(selections),
    taxYear: 2024,
    asset: undefined,
    accounts: ACCOUNTS,
    ledger: encodeLedger(entries),
  });
  let pool: ComputePool;

  beforeAll(() => {
    pool = new ComputePool(loadConfig({ NODE_ENV: 'test', COMPUTE_WORKERS: '1' }));
  });
  afterAll(() => pool.onApplicationShutdown());

  it('runs the worker compiled next to the compiled pool, or dist/ under Jest', () => {
    expect(computeWorkerFilename('file:///srv/app/dist/src/modules/compute/compute-pool.js')).toBe(
      '/srv/app/dist/src/modules/compute/compute.worker.js',
    );
    expect(computeWorkerFilename('file:///srv/app/src/modules/compute/compute-pool.ts')).toBe(
      '/srv/app/dist/src/modules/compute/compute.worker.js',
    );
  });

  it('makes the same Form 8949 CSV and gains figures as the domain called directly', async () => {
    const year = computeTaxYear(direct);
    expect(year.lines.some((line) => line.identifiedLate)).toBe(true); // the late selection came across
    const summary = summarizeGains(direct, year);
    const csv = await pool.run({ kind: 'form8949Csv', input: taxYearData() });
    expect(csv.csv).toBe(toForm8949Csv(year.lines));
    expect(csv.readiness).toEqual(year.readiness);
    const gains = await pool.run({ kind: 'gains', input: taxYearData() });
    expect(gains.summary.exact).toEqual(summary.exact);
    expect(gains.summary.ordinaryIncomeUsd).toBe(summary.ordinaryIncomeUsd);
    expect(gains.summary.transactions).toBe(summary.transactions);
    expect(gains.summary.totals.total.gainUsd).toBe(summary.totals.total.gainUsd.toFixed());
    expect(gains.summary.assets.map((a) => [a.symbol, a.transactions, a.longTerm.proceedsUsd])).toEqual(
      summary.assets.map((a) => [a.symbol, a.transactions, a.longTerm.proceedsUsd.toFixed()]),
    );
    const form = await pool.run({ kind: 'form8949', input: taxYearData() });
    expect(form.lines.map((l) => [l.transactionId, l.box, l.quantity, l.gainUsd])).toEqual(
      year.lines.map((l) => [l.transactionId, l.box, l.quantity, l.gainUsd.toFixed()]),
    );
  });

  it('reconciles a Form 1099-DA as the domain does directly', async () => {
    const year = computeTaxYear(direct);
    const csv = [
      'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference',
      ...year.lines
        .slice(0, 40)
        .map((l, i) =>
          [
            l.symbol,
            l.quantity,
            l.dateAcquired ?? '',
            l.dateSold,
            l.proceedsUsd.toFixed(2),
            i % 5 ? l.costBasisUsd.toFixed(2) : '1.00',
            l.term,
            `R${i}`,
          ].join(','),
        ),
    ].join('\n');
    const parsed = parseForm1099Da(csv);
    if (!parsed.ok) throw new Error('bad test file');
    const reconciliation = reconcileForm1099Da(parsed.lines, year.lines);
    const outcome = await pool.run({ kind: 'form1099Da', input: taxYearData(), csv, offset: 0, limit: 10 });
    expect(outcome.outcome).toBe(outcomeDigest(reconciliation));
    expect(outcome.page.matched).toEqual(reconciliation.matched.slice(0, 10));
    expect(outcome.page.different).toEqual(reconciliation.different.slice(0, 10));
    await expect(
      pool.run({ kind: 'form1099DaCheck', csv: 'asset\nBTC', listedProblems: 100 }),
    ).resolves.toMatchObject({
      ok: false,
    });
  });

  it('lists the same open lots and harvesting candidates as the domain does directly', async () => {
    const asOf = new Date('2025-06-01T00:00:00Z');
    const prices = new Map([
      ['BTC', { priceUsd: '1100', asOf }],
      ['ETH', { priceUsd: '1300.5', asOf }],
    ]);
    const result = computeCostBasis(entries, {
      method: 'hifo',
      methodFor: methodForElections(ELECTIONS),
      selections,
      openLotsAsOf: asOf,
    });
    const lots = valueOpenLots(result.openLots, { accountIds: new Set(['acct-a']) }, prices, asOf);
    const input = (): OpenLotsData => ({
      ...methodData(selections),
      asOf,
      asset: undefined,
      accountIds: ['acct-a'],
      prices: [...prices],
      ledger: encodeLedger(entries),
      limit: 1_000,
      after: null,
    });
    const answer = await pool.run({ kind: 'lots', input: input() });
    expect(answer.window?.items).toEqual(lots);
    expect(answer.totals).toEqual(totalLotsBySymbol(lots));
    const { candidates, ...sums } = harvestingCandidates(lots, {
      minLossUsd: '0',
      washSale: 'assume',
      asOf,
      entries: entries.filter((e) => e.accountId === 'acct-a'),
    });
    const harvest = await pool.run({
      kind: 'harvesting',
      input: input(),
      minLossUsd: '0',
      washSale: 'assume',
    });
    expect(harvest.window?.items).toEqual(candidates);
    expect(harvest).toMatchObject({ ...sums, candidateLots: candidates.length });
  });

  describe('the cost-basis choices and the balances (safe harbor, lot selections, writes)', () => {
    // 2025: acct-a buys and sells after the transition, so the per-wallet books start from the allocation.
    const later = [
      ledgerEntry({
        tx: 'y25-buy',
        at: '2025-02-01T00:00:00Z',
        direction: 'buy',
        amount: '0.5',
        priceUsd: '2000',
        account: 'acct-a',
      }),
      ledgerEntry({
        tx: 'y25-sell',
        at: '2025-03-01T00:00:00Z',
        direction: 'sell',
        amount: '0.2',
        priceUsd: '2500',
        account: 'acct-a',
      }),
      ledgerEntry({
        tx: 'y25-buy-2',
        at: '2025-04-01T00:00:00Z',
        direction: 'buy',
        amount: '0.1',
        priceUsd: '2600',
        account: 'acct-a',
      }),
    ];
    const all = [...entries, ...later];
    const allocation = computeSafeHarborAllocation({
      entries: all,
      universalMethod: 'hifo',
      methodFor: methodForElections(ELECTIONS),
      selections,
      accountOrder: ['acct-b', 'acct-a'],
    });

    it('proposes the same safe-harbor allocation as the domain does directly', async () => {
      expect(allocation.positions.length).toBeGreaterThan(0);
      expect(allocation.firstDisposalAt).toEqual(new Date('2025-03-01T00:00:00Z'));
      const pooled = await pool.run({
        kind: 'safeHarbor',
        input: {
          ledger: encodeLedger(all),
          universalMethod: 'hifo',
          elections: ELECTIONS,
          selections: selectionsData(selections),
          accountOrder: ['acct-b', 'acct-a'],
        },
      });
      expect(pooled).toEqual(allocation);
    });

    it('recomputes the same balances as the domain does directly, with the allocation as transition', async () => {
      const input = {
        entries: all,
        accountIds: ['acct-a', 'acct-b'],
        pricesUsd: new Map([['BTC', '1234.5']]),
        reportedBalances: new Map([
          ['acct-a', null],
          ['acct-b', { BTC: '1', ETH: '2' }],
        ]),
        computedAt: new Date('2025-06-01T00:00:00Z'),
        elections: ELECTIONS,
        selections,
        transition: allocation.transition,
      };
      const direct = computeBalanceSnapshots(input);
      // The transition moved the books (else this would not test it): without it acct-a's basis differs.
      expect(computeBalanceSnapshots({ ...input, transition: undefined })).not.toEqual(direct);
      const pooled = await pool.run({
        kind: 'balanceSnapshots',
        input: {
          ledger: encodeLedger(all),
          accountIds: input.accountIds,
          pricesUsd: [...input.pricesUsd],
          reportedBalances: [...input.reportedBalances],
          computedAt: input.computedAt,
          elections: ELECTIONS,
          selections: selectionsData(selections),
          transition: allocation.transition,
        },
      });
      expect(pooled).toEqual(direct);
    });

    it("finds a lot selection's disposal and the lots open just before it as the engine does directly", async () => {
      const sorted = sortForProcessing(all);
      const index = sorted.findIndex((e) => e.transactionId === 'y25-sell');
      const others = new Map(selections);
      const direct = computeCostBasis(sorted.slice(0, index), {
        method: 'fifo',
        methodFor: methodForElections(ELECTIONS),
        selections: others,
        transition: allocation.transition,
      }).openLots.filter((lot) => lot.accountId === 'acct-a' && lot.symbol === 'BTC');
      expect(direct.length).toBeGreaterThan(1);
      const check = (transactionId: string, lotIds: string[]) =>
        pool.run({
          kind: 'lotSelectionCheck',
          input: {
            ledger: encodeLedger(all),
            accountId: 'acct-a',
            transactionId,
            elections: ELECTIONS,
            selections: selectionsData(others),
            transition: allocation.transition,
            lotIds,
          },
        });
      const answer = await check('y25-sell', [direct[0]!.lotId!, 'y25-buy-2', 'y25-buy', 'nowhere']);
      expect(answer).toEqual({
        found: true,
        disposal: sorted[index],
        openLots: direct,
        // y25-buy came before the sale; y25-buy-2 after it.
        acquiredAfter: ['y25-buy-2'],
      });
      await expect(check('not-a-transaction', [])).resolves.toEqual({ found: false });
    });
  });
});
