/**
 * Form 1099-DA reconciliation (issue 19 item 5) through HTTP: a broker's file matched with the
 * service's Form 8949 lines of 2025 on a tenant of its own, worked by hand (docs/tax-report.md,
 * "Form 1099-DA reconciliation"), and every error path. The example's figures, from the ledger to
 * the reconciliation, are pinned on the domain in src/domain/tax/form-1099-da-example.spec.ts
 * (issue 29 item 4); here the one success is the endpoint's wire shape.
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

/**
 * s1 sells 0.5 BTC of b1 (basis 40,010 ÷ 2 = 20,005, long-term); s2 sells 1.5 BTC: 0.5 of b1
 * (20,005, long) and 1 of b2 (60,000, short) for 90,000; s3 sells 2 ETH (basis 4,000) for
 * 5,000; s4 sells 1 SOL (basis 200) for 150.
 */
const HISTORY = [
  sourceTx({
    transactionId: 'b1',
    at: '2024-01-02T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  sourceTx({
    transactionId: 'b2',
    at: '2024-06-01T10:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '60000',
  }),
  sourceTx({
    transactionId: 'e1',
    at: '2024-09-01T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '2',
    priceUsd: '2000',
  }),
  sourceTx({
    transactionId: 'o1',
    at: '2025-01-01T10:00:00Z',
    direction: 'buy',
    symbol: 'SOL',
    amount: '1',
    priceUsd: '200',
  }),
  sourceTx({
    transactionId: 's1',
    at: '2025-03-01T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '65000',
  }),
  sourceTx({
    transactionId: 's2',
    at: '2025-05-01T10:00:00Z',
    direction: 'sell',
    amount: '1.5',
    priceUsd: '60000',
  }),
  sourceTx({
    transactionId: 's3',
    at: '2025-06-01T10:00:00Z',
    direction: 'sell',
    symbol: 'ETH',
    amount: '2',
    priceUsd: '2500',
  }),
  sourceTx({
    transactionId: 's4',
    at: '2025-07-01T10:00:00Z',
    direction: 'sell',
    symbol: 'SOL',
    amount: '1',
    priceUsd: '150',
  }),
];

const BROKER = [
  'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference',
  'BTC,0.5,2024-01-02,2025-03-01,32500.00,20005.00,long,A',
  'BTC,1.5,VARIOUS,2025-05-01,"90,000.00",,,B',
  'ETH,1.9,2024-09-01,2025-06-01,4750.00,4000.00,short,C',
  'BTC,0.1,,2025-08-01,9000.00,,,D',
].join('\n');

describe('Form 1099-DA reconciliation (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let partner: string;
  let partnerB: string;
  let account: CreatedAccount;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partnerB = await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret);
    await t.app.get(TenantsService).createTenant('da-example', '1099-DA worked example');
    const client = await t.app.get(ClientsService).createClient('da-example', ['partner']);
    partner = await t.token(client.clientId, client.clientSecret);
    account = await createAccount(t, admin, { tenant: 'da-example', identity: 'da-example/exchange' });
    await importCsv(t, admin, account.accountId, csvOf(HISTORY), 'da-example').expect(200);
  });
  afterAll(() => t.close());

  const reconcile = (query: string, body: string, token = partner) =>
    t.http
      .post(`/taip/form-1099-da/reconciliation?${query}`)
      .set(bearer(token))
      .set('Content-Type', 'text/csv')
      .send(body);

  it('matches per lot and per sale, names the differences, lists what is left on both sides', async () => {
    const res = await reconcile(`tax_year=2025&account_id=${account.accountId}`, BROKER).expect(200);
    expect(res.body).toMatchObject({
      tax_year: 2025,
      method: 'fifo',
      account_id: account.accountId,
      accounts: 1,
      broker_lines: 4,
      service_lines: 5,
      counts: { matched: 2, different: 1, unmatched_broker: 1, unmatched_service: 1 },
      broker_proceeds: '136250.00',
      service_proceeds: '127650.00',
    });
    const matched = res.body.matched as Array<{
      broker: { reference: string };
      service: Record<string, unknown>;
      matched_by: string;
    }>;
    expect(matched.map((m) => [m.broker.reference, m.matched_by, m.service.transaction_id])).toEqual([
      ['A', 'lot', 's1'],
      ['B', 'sale', 's2'],
    ]);
    expect(matched[1]?.service).toMatchObject({
      units: '1.5',
      proceeds: '90000.00',
      cost_basis: '80005.00',
      date_acquired: null,
      term: null,
      lines: 2,
    });
    expect(res.body.different).toHaveLength(1);
    expect(res.body.different[0]).toMatchObject({
      matched_by: 'same_day',
      broker: { line: 4, reference: 'C', units: '1.9' },
      service: { transaction_id: 's3', units: '2', proceeds: '5000.00', cost_basis: '4000.00' },
      differences: [
        { field: 'units', broker: '1.9', service: '2', difference: '-0.1' },
        { field: 'proceeds', broker: '4750.00', service: '5000.00', difference: '-250' },
      ],
    });
    expect(res.body.unmatched_broker).toEqual([
      {
        line: 5,
        asset: 'BTC',
        units: '0.1',
        date_acquired: null,
        date_sold: '2025-08-01',
        proceeds: '9000',
        cost_basis: null,
        term: null,
        reference: 'D',
      },
    ]);
    expect(res.body.unmatched_service).toEqual([
      {
        transaction_id: 's4',
        account_id: account.accountId,
        units: '1',
        date_acquired: '2025-01-01',
        date_sold: '2025-07-01',
        proceeds: '150.00',
        cost_basis: '200.00',
        term: 'short',
        lines: 1,
      },
    ]);
  });

  it('the tenant-wide reconciliation (identity or nothing) is the same here: one account', async () => {
    const byIdentity = await reconcile('tax_year=2025&identity=da-example/exchange', BROKER).expect(200);
    const tenant = await reconcile('tax_year=2025', BROKER).expect(200);
    expect(tenant.body.counts).toEqual(byIdentity.body.counts);
    expect(tenant.body.account_id).toBeNull();
  });

  it('bad lines are a 400 naming each line; nothing else is answered', async () => {
    const res = await reconcile(
      'tax_year=2025',
      [
        'asset,units,date_sold,proceeds',
        'BTC,1,2025-01-01,10',
        'BTC,-1,2025-13-01,10',
        'ETH,1,2025-01-01,x',
      ].join('\n'),
    ).expect(400);
    expect(res.body.errors).toMatchObject({
      'line 3': [expect.stringMatching(/^units/), expect.stringMatching(/^date_sold/)],
      'line 4': [expect.stringMatching(/^proceeds/)],
    });
    expect(res.body.detail ?? res.body.title).toBeDefined();
    const header = await reconcile('tax_year=2025', 'asset,units\nBTC,1\n').expect(400);
    expect(header.body.errors['line 1'][0]).toMatch(/date_sold, proceeds/);
  });

  it('parameter errors, media type, size, tenancy and authentication', async () => {
    expect(Object.keys((await reconcile('', BROKER).expect(400)).body.errors)).toContain('tax_year');
    expect(
      Object.keys((await reconcile('tax_year=2025&method=average', BROKER).expect(400)).body.errors),
    ).toContain('method');
    await t.http
      .post('/taip/form-1099-da/reconciliation?tax_year=2025')
      .set(bearer(partner))
      .send({ csv: BROKER })
      .expect(415);
    await reconcile('tax_year=2025', 'x'.repeat(5 * 1024 * 1024 + 1)).expect(413);
    await reconcile(`tax_year=2025&account_id=${account.accountId}`, BROKER, partnerB).expect(404);
    await t.http
      .post('/taip/form-1099-da/reconciliation?tax_year=2025')
      .set('Content-Type', 'text/csv')
      .send(BROKER)
      .expect(401);
  });

  // Issue 27 items 9 and 10: the answer is bounded. Each list holds at most `limit` items of the
  // whole outcome; the next page is the same file and parameters with the cursor.
  const RECONCILE = () => `tax_year=2025&account_id=${account.accountId}`;
  const references = (body: {
    matched: { broker: { reference: string } }[];
    different: { broker: { reference: string } }[];
    unmatched_broker: { reference: string }[];
    unmatched_service: { transaction_id: string }[];
  }) => [
    body.matched.map((p) => p.broker.reference),
    body.different.map((p) => p.broker.reference),
    body.unmatched_broker.map((b) => b.reference),
    body.unmatched_service.map((s) => s.transaction_id),
  ];

  it('pages the four lists together with limit and cursor; counts and totals cover the whole file', async () => {
    const first = await reconcile(`${RECONCILE()}&limit=1`, BROKER).expect(200);
    expect(first.body).toMatchObject({
      counts: { matched: 2, different: 1, unmatched_broker: 1, unmatched_service: 1 },
      broker_proceeds: '136250.00',
      service_proceeds: '127650.00',
    });
    expect(references(first.body)).toEqual([['A'], ['C'], ['D'], ['s4']]);
    expect(first.body.next_cursor).toEqual(expect.any(String));

    const cursor = encodeURIComponent(first.body.next_cursor);
    const second = await reconcile(`${RECONCILE()}&limit=1&cursor=${cursor}`, BROKER).expect(200);
    expect(references(second.body)).toEqual([['B'], [], [], []]);
    expect(second.body.counts).toEqual(first.body.counts);
    expect(second.body.next_cursor).toBeNull();

    // Without limit: 100 a list, and the whole of this small file fits.
    const all = await reconcile(RECONCILE(), BROKER).expect(200);
    expect(references(all.body)).toEqual([['A', 'B'], ['C'], ['D'], ['s4']]);
    expect(all.body.next_cursor).toBeNull();
  });

  it('a list longer than the default page of 100 is cut there, the rest follows by cursor', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `DOGE,1,,2025-09-01,1.00,,,X${i}`);
    const file = [BROKER.split('\n')[0], ...rows].join('\n');
    const first = await reconcile(RECONCILE(), file).expect(200);
    expect(first.body.counts.unmatched_broker).toBe(150);
    expect(first.body.unmatched_broker).toHaveLength(100);
    expect(first.body.unmatched_broker[99].reference).toBe('X99');
    const rest = await reconcile(
      `${RECONCILE()}&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      file,
    ).expect(200);
    expect(rest.body.unmatched_broker.map((b: { reference: string }) => b.reference)).toEqual(
      rows.slice(100).map((_, i) => `X${100 + i}`),
    );
    expect(rest.body.next_cursor).toBeNull();
  });

  it('limit and cursor errors are a 400 naming the field; a cursor belongs to its file, parameters and tenant', async () => {
    for (const limit of ['0', '1001', 'x', '1.5']) {
      const res = await reconcile(`${RECONCILE()}&limit=${limit}`, BROKER).expect(400);
      expect(Object.keys(res.body.errors)).toContain('limit');
    }
    const first = await reconcile(`${RECONCILE()}&limit=1`, BROKER).expect(200);
    const cursor = encodeURIComponent(first.body.next_cursor);
    const otherFile = await reconcile(`${RECONCILE()}&limit=1&cursor=${cursor}`, `${BROKER}\n`).expect(400);
    expect(otherFile.body.errors.cursor.join(' ')).toMatch(/another file or other parameters/);
    const otherMethod = await reconcile(`${RECONCILE()}&method=hifo&cursor=${cursor}`, BROKER).expect(400);
    expect(Object.keys(otherMethod.body.errors)).toEqual(['cursor']);
    const tampered = encodeURIComponent(`x${first.body.next_cursor}`);
    expect(
      Object.keys((await reconcile(`${RECONCILE()}&cursor=${tampered}`, BROKER).expect(400)).body.errors),
    ).toEqual(['cursor']);
    // Another tenant's cursor: 400 (and its account is a 404 before that).
    expect(
      Object.keys(
        (await reconcile(`tax_year=2025&limit=1&cursor=${cursor}`, BROKER, partnerB).expect(400)).body.errors,
      ),
    ).toEqual(['cursor']);
  });

  it('a history that changed between two pages is a 400 on the cursor: pages never mix two reconciliations', async () => {
    const first = await reconcile(`${RECONCILE()}&limit=1`, BROKER).expect(200);
    // The broker's line D (0.1 BTC on 2025-08-01 for 9,000) now has its sale on the service's side.
    const sale = sourceTx({
      transactionId: 's5',
      at: '2025-08-01T10:00:00Z',
      direction: 'sell',
      amount: '0.1',
      priceUsd: '90000',
    });
    await importCsv(t, admin, account.accountId, csvOf([...HISTORY, sale]), 'da-example').expect(200);
    const res = await reconcile(
      `${RECONCILE()}&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      BROKER,
    ).expect(400);
    expect(res.body.errors.cursor.join(' ')).toMatch(/changed since this cursor was issued/);
    expect(Object.keys(res.body.errors)).toEqual(['cursor']);
    const again = await reconcile(RECONCILE(), BROKER).expect(200);
    expect(again.body.counts).toEqual({
      matched: 3,
      different: 1,
      unmatched_broker: 0,
      unmatched_service: 1,
    });
  });
});
