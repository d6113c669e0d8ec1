/**
 * Service tier: late lot identification (issue 27 item 6; docs/cost-basis.md, "Specific
 * identification") on a real database. Treas. Reg. §1.1012-1(j)(3): the units sold must be
 * identified no later than the date and time of the sale. A selection recorded after its disposal
 * is accepted only as `identified_late`: the standing method keeps choosing the lots (figures
 * unchanged), the Form 8949 lines and readiness say so; for a tax year whose report was
 * snapshotted it is refused (409 naming transaction_id). One recorded by the time of the sale is
 * applied as before.
 *
 * History (one exchange account, FIFO), the clock at 2026-03-15 12:00 UTC:
 *   b1 2025-01-10 buy 1 BTC at 40,000 + 10    b2 2025-02-10 buy 2 at 50,000 + 20 (50,010 a unit)
 *   b3 2025-03-10 buy 1 at 45,000             s1 2025-06-01 sell 1.5 at 60,000 − 30
 *   b4 2026-01-05 buy 1 at 30,000             s2 2026-03-10 sell 1 at 70,000
 *   s3 2026-03-15 12:00 (now) sell 0.5 at 80,000
 * FIFO: s1 = b1 (19,970) + ½ b2 (4,985) = 24,955; s2 = 1 of b2: 70,000 − 50,010 = 19,990;
 * s3 = ½ b2: 40,000 − 25,005 = 14,995. Realized 59,940; 2026 net 34,985.
 * s3 with b4 picked by the time of the sale: 40,000 − 15,000 = 25,000; 2026 net 44,990.
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { ErrorCode } from '../../src/common/errors/domain-error.js';
import { AccountsModule } from '../../src/modules/accounts/index.js';
import { AuditModule } from '../../src/modules/audit/index.js';
import { CostBasisModule } from '../../src/modules/cost-basis/index.js';
import { LotSelectionsService } from '../../src/modules/cost-basis/testing.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import { ReportSnapshotsModule } from '../../src/modules/report-snapshots/index.js';
import { ReportSnapshotsService } from '../../src/modules/report-snapshots/testing.js';
import { ConnectorRegistry, RefreshService, SourcesModule } from '../../src/modules/sources/index.js';
import { TaxModule, TaxReportService } from '../../src/modules/tax/index.js';
import { insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { ScriptedConnector, sourceTx } from '../factories/accounts.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-03-15T12:00:00.000Z');

const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    at: '2025-01-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  sourceTx({
    transactionId: 'b2',
    at: '2025-02-10T10:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '50000',
    feeUsd: '20',
  }),
  sourceTx({
    transactionId: 'b3',
    at: '2025-03-10T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '45000',
  }),
  sourceTx({
    transactionId: 's1',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    amount: '1.5',
    priceUsd: '60000',
    feeUsd: '30',
  }),
  sourceTx({
    transactionId: 'b4',
    at: '2026-01-05T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '30000',
  }),
  sourceTx({
    transactionId: 's2',
    at: '2026-03-10T10:00:00Z',
    direction: 'sell',
    amount: '1',
    priceUsd: '70000',
  }),
  sourceTx({
    transactionId: 's3',
    at: NOW.toISOString(),
    direction: 'sell',
    amount: '0.5',
    priceUsd: '80000',
  }),
];

describe('lot selections: late identification (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;
  let accountId: string;
  let selections: LotSelectionsService;

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [
        LedgerModule,
        SourcesModule,
        AccountsModule,
        AuditModule,
        TaxModule,
        CostBasisModule,
        ReportSnapshotsModule,
      ],
      clock: new ManualClock(NOW),
      prices: new FixedMarketPrices({ BTC: '80000' }),
    });
    tenantId = await insertTenant(s.dataSource, 'service-late-identification');
    const connector = new ScriptedConnector().serves(HISTORY);
    s.get(ConnectorRegistry).register('late-id', connector);
    accountId = await insertAccount(s.dataSource, tenantId, { source: 'late-id', createdOn: NOW });
    expect(await s.get(RefreshService).refresh(tenantId, accountId, 'admin')).toMatchObject({
      status: 'refreshed',
    });
    selections = s.get(LotSelectionsService);
  });

  afterAll(() => s?.close());

  const select = (transactionId: string, lots: [string, string][]) =>
    selections.create(tenantId, {
      accountId,
      transactionId,
      lots: lots.map(([lotId, quantity]) => ({ lotId, quantity })),
      recordedBy: 'service-test',
    });
  const realized = async () => (await s.get(LedgerService).snapshotOf(tenantId, accountId))!.realizedGainUsd;
  const form = (taxYear: number) => s.get(TaxReportService).form8949(tenantId, { taxYear, accountId });
  const gains = async (taxYear: number) =>
    (await s.get(TaxReportService).gainsReport(tenantId, { taxYear, accountId })).exact.netGainUsd;
  const snapshot = (
    kind: 'gains' | 'form8949',
    taxYear: number,
    extra: { accountId?: string; asset?: string },
  ) =>
    s
      .get(ReportSnapshotsService)
      .create({ tenantId, clientId: 'service-test', requestId: null }, { kind, taxYear, ...extra });

  it('without selections: FIFO (realized 59,940; 2026 net 34,985), the form ready', async () => {
    expect(await realized()).toBe('59940');
    expect(await gains(2026)).toBe('34985');
    expect((await form(2026)).readiness).toEqual({ status: 'ready', reasons: [] });
  });

  it('a selection posted after its sale is accepted as identified_late and changes no figure', async () => {
    const stored = await select('s2', [['b3', '1']]);
    expect(stored).toMatchObject({
      transactionId: 's2',
      recordedAt: NOW,
      disposedAt: new Date('2026-03-10T10:00:00Z'),
      identifiedLate: true,
    });
    // FIFO still: s2 takes 1 of b2 (19,990), not b3 (25,000).
    expect(await realized()).toBe('59940');
    expect(await gains(2026)).toBe('34985');

    const report = await form(2026);
    expect(report.readiness.status).toBe('needs_review');
    expect(report.readiness.reasons.map((r) => [r.code, r.count])).toEqual([['identified_late', 1]]);
    expect(report.readiness.reasons[0].message).toMatch(
      /s2: sold 2026-03-10T10:00:00.000Z, selection recorded 2026-03-15T12:00:00.000Z/,
    );
    expect(
      report.lines.map((l) => [
        l.transactionId,
        l.dateAcquired,
        l.gainUsd.toFixed(2),
        l.identifiedLate,
        l.reviewReason,
      ]),
    ).toEqual([
      ['s2', '2025-02-10', '19990.00', true, 'identified_late'],
      ['s3', '2025-02-10', '14995.00', false, null],
    ]);

    expect(await selections.list(tenantId, accountId)).toEqual([
      expect.objectContaining({
        transactionId: 's2',
        identifiedLate: true,
        disposedAt: new Date('2026-03-10T10:00:00Z'),
      }),
    ]);
  });

  it('a selection recorded by the time of the sale (the same instant) is applied', async () => {
    const stored = await select('s3', [['b4', '0.5']]);
    expect(stored).toMatchObject({ identifiedLate: false, disposedAt: NOW });
    // s3 = ½ b4: 40,000 − 15,000 = 25,000; 2026 net 19,990 + 25,000.
    expect(await gains(2026)).toBe('44990');
    expect(await realized()).toBe('69945');
    const report = await form(2026);
    expect(report.lines.find((l) => l.transactionId === 's3')).toMatchObject({
      dateAcquired: '2026-01-05',
      identifiedLate: false,
      reviewReason: null,
    });
    expect(report.readiness.reasons.map((r) => r.code)).toEqual(['identified_late']);
  });

  it('refused for a tax year whose report was snapshotted: 409 naming transaction_id; nothing is recorded', async () => {
    // A snapshot of another asset's 2025 does not close BTC's 2025: the late selection is accepted.
    await snapshot('form8949', 2025, { accountId, asset: 'ETH' });
    await expect(
      select('s1', [
        ['b3', '1'],
        ['b1', '0.5'],
      ]),
    ).resolves.toMatchObject({ identifiedLate: true });
    expect(await gains(2025)).toBe('24955');

    // The account's 2025 Form 8949 frozen: a later (replacing) selection for s1 is refused.
    await snapshot('form8949', 2025, { accountId });
    const refused = select('s1', [['b2', '1.5']]);
    await expect(refused).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      reason: 'identified_late_in_snapshotted_year',
      fieldErrors: {
        transaction_id: [
          expect.stringMatching(
            /s1 \(a sell\) took place on 2025-06-01T10:00:00.000Z; a selection recorded now, after it, is a late identification .* the 2025 Form 8949 of this account was snapshotted \(report snapshot [0-9a-f-]{36}/,
          ),
        ],
      },
    });
    const list = await selections.list(tenantId, accountId);
    expect(list.find((x) => x.transactionId === 's1')?.lots).toEqual([
      { lotId: 'b3', quantity: '1' },
      { lotId: 'b1', quantity: '0.5' },
    ]);
    // A year without a snapshot still takes late selections.
    await expect(select('s2', [['b2', '1']])).resolves.toMatchObject({ identifiedLate: true });
  });

  it('a tenant-wide snapshot, or one of the gains report, closes the year as well', async () => {
    await snapshot('gains', 2026, {});
    await expect(select('s2', [['b3', '1']])).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      fieldErrors: {
        transaction_id: [expect.stringMatching(/the 2026 gains report of the tenant was snapshotted/)],
      },
    });
  });
});
