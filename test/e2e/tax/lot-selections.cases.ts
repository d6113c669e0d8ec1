/**
 * Specific identification (issue 19 item 2; docs/cost-basis.md, "Specific identification")
 * through HTTP on a tenant of its own, with a hand-worked history. Every figure below is pinned on
 * the domain in src/domain/tax/lot-selections-example.spec.ts (issue 29 item 4); here each endpoint
 * shows its wire shape, one figure that proves it reaches the engine, and its error paths.
 *
 *   b1 2025-01-10  buy 1 BTC at 40,000 + 10 fee   basis 40,010
 *   b2 2025-02-10  buy 2 BTC at 50,000 + 20 fee   basis 100,020 (50,010 a unit)
 *   b3 2025-03-10  buy 1 BTC at 45,000            basis 45,000
 *   s1 2025-06-01  sell 1.5 at 60,000 − 30 fee    proceeds 89,970
 *   b4 2026-01-05  buy 1 BTC at 30,000            basis 30,000
 *   s2 2026-03-10  sell 1 at 70,000               proceeds 70,000
 *
 * FIFO: s1 = b1 (59,980 − 40,010 = 19,970) + ½ b2 (29,990 − 25,005 = 4,985) = 24,955;
 * s2 = 1 of b2 (70,000 − 50,010) = 19,990; realized 44,945.
 *
 * A selection applies only when recorded by the time of its disposal (Treas. Reg.
 * §1.1012-1(j)(3); issue 27 item 6), so the clock is set to the sale's time to record the ones
 * that apply (an advisor identifying the lots as the sale is made):
 * Select s2 → b3 then: 70,000 − 45,000 = 25,000; realized 24,955 + 25,000 = 49,955.
 * Then select s1 → b3 1, b1 0.5 at s1's time: 59,980 − 45,000 = 14,980 and 29,990 − 20,005 = 9,985
 * (24,965). s2's selection (b3) no longer fits: s2 falls back to FIFO, ½ b1 (35,000 − 20,005 =
 * 14,995) + ½ b2 (35,000 − 25,005 = 9,995) = 24,990, and the 2026 report needs review
 * (lot_selection_invalid). Realized 24,965 + 24,990 = 49,955. Deleting s2's selection clears it.
 * Recorded now (2026-03-15), after the sale, s2 → b4 is a late identification: kept, not applied
 * (FIFO's 24,990 stands), flagged; once 2025's Form 8949 is snapshotted, a late selection for s1 is
 * refused (409).
 */
import { ManualClock } from '../../../src/common/clock/clock.js';
import { ClientsService, TenantsService } from '../../../src/modules/tenancy/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  sourceTx,
  type CreatedAccount,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');

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
];

describe('lot selections (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partnerB: string;
  let account: CreatedAccount;
  let partnerClient: { clientId: string; clientSecret: string };
  const clock = new ManualClock(START);

  beforeAll(async () => {
    t = await startSuite({}, { clock });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partnerB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.app.get(TenantsService).createTenant('specid-example', 'Specific identification worked example');
    partnerClient = await t.app.get(ClientsService).createClient('specid-example', ['partner']);
    partner = await t.token(partnerClient.clientId, partnerClient.clientSecret);
    account = await createAccount(t, admin, {
      tenant: 'specid-example',
      identity: 'specid-example/exchange',
    });
    await importCsv(t, admin, account.accountId, csvOf(HISTORY), 'specid-example').expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const select = (transactionId: string, lots: { lot_id: string; quantity: string }[], token = partner) =>
    t.http
      .post('/taip/lot-selections')
      .set(bearer(token))
      .send({ account_id: account.accountId, transaction_id: transactionId, lots });
  const balances = async () =>
    (await get(`/v1/api/account/${account.accountId}/balances`).expect(200)).body.result;
  const gains = async (year: number) =>
    (await get(`/taip/gains-report?account_id=${account.accountId}&tax_year=${year}`).expect(200)).body;
  const reasonCodes = (report: { form_8949_reasons: { code: string }[] }) =>
    report.form_8949_reasons.map((r) => r.code);
  /** Records a selection with the clock at `at` (a token of that moment), then puts the clock back. */
  const selectAt = async (
    at: string,
    transactionId: string,
    lots: { lot_id: string; quantity: string }[],
  ) => {
    clock.set(new Date(at));
    try {
      const token = await t.token(partnerClient.clientId, partnerClient.clientSecret);
      return await select(transactionId, lots, token);
    } finally {
      clock.set(START);
    }
  };

  let s2Selection: string;

  it.each<[string, string, { lot_id: string; quantity: string }[], string, RegExp]>([
    [
      'an unknown transaction',
      'nope',
      [{ lot_id: 'b3', quantity: '1' }],
      'transaction_id',
      /nope is not a transaction/,
    ],
    ['a buy', 'b1', [{ lot_id: 'b1', quantity: '1' }], 'transaction_id', /is a buy, not a disposal/],
    [
      'an unknown lot',
      's2',
      [{ lot_id: 'b9', quantity: '1' }],
      'lots[0].lot_id',
      /Lot b9 is not an open BTC lot/,
    ],
    [
      'a lot consumed before',
      's2',
      [{ lot_id: 'b1', quantity: '1' }],
      'lots[0].lot_id',
      /Lot b1 is not an open/,
    ],
    [
      'a lot acquired after',
      's1',
      [{ lot_id: 'b4', quantity: '1.5' }],
      'lots[0].lot_id',
      /Lot b4 was acquired after the disposal s1/,
    ],
    [
      'more than the lot holds',
      's1',
      [{ lot_id: 'b1', quantity: '1.5' }],
      'lots[0].quantity',
      /Lot b1 holds 1 BTC/,
    ],
    [
      'more than the lot holds, over two picks',
      's1',
      [
        { lot_id: 'b3', quantity: '0.75' },
        { lot_id: 'b3', quantity: '0.75' },
      ],
      'lots[1].quantity',
      /Lot b3 holds 1 BTC .* 1\.5 was asked/,
    ],
    [
      'quantities not adding up',
      's1',
      [{ lot_id: 'b1', quantity: '1' }],
      'lots',
      /add up to 1; the disposal s1 is of 1\.5 BTC/,
    ],
    ['a zero quantity', 's1', [{ lot_id: 'b1', quantity: '0' }], 'lots[0].quantity', /decimal text > 0/],
  ])(
    '%s is a 400 naming the field and the lot; nothing is recorded',
    async (_name, tx, lots, field, message) => {
      const res = await select(tx, lots).expect(400);
      expect(res.body.errors[field].join(' ')).toMatch(message);
    },
  );

  it('malformed bodies are 400 naming the field', async () => {
    const post = (body: Record<string, unknown>) =>
      t.http.post('/taip/lot-selections').set(bearer(partner)).send(body);
    const cases: [Record<string, unknown>, string][] = [
      [{ transaction_id: 's1', lots: [{ lot_id: 'b1', quantity: '1' }] }, 'account_id'],
      [{ account_id: account.accountId, lots: [{ lot_id: 'b1', quantity: '1' }] }, 'transaction_id'],
      [{ account_id: account.accountId, transaction_id: 's1', lots: [] }, 'lots'],
      [
        { account_id: account.accountId, transaction_id: 's1', lots: [{ lot_id: 'b1', quantity: '-1' }] },
        'lots.0.quantity',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await post(body).expect(400);
      expect(Object.keys(res.body.errors ?? {}).join(' ')).toContain(field);
    }
    const list = await get(`/taip/lot-selections?account_id=${account.accountId}`).expect(200);
    expect(list.body).toEqual({ account_id: account.accountId, selections: [] });
  });

  it('selecting b3 for s2 at the time of the sale recomputes the balances at once; the report follows (25,000)', async () => {
    const res = await selectAt('2026-03-10T10:00:00Z', 's2', [{ lot_id: 'b3', quantity: '1' }]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      account_id: account.accountId,
      transaction_id: 's2',
      lots: [{ lot_id: 'b3', quantity: '1' }],
      recorded_at: '2026-03-10T10:00:00.000Z',
      disposed_at: '2026-03-10T10:00:00.000Z',
      identified_late: false,
    });
    s2Selection = res.body.id;
    expect(await balances()).toMatchObject({ realizedGainLoss: '49955.00' });
    const report = await gains(2026);
    expect(report).toMatchObject({ exact: { net_gains_usd: '25000' } });
    expect(reasonCodes(report)).not.toContain('lot_selection_invalid');
    expect(reasonCodes(report)).not.toContain('identified_late');
    // The lots left: b2 1.5 (FIFO order) and b4; b3 is gone.
    const lots = (await get(`/taip/lots?account_id=${account.accountId}`).expect(200)).body.lots;
    expect(lots.map((l: { lot_id: string; quantity: string }) => [l.lot_id, l.quantity])).toEqual([
      ['b2', '1.5'],
      ['b4', '1'],
    ]);
  });

  it('a later selection that takes s2’s lot makes s2’s invalid: FIFO fallback, needs review naming the lot', async () => {
    const res = await selectAt('2025-06-01T10:00:00Z', 's1', [
      { lot_id: 'b3', quantity: '1' },
      { lot_id: 'b1', quantity: '0.5' },
    ]);
    expect([res.status, res.body.identified_late]).toEqual([201, false]);
    const report = await gains(2026);
    expect(report).toMatchObject({ form_8949: 'needs_review', exact: { net_gains_usd: '24990' } });
    const reason = report.form_8949_reasons.find((r: { code: string }) => r.code === 'lot_selection_invalid');
    expect(reason.message).toMatch(/s2: lot b3 \(lot_not_open\)/);
    const list = await get(`/taip/lot-selections?account_id=${account.accountId}`).expect(200);
    expect(list.body.selections.map((s: { transaction_id: string }) => s.transaction_id).sort()).toEqual([
      's1',
      's2',
    ]);
  });

  it('another tenant: 404 for the account and the selection; no token is 401', async () => {
    await select('s2', [{ lot_id: 'b2', quantity: '1' }], partnerB).expect(404);
    await get(`/taip/lot-selections?account_id=${account.accountId}`, partnerB).expect(404);
    await t.http.delete(`/taip/lot-selections/${s2Selection}`).set(bearer(partnerB)).expect(404);
    await t.http.delete('/taip/lot-selections/not-a-uuid').set(bearer(partner)).expect(400);
    await t.http.get(`/taip/lot-selections?account_id=${account.accountId}`).expect(401);
  });

  it('deleting s2’s selection: s2 back to FIFO without an issue', async () => {
    await t.http.delete(`/taip/lot-selections/${s2Selection}`).set(bearer(partner)).expect(204);
    await t.http.delete(`/taip/lot-selections/${s2Selection}`).set(bearer(partner)).expect(404);
    const report = await gains(2026);
    expect(reasonCodes(report)).not.toContain('lot_selection_invalid');
    // s1 took b3 and ½ b1; s2 (FIFO) ½ b1 + ½ b2 = 24,990.
    expect(report).toMatchObject({ exact: { net_gains_usd: '24990' } });
  });

  // Issue 27 item 6: a selection recorded after its disposal is a late identification.
  it('a selection posted now for the 2026-03-10 sale is kept as identified_late, changes no figure and flags the year', async () => {
    const res = await select('s2', [{ lot_id: 'b4', quantity: '1' }])
      .set('Idempotency-Key', 'specid-s2-late')
      .expect(201);
    expect(res.body).toMatchObject({
      transaction_id: 's2',
      recorded_at: START.toISOString(),
      disposed_at: '2026-03-10T10:00:00.000Z',
      identified_late: true,
    });
    const replay = await select('s2', [{ lot_id: 'b4', quantity: '1' }]).set(
      'Idempotency-Key',
      'specid-s2-late',
    );
    expect(replay.body.id).toBe(res.body.id);
    // FIFO still (½ b1 + ½ b2 = 24,990), not b4 (40,000).
    const report = await gains(2026);
    expect(report).toMatchObject({ form_8949: 'needs_review', exact: { net_gains_usd: '24990' } });
    const reason = report.form_8949_reasons.find((r: { code: string }) => r.code === 'identified_late');
    expect(reason).toMatchObject({ count: 1 });
    expect(reason.message).toMatch(
      /s2: sold 2026-03-10T10:00:00.000Z, selection recorded 2026-03-15T12:00:00.000Z/,
    );
    const form = (await get(`/taip/form-8949?account_id=${account.accountId}&tax_year=2026`).expect(200))
      .body;
    expect(
      form.lines.map(
        (l: { transaction_id: string; identified_late: boolean; review_reason: string | null }) => [
          l.transaction_id,
          l.identified_late,
          l.review_reason,
        ],
      ),
    ).toEqual([
      ['s2', true, 'identified_late'],
      ['s2', true, 'identified_late'],
    ]);
    const csv = await get(`/taip/form-8949?account_id=${account.accountId}&tax_year=2026&format=csv`).expect(
      200,
    );
    expect(csv.text.split('\r\n')[0]).toMatch(/,Review reason,Identified late$/);
    expect(csv.text.split('\r\n')[1]).toMatch(/,yes,identified_late,yes$/);
    const list = await get(`/taip/lot-selections?account_id=${account.accountId}`).expect(200);
    expect(
      list.body.selections.map((x: { transaction_id: string; identified_late: boolean }) => [
        x.transaction_id,
        x.identified_late,
      ]),
    ).toEqual([
      ['s1', false],
      ['s2', true],
    ]);
  });

  it('refused once the year’s Form 8949 is snapshotted: 409 naming transaction_id, nothing recorded', async () => {
    await t.http
      .post('/v1/api/report-snapshots')
      .set(bearer(partner))
      .send({ kind: 'form8949', taxYear: 2025, accountId: account.accountId })
      .expect(201);
    const res = await select('s1', [{ lot_id: 'b2', quantity: '1.5' }]).expect(409);
    expect(res.body.reason).toBe('identified_late_in_snapshotted_year');
    expect(res.body.errors.transaction_id.join(' ')).toMatch(
      /s1 \(a sell\) took place on 2025-06-01T10:00:00.000Z; .* late identification .* the 2025 Form 8949 of this account was snapshotted/,
    );
    const list = await get(`/taip/lot-selections?account_id=${account.accountId}`).expect(200);
    expect(
      list.body.selections.find((x: { transaction_id: string }) => x.transaction_id === 's1').lots,
    ).toEqual([
      { lot_id: 'b3', quantity: '1' },
      { lot_id: 'b1', quantity: '0.5' },
    ]);
  });
});
