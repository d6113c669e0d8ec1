/**
 * Tax reporting (e2e): GET /taip/gains-report and GET /taip/form-8949 on a tenant of its own
 * with a hand-worked history (docs/tax-report.md, "Worked example"). The arithmetic of every year
 * and method (the one-year boundary, partial lots, fees, a fee paid in BTC, FIFO vs HIFO, a
 * transfer that keeps the acquisition date, boxes C/F before 2025 and H/K/L from 2025) is pinned
 * to the cent in src/domain/tax/worked-example.spec.ts; here what only HTTP shows: one year's
 * report and form on the wire, narrowing by query, agreement with the balances endpoint and the
 * stored snapshot, the CSV attachment, readiness reasons, validation, 404s and tenant isolation.
 */
import { Decimal as GlobalDecimal } from 'decimal.js';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { BalanceSnapshotsRepository } from '../../../src/modules/ledger/testing.js';
import { sandboxAddress } from '../../../src/modules/sources/index.js';
import { ClientsService, TenantsService } from '../../../src/modules/tenancy/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  sandboxAccount,
  sourceTx,
  type CreatedAccount,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';
import { pdfPages, popplerAvailable } from '../../support/poppler.js';
import { formAmount } from '../../../src/domain/tax/index.js';

const escape = (text: string) => text.replace(/[().,]/g, (c) => `\\${c}`);

const Decimal = GlobalDecimal.clone({ precision: 1_000 });
const START = new Date('2026-03-15T12:00:00.000Z');

/** The exchange account A of the worked example (docs/tax-report.md). */
const EXCHANGE = [
  sourceTx({
    transactionId: 'a1',
    at: '2022-03-01T15:00:00Z',
    direction: 'buy',
    amount: '1',
    priceUsd: '40000',
    feeUsd: '10',
  }),
  sourceTx({
    transactionId: 'a2',
    at: '2022-09-15T15:00:00Z',
    direction: 'buy',
    amount: '2',
    priceUsd: '20000',
    feeUsd: '20',
  }),
  sourceTx({
    transactionId: 'a3',
    at: '2023-03-01T15:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '25000',
    feeUsd: '5',
  }),
  sourceTx({
    transactionId: 'a4',
    at: '2023-03-02T15:00:00Z',
    direction: 'sell',
    amount: '0.25',
    priceUsd: '24000',
  }),
  sourceTx({
    transactionId: 'a5',
    at: '2023-06-01T12:00:00Z',
    direction: 'transfer_out',
    amount: '1',
    priceUsd: null,
    transferId: 'T1',
  }),
  sourceTx({
    transactionId: 'e1',
    at: '2024-02-01T10:00:00Z',
    direction: 'buy',
    symbol: 'ETH',
    amount: '10',
    priceUsd: '2000',
  }),
  sourceTx({
    transactionId: 'a7',
    at: '2024-03-01T10:00:00Z',
    direction: 'buy',
    amount: '0.5',
    priceUsd: '70000',
  }),
  sourceTx({
    transactionId: 'a6',
    at: '2024-05-01T10:00:00Z',
    direction: 'sell',
    amount: '1',
    priceUsd: '60000',
    feeUsd: '30',
  }),
  sourceTx({
    transactionId: 'e2',
    at: '2024-12-31T23:59:59Z',
    direction: 'sell',
    symbol: 'ETH',
    amount: '4',
    priceUsd: '3000',
    feeUsd: '12',
  }),
  sourceTx({
    transactionId: 's1',
    at: '2025-01-15T10:00:00Z',
    direction: 'buy',
    symbol: 'SOL',
    amount: '10',
    priceUsd: '200',
  }),
  sourceTx({
    transactionId: 'a8',
    at: '2025-02-01T10:00:00Z',
    direction: 'sell',
    amount: '0.1',
    priceUsd: '100000',
  }),
  sourceTx({
    transactionId: 's2',
    at: '2025-07-01T10:00:00Z',
    direction: 'sell',
    symbol: 'SOL',
    amount: '10',
    priceUsd: '150',
    feeUsd: '1',
  }),
];

/** The own bitcoin wallet W: receives a5 minus a 0.0005 BTC network fee. */
const WALLET = [
  sourceTx({
    transactionId: 'w1',
    at: '2023-06-01T12:00:00Z',
    direction: 'transfer_in',
    amount: '0.9995',
    priceUsd: null,
    transferId: 'T1',
  }),
  sourceTx({
    transactionId: 'w2',
    at: '2024-01-10T10:00:00Z',
    direction: 'sell',
    amount: '0.5',
    priceUsd: '45000',
  }),
  sourceTx({
    transactionId: 'w3',
    at: '2024-02-01T10:00:00Z',
    direction: 'fee',
    amount: '0.0001',
    priceUsd: '42000',
  }),
  sourceTx({
    transactionId: 'w4',
    at: '2025-03-01T10:00:00Z',
    direction: 'sell',
    amount: '0.1',
    priceUsd: '90000',
  }),
];

interface Line {
  part: string;
  box: string;
  term: string;
  description: string;
  date_acquired: string | null;
  date_sold: string;
  proceeds: string;
  cost_basis: string;
  gain: string;
  transaction_id: string;
  needs_review: boolean;
  review_reason: string | null;
}

const pick = (line: Line) => [
  line.box,
  line.description,
  line.date_acquired,
  line.date_sold,
  line.proceeds,
  line.cost_basis,
  line.gain,
  line.transaction_id,
];

/** A minimal RFC 4180 reader for the assertions (quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

describe('tax reporting (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let sandboxPartner: string;
  let sandboxAdmin: string;
  let partnerB: string;
  let exchange: CreatedAccount;
  let wallet: CreatedAccount;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START) });
    [sandboxPartner, sandboxAdmin, partnerB] = await Promise.all([
      t.token(),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
    ]);
    // A tenant of its own, so the tenant-wide report holds nothing but the worked example.
    await t.app.get(TenantsService).createTenant('tax-example', 'Tax worked example');
    const client = await t.app.get(ClientsService).createClient('tax-example', ['partner']);
    partner = await t.token(client.clientId, client.clientSecret);
    exchange = await createAccount(t, sandboxAdmin, {
      tenant: 'tax-example',
      platform: 'coinbase',
      identity: 'tax-example/exchange',
      source: 'csv',
    });
    wallet = await createAccount(t, sandboxAdmin, {
      tenant: 'tax-example',
      platform: 'bitcoin',
      identity: 'tax-example/cold-wallet',
      source: 'csv',
      chain: 'bitcoin',
      address: sandboxAddress('bitcoin', 'tax-example/cold-wallet'),
    });
    await importCsv(t, sandboxAdmin, exchange.accountId, csvOf(EXCHANGE), 'tax-example').expect(200);
    await importCsv(t, sandboxAdmin, wallet.accountId, csvOf(WALLET), 'tax-example').expect(200);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const report = (query: string, token = partner) => get(`/taip/gains-report?${query}`, token);
  const form = (query: string, token = partner) => get(`/taip/form-8949?${query}`, token);

  describe('GET /taip/gains-report: the worked example, to the cent', () => {
    // The worked example's arithmetic for every year and method (the anniversary, HIFO, boxes
    // H/K/L) is pinned on the domain: src/domain/tax/worked-example.spec.ts. Here: one year over
    // HTTP, its wire shape (dollar strings, exact figures, per-asset rows).
    it('2024 FIFO: the transfer keeps the 2022 acquisition dates (long-term), a BTC-paid fee is a disposal, lines round to cents', async () => {
      const res = await report('tax_year=2024').expect(200);
      expect(res.body).toMatchObject({
        asset: 'ALL',
        net_gains: '$51,455.19',
        transactions: 4,
        form_8949: 'ready',
        short_term: '$3,988.00',
        long_term: '$47,467.19',
        short_term_totals: { lines: 1, proceeds: '$11,988.00', cost_basis: '$8,000.00', gains: '$3,988.00' },
        long_term_totals: { lines: 4, proceeds: '$82,474.20', cost_basis: '$35,007.01', gains: '$47,467.19' },
        // Unrounded, the lines' half cents add up to 51,455.199: the exact figure balances agree with.
        exact: {
          net_gains_usd: '51455.199',
          short_term_usd: '3988',
          long_term_usd: '47467.199',
          proceeds_usd: '94462.2',
          cost_basis_usd: '43007.001',
        },
        ordinary_income: '$0.00',
      });
      expect(res.body.assets).toEqual([
        {
          asset: 'BTC',
          transactions: 3,
          net_gains: '$47,467.19',
          short_term: '$0.00',
          long_term: '$47,467.19',
          proceeds: '$82,474.20',
          cost_basis: '$35,007.01',
        },
        {
          asset: 'ETH',
          transactions: 1,
          net_gains: '$3,988.00',
          short_term: '$3,988.00',
          long_term: '$0.00',
          proceeds: '$11,988.00',
          cost_basis: '$8,000.00',
        },
      ]);
    });

    it('narrows to one account by account_id or identity, and to one asset', async () => {
      const byId = await report(`tax_year=2024&account_id=${wallet.accountId.toUpperCase()}`).expect(200);
      expect(byId.body).toMatchObject({
        net_gains: '$7,507.19',
        transactions: 2,
        short_term: '$0.00',
        long_term: '$7,507.19',
        account_id: wallet.accountId,
        accounts: 1,
        exact: { net_gains_usd: '7507.199' },
      });
      const byIdentity = await report('tax_year=2024&identity=tax-example%2Fcold-wallet').expect(200);
      expect(byIdentity.body).toEqual(byId.body);
      const eth = await report('tax_year=2024&asset=eth').expect(200);
      expect(eth.body).toMatchObject({ asset: 'ETH', net_gains: '$3,988.00', transactions: 1 });
      const none = await report('tax_year=2022').expect(200);
      expect(none.body).toMatchObject({
        net_gains: '$0.00',
        transactions: 0,
        form_8949: 'ready',
        assets: [],
      });
    });

    it('agrees with the balances: each account’s gains summed over the years equal its realizedGainLoss', async () => {
      for (const [account, exact, cents] of [
        [exchange, '39933.5', '39933.50'],
        [wallet, '14506.199', '14506.20'],
      ] as const) {
        let sum = new Decimal(0);
        for (let year = 2022; year <= 2026; year++) {
          const res = await report(`tax_year=${year}&account_id=${account.accountId}`).expect(200);
          sum = sum.plus(res.body.exact.net_gains_usd);
        }
        expect(sum.toFixed()).toBe(exact);
        // The balances endpoint rounds at its edge; its snapshot holds the engine's exact figure.
        const balances = await get(`/v1/api/account/${account.accountId}/balances`).expect(200);
        expect(balances.body.result.realizedGainLoss).toBe(cents);
        const tenantId = (await t.app.get(TenantsService).list()).find((x) => x.slug === 'tax-example')!.id;
        const snapshot = await t.app.get(BalanceSnapshotsRepository).find(tenantId, account.accountId);
        expect(snapshot?.realizedGainUsd).toBe(exact);
      }
    });
  });

  describe('GET /taip/form-8949', () => {
    it('2024 JSON: lines in form order with boxes C and F, totals per box and part', async () => {
      const res = await form('tax_year=2024').expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toMatchObject({
        tax_year: 2024,
        asset: 'ALL',
        method: 'fifo',
        account_id: null,
        form_8949: 'ready',
      });
      expect(res.body.box_assumption).toMatch(/box C .* F/);
      expect(res.body.lines.map(pick)).toEqual([
        ['C', '4 ETH', '2024-02-01', '2024-12-31', '11988.00', '8000.00', '3988.00', 'e2'],
        ['F', '0.2495 BTC', '2022-03-01', '2024-01-10', '11227.50', '9982.50', '1245.00', 'w2'],
        ['F', '0.2505 BTC', '2022-09-15', '2024-01-10', '11272.50', '5012.51', '6259.99', 'w2'],
        ['F', '0.0001 BTC', '2022-09-15', '2024-02-01', '4.20', '2.00', '2.20', 'w3'],
        ['F', '1 BTC', '2022-09-15', '2024-05-01', '59970.00', '20010.00', '39960.00', 'a6'],
      ]);
      expect(res.body.lines[0]).toMatchObject({
        part: 'I',
        term: 'short',
        asset: 'ETH',
        quantity: '4',
        account_id: exchange.accountId,
      });
      expect(res.body.lines.every((line: Line) => !line.needs_review && line.review_reason === null)).toBe(
        true,
      );
      expect(res.body.totals).toEqual([
        {
          part: 'I',
          term: 'short',
          box: 'C',
          lines: 1,
          proceeds: '11988.00',
          cost_basis: '8000.00',
          gain: '3988.00',
        },
        {
          part: 'II',
          term: 'long',
          box: 'F',
          lines: 4,
          proceeds: '82474.20',
          cost_basis: '35007.01',
          gain: '47467.19',
        },
      ]);
      expect(res.body.part_i_totals).toEqual({
        part: 'I',
        term: 'short',
        lines: 1,
        proceeds: '11988.00',
        cost_basis: '8000.00',
        gain: '3988.00',
      });
      expect(res.body.part_ii_totals).toMatchObject({ part: 'II', lines: 4, gain: '47467.19' });
    });

    it('CSV: an RFC 4180 attachment whose columns sum to the gains report’s totals', async () => {
      // One year with losses, one with gains; each year's and method's lines are the domain's
      // (src/domain/tax/worked-example.spec.ts).
      for (const [year, method] of [
        [2023, 'fifo'],
        [2024, 'fifo'],
      ] as const) {
        const res = await form(`tax_year=${year}&method=${method}&format=csv`).expect(200);
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(res.headers['content-disposition']).toBe(`attachment; filename="form-8949-${year}.csv"`);
        const text = res.text;
        expect(text.endsWith('\r\n')).toBe(true);
        const [header, ...rows] = parseCsv(text);
        expect(header.slice(0, 10)).toEqual([
          'Part',
          'Box',
          '(a) Description of property',
          '(b) Date acquired',
          '(c) Date sold or disposed of',
          '(d) Proceeds',
          '(e) Cost or other basis',
          '(f) Adjustment code',
          '(g) Amount of adjustment',
          '(h) Gain or (loss)',
        ]);
        expect(rows.every((row) => row.length === header.length)).toBe(true);
        const column = (name: string) =>
          rows.reduce((sum, row) => sum.plus(row[header.indexOf(name)]), new Decimal(0));
        const gains = await report(`tax_year=${year}&method=${method}`).expect(200);
        const money = (text: string) => new Decimal(text.replace(/[$,]/g, ''));
        expect(column('(h) Gain or (loss)').eq(money(gains.body.net_gains))).toBe(true);
        expect(
          column('(d) Proceeds').eq(
            money(gains.body.short_term_totals.proceeds).plus(money(gains.body.long_term_totals.proceeds)),
          ),
        ).toBe(true);
        expect(
          column('(e) Cost or other basis').eq(
            money(gains.body.short_term_totals.cost_basis).plus(
              money(gains.body.long_term_totals.cost_basis),
            ),
          ),
        ).toBe(true);
        const shortRows = rows.filter((row) => row[0] === 'I');
        expect(
          shortRows.reduce((sum, row) => sum.plus(row[9]), new Decimal(0)).eq(money(gains.body.short_term)),
        ).toBe(true);
        expect(rows.length).toBe(gains.body.short_term_totals.lines + gains.body.long_term_totals.lines);
      }
    });

    it('names the CSV after the asset and account when narrowed', async () => {
      const res = await form(`tax_year=2024&format=csv&asset=BTC&account_id=${wallet.accountId}`).expect(200);
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="form-8949-2024-btc-${wallet.accountId.slice(0, 8)}.csv"`,
      );
    });
  });

  describe('GET /taip/form-8949?format=pdf', () => {
    it('answers the form as a PDF attachment whose summary page has the JSON report’s box and part totals', async () => {
      const json = await form('tax_year=2024&method=fifo').expect(200);
      const res = await form('tax_year=2024&method=fifo&format=pdf')
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe('attachment; filename="form-8949-2024.pdf"');
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(Number(res.headers['content-length'])).toBe(pdf.length);
      if (!popplerAvailable()) return; // CI's PDF step runs this file's PDF checks with poppler.
      const [summary] = pdfPages(pdf);
      const amount = (cents: string) => formAmount(new Decimal(cents));
      expect(json.body.totals.length).toBeGreaterThan(0);
      for (const box of json.body.totals as {
        part: string;
        box: string;
        lines: number;
        proceeds: string;
        cost_basis: string;
        gain: string;
      }[]) {
        expect(summary).toMatch(
          new RegExp(
            `${box.part}\\s+${box.box}\\s+${box.lines}\\s+${escape(amount(box.proceeds))}\\s+${escape(amount(box.cost_basis))}\\s+${escape(amount(box.gain))}`,
          ),
        );
      }
      expect(summary).toContain(`Part II total (long-term)`);
    });

    it('refuses an unknown format, naming it', async () => {
      const res = await form('tax_year=2024&format=xlsx').expect(400);
      expect(JSON.stringify(res.body)).toContain('format must be json, csv or pdf.');
    });
  });

  describe('readiness', () => {
    let review: CreatedAccount;

    beforeAll(async () => {
      // In the sandbox tenant: a deposit of unknown basis, then a sale larger than the holdings.
      review = await createAccount(t, sandboxAdmin, { platform: 'kraken', source: 'csv' });
      await importCsv(
        t,
        sandboxAdmin,
        review.accountId,
        csvOf([
          sourceTx({
            transactionId: 'd1',
            at: '2024-01-05T10:00:00Z',
            direction: 'deposit',
            symbol: 'ETH',
            amount: '1',
            priceUsd: null,
          }),
          sourceTx({
            transactionId: 'x1',
            at: '2024-06-01T10:00:00Z',
            direction: 'sell',
            symbol: 'ETH',
            amount: '0.4',
            priceUsd: '3500',
          }),
          sourceTx({
            transactionId: 'x2',
            at: '2024-07-01T10:00:00Z',
            direction: 'sell',
            symbol: 'ETH',
            amount: '1',
            priceUsd: '3000',
          }),
        ]),
      ).expect(200);
    });

    it('flags unknown basis and disposals not covered by holdings, never a silent zero basis', async () => {
      const res = await report(`tax_year=2024&account_id=${review.accountId}`, sandboxPartner).expect(200);
      expect(res.body).toMatchObject({ form_8949: 'needs_review', transactions: 2, net_gains: '$4,400.00' });
      expect(
        res.body.form_8949_reasons.map((r: { code: string; count: number }) => [r.code, r.count]),
      ).toEqual([
        ['unknown_basis', 2],
        ['uncovered_disposal', 1],
      ]);
      const lines = (await form(`tax_year=2024&account_id=${review.accountId}`, sandboxPartner).expect(200))
        .body.lines;
      expect(
        lines.map((l: Line) => [l.description, l.date_acquired, l.cost_basis, l.gain, l.review_reason]),
      ).toEqual([
        ['0.4 ETH', '2024-01-05', '0.00', '1400.00', 'unknown_basis'],
        ['0.6 ETH', '2024-01-05', '0.00', '1800.00', 'unknown_basis'],
        ['0.4 ETH', null, '0.00', '1200.00', 'uncovered_disposal'],
      ]);
      expect(lines.every((l: Line) => l.needs_review)).toBe(true);
    });

    it('flags a later year whose lots come after a shortfall', async () => {
      const res = await report(`tax_year=2025&account_id=${review.accountId}`, sandboxPartner).expect(200);
      expect(res.body.form_8949).toBe('needs_review');
      expect(res.body.form_8949_reasons.map((r: { code: string }) => r.code)).toEqual([
        'inconsistent_history',
      ]);
    });

    it('flags accounts that are not synced', async () => {
      const syncing = sandboxAccount('sandbox', 'binanceus-new');
      const res = await report(`tax_year=2025&account_id=${syncing.accountId}`, sandboxPartner).expect(200);
      expect(res.body.form_8949_reasons).toEqual([
        expect.objectContaining({
          code: 'account_not_synced',
          count: 1,
          message: expect.stringContaining('syncing'),
        }),
      ]);
    });
  });

  describe('errors', () => {
    const problem = (res: {
      headers: Record<string, string>;
      body: { errors?: Record<string, string[]> };
    }) => {
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      return res.body;
    };

    it.each([
      ['', 'tax_year', /required/],
      ['tax_year=24', 'tax_year', /four-digit/],
      ['tax_year=2024.0', 'tax_year', /four-digit/],
      ['tax_year=2024&tax_year=2025', 'tax_year', /four-digit/],
      ['tax_year=2008', 'tax_year', /from 2009 to 2026/],
      ['tax_year=2027', 'tax_year', /from 2009 to 2026/],
      ['tax_year=2024&account_id=not-a-uuid', 'account_id', /UUID/],
      ['tax_year=2024&method=average', 'method', /fifo, hifo, lifo, lofo, ltfo/],
      ['tax_year=2024&asset=B-T', 'asset', /ticker/],
      ['tax_year=2024&colour=red', 'colour', /should not exist/],
    ])('GET /taip/gains-report?%s → 400 naming %s', async (query, field, message) => {
      const body = problem(await report(query).expect(400));
      expect(body.errors?.[field]?.join(' ')).toMatch(message);
    });

    it('400 when both account_id and identity are given; 400 for a bad format on the form', async () => {
      const both = await report(`tax_year=2024&account_id=${wallet.accountId}&identity=x`).expect(400);
      expect(problem(both).errors).toEqual({ identity: ['Give account_id or identity, not both.'] });
      const format = await form('tax_year=2024&format=xml').expect(400);
      expect(problem(format).errors?.format).toEqual(['format must be json or csv.']);
    });

    it('404 alike for an unknown account and for another tenant’s account or identity', async () => {
      const foreign = sandboxAccount('sandbox-b', 'coinbase-main');
      const strip = (body: Record<string, unknown>) => ({ ...body, traceId: undefined, instance: undefined });
      const unknown = await report('tax_year=2024&account_id=00000000-0000-4000-8000-000000000000').expect(
        404,
      );
      const other = await report(`tax_year=2024&account_id=${foreign.accountId}`).expect(404);
      expect(strip(other.body)).toEqual(strip(unknown.body));
      await form(`tax_year=2024&account_id=${foreign.accountId}`).expect(404);
      await report(`tax_year=2024&identity=${encodeURIComponent(foreign.identity)}`, sandboxPartner).expect(
        404,
      );
      // Tenant B cannot see the worked example's accounts either.
      await report(`tax_year=2024&account_id=${exchange.accountId}`, partnerB).expect(404);
      const own = await report(`tax_year=2024&account_id=${foreign.accountId}`, partnerB).expect(200);
      expect(own.body.account_id).toBe(foreign.accountId);
    });

    it('401 without a bearer token', async () => {
      await t.http.get('/taip/gains-report?tax_year=2024').expect(401);
      await t.http.get('/taip/form-8949?tax_year=2024').expect(401);
    });
  });
});
