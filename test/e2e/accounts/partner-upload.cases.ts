/**
 * Partners upload export files for their own clients (issue 30 item 5, docs/sources.md "Export
 * files"): a csv account linked over POST /v1/api/accounts, then files uploaded over POST
 * /v1/api/accounts/{id}/import as the body or a multipart form, with the admin route's formats,
 * limit, all-or-nothing rule, Idempotency-Key, audit entry and webhook events; envelope answers,
 * 400 naming the field, 404 across tenants, 409 for an account of another source, 413 over 20 MB.
 * On a tenant of its own (and a second one for the isolation case).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AuditService } from '../../../src/modules/audit/index.js';
import { bearer } from '../../factories/accounts.factory.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';

const fixture = (name: string) => readFileSync(join(process.cwd(), 'test', 'fixtures', 'exports', name));

/** A buy of 0.5 BTC at 40,000 with a 10 fee, and a sale of 0.2 at 50,000 with a 5 fee. */
const NATIVE_FILE = [
  'transactionId,timestamp,symbol,direction,amount,price,fee,transferId',
  'up-1,2024-01-02T03:04:05Z,BTC,buy,0.5,40000,10,',
  'up-2,2024-03-01T10:00:00Z,BTC,sell,0.2,50000,5,',
  '',
].join('\n');

type Problem = { reason?: string; errors: Record<string, string[]> };
const problem = (res: { body: { responseException: { exceptionMessage: Problem } } }) =>
  res.body.responseException.exceptionMessage;

describe('partners upload export files into csv accounts (e2e)', () => {
  let t: SuiteApp;
  let partner: string;
  let otherPartner: string;
  let admin: string;
  let n = 0;

  beforeAll(async () => {
    t = await startSuite({}, { tenant: 'upload' });
    partner = await t.token();
    const other = await t.newTenant('upload-b');
    otherPartner = await t.token(other.clientId, other.secret);
    admin = await t.token(t.admin.clientId, t.admin.secret);
  });
  afterAll(() => t.close());

  const linkCsv = async (platform = 'coinbase'): Promise<string> => {
    const res = await t.http
      .post('/v1/api/accounts')
      .set(bearer(partner))
      .send({ platform, source: 'csv', identity: `household-${++n}/${platform}-export` })
      .expect(202);
    return res.body.result.accountId as string;
  };
  const uploadBody = (accountId: string, text: string, token = partner) =>
    t.http
      .post(`/v1/api/accounts/${accountId}/import`)
      .set(bearer(token))
      .set('Content-Type', 'text/csv')
      .send(text);
  const uploadForm = (accountId: string, file: Buffer, format?: string) => {
    const req = t.http
      .post(`/v1/api/accounts/${accountId}/import`)
      .set(bearer(partner))
      .attach('file', file, { filename: 'export.csv', contentType: 'text/csv' });
    return format ? req.field('format', format) : req;
  };
  const balances = async (accountId: string) => {
    const res = await t.http.get(`/v1/api/account/${accountId}/balances`).set(bearer(partner)).expect(200);
    return Object.fromEntries(
      (res.body.result.balances as Record<string, string>[]).map((b) => [
        b.symbol,
        [b.balance, b.costBasis, b.realizedGainLoss],
      ]),
    );
  };
  const transactionCount = async (accountId: string) => {
    const res = await t.http
      .get(`/v1/api/account/${accountId}/transactions?limit=100`)
      .set(bearer(partner))
      .expect(200);
    return (res.body.result.transactions as unknown[]).length;
  };

  it('links a csv account for any platform without credentials: 202, syncing until its first file', async () => {
    const res = await t.http
      .post('/v1/api/accounts')
      .set(bearer(partner))
      .send({ platform: 'robinhood', source: 'csv', identity: 'household-0/robinhood-export' })
      .expect(202);
    expect(res.body.result).toMatchObject({
      platform: 'robinhood',
      identity: 'household-0/robinhood-export',
      syncStatus: 'syncing',
    });
    const refused = await t.http
      .post('/v1/api/accounts')
      .set(bearer(partner))
      .send({ platform: 'coinbase', source: 'csv', identity: 'x', credentials: { apiKey: 'k', secret: 's' } })
      .expect(400);
    expect(problem(refused).errors).toEqual({
      credentials: [
        'The csv source takes no credentials: its transactions arrive in uploaded files (POST /v1/api/accounts/{accountId}/import).',
      ],
    });
    const otherSource = await t.http
      .post('/v1/api/accounts')
      .set(bearer(partner))
      .send({ platform: 'kraken', source: 'sandbox', identity: 'y' })
      .expect(400);
    expect(Object.keys(problem(otherSource).errors)).toEqual(['source']);
  });

  it('offers one example body per way of linking in the document; the csv one links as shown', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const examples = doc.paths['/v1/api/accounts'].post.requestBody.content['application/json']
      .examples as Record<string, { value: Record<string, unknown> }>;
    expect(Object.keys(examples)).toEqual([
      'csv',
      'bitcoin-address',
      'bitcoin-xpub',
      'ethereum',
      'ethereum-base',
      'solana',
      'exchange',
    ]);
    // Partner bodies: the platform says the source; only the file-fed one names it; no chain.
    expect(
      Object.values(examples).map(({ value }) => [value.platform, value.source ?? null, 'chain' in value]),
    ).toEqual([
      ['coinbase', 'csv', false],
      ['bitcoin', null, false],
      ['bitcoin', null, false],
      ['ethereum', null, false],
      ['base', null, false],
      ['solana', null, false],
      ['kraken', null, false],
    ]);
    const res = await t.http
      .post('/v1/api/accounts')
      .set(bearer(partner))
      .send(examples.csv!.value)
      .expect(202);
    expect(res.body.result).toMatchObject({ platform: 'coinbase', identity: 'household-1001/csv' });
  });

  it('imports the body (text/csv) all at once, with the audit entry and the webhook events of the admin route', async () => {
    const accountId = await linkCsv();
    const res = await uploadBody(accountId, NATIVE_FILE).expect(200);
    expect(res.body.result).toEqual({
      accountId,
      rows: 2,
      inserted: 2,
      updated: 0,
      unchanged: 0,
      format: 'csv',
    });
    // Lot 0.5 BTC for 20,000 + 10 = 20,010. The sale of 0.2 takes 0.4 of it (8,004) for
    // 10,000 − 5 = 9,995: a gain of 1,991. Left: 0.3 BTC with 12,006 of basis.
    expect((await balances(accountId)).BTC).toEqual(['0.3', '12006.00', '1991.00']);
    const account = await t.http
      .get(`/v1/api/account/identity/${encodeURIComponent(`household-${n}/coinbase-export`)}`)
      .set(bearer(partner))
      .expect(200);
    expect(account.body.result.syncStatus).toBe('synced');

    const [entry] = await t.app.get(AuditService).list({ accountId, action: 'account.imported' }, 10);
    expect([entry.actorKind, entry.actorId, entry.tenantId, entry.targetId, entry.status]).toEqual([
      'client',
      t.tenant!.clientId,
      t.tenant!.id,
      accountId,
      200,
    ]);
    const events = (await t.app
      .get(DataSource)
      .query('SELECT type FROM outbox_event WHERE account_id = $1 ORDER BY seq', [accountId])) as {
      type: string;
    }[];
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['account.linked', 'account.synced', 'transactions.updated']),
    );
  });

  it('imports a multipart upload, the format told by the header row (a Coinbase export)', async () => {
    const accountId = await linkCsv();
    const res = await uploadForm(accountId, fixture('coinbase-2024.csv')).expect(200);
    expect(res.body.result).toEqual({
      accountId,
      rows: 3,
      inserted: 3,
      updated: 0,
      unchanged: 0,
      format: 'coinbase',
    });
    // 10 SOL for 1,029.90 (102.99 each); 0.05 SOL of staking income at 110 (5.50); 4 sold for
    // 760 − 5.70 = 754.30 against 4 × 102.99 = 411.96 (gain 342.34). Left 6 × 102.99 + 5.50.
    expect((await balances(accountId)).SOL).toEqual(['6.05', '623.44', '342.34']);
  });

  it('replays a retry with the same Idempotency-Key and file; the same key with another file is 422', async () => {
    const accountId = await linkCsv();
    const key = `upload-${process.pid}-${n}`;
    const first = await uploadBody(accountId, NATIVE_FILE).set('Idempotency-Key', key).expect(200);
    const retry = await uploadBody(accountId, NATIVE_FILE).set('Idempotency-Key', key).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.text).toBe(first.text);
    const other = await uploadBody(accountId, NATIVE_FILE.replace('0.2,50000', '0.1,50000'))
      .set('Idempotency-Key', key)
      .expect(422);
    expect(problem(other).reason).toBe('idempotency_key_reused');
    expect(await transactionCount(accountId)).toBe(2);
  });

  it('answers a header no layout takes with 400: the layouts tried and what each lacks, closest first; nothing stored', async () => {
    const accountId = await linkCsv();
    const res = await uploadForm(
      accountId,
      Buffer.from('Date,Asset,Quantity,Price\n2024-01-02,BTC,0.5,42000\n'),
    );
    expect(res.status).toBe(400);
    // Worked in test/services/account-linking.service.spec.ts; here: the same words over HTTP.
    expect(problem(res).errors).toEqual({
      csv: [
        "The header matches none of the layouts tried (Coinbase transaction history, Kraken ledgers, Kraken trades, Gemini transaction history, Bitstamp transactions, the service's CSV); what each lacks is listed by line, closest first. Nothing was imported.",
      ],
      'line 1': [
        'Not a Gemini transaction history export: missing columns "Time (UTC)", "Type", "Symbol", "Specification"',
        'Not a Coinbase transaction history export: missing columns "Timestamp", "Transaction Type", "Quantity Transacted", "Price at Transaction" (or "Spot Price at Transaction" or "USD Spot Price at Transaction"), "Fees and/or Spread" (or "Fees" or "USD Fees"), "Notes"',
        'Not a Kraken ledgers export: missing columns "txid", "refid", "time", "type", "amount", "fee"',
        'Not a Kraken trades export: missing columns "txid", "ordertxid", "pair", "time", "type", "cost", "fee", "vol"',
        'Not a Bitstamp transactions export: missing columns "Type", "Subtype", "Datetime", "Amount", "Amount currency", "Value", "Value currency", "Fee", "Fee currency"',
        `Not the service's CSV: missing columns "transactionId", "timestamp", "symbol", "direction", "amount"; unknown columns "Date", "Asset", "Quantity" (its columns: transactionId, timestamp, symbol, direction, amount, price, fee, transferId)`,
      ],
    });
    const unknownFormat = await uploadForm(accountId, fixture('gemini.csv'), 'mtgox').expect(400);
    expect(problem(unknownFormat).errors).toEqual({
      format: ['format must be one of csv, coinbase, kraken-ledgers, kraken-trades, gemini, bitstamp.'],
    });
    expect(await transactionCount(accountId)).toBe(0);
  });

  it("answers another tenant's account 404, as an unknown one", async () => {
    const accountId = await linkCsv();
    const theirs = await uploadBody(accountId, NATIVE_FILE, otherPartner).expect(404);
    const unknown = await uploadBody(
      '00000000-0000-4000-8000-000000000000',
      NATIVE_FILE,
      otherPartner,
    ).expect(404);
    const { traceId: _a, instance: _b, ...same } = problem(theirs) as Problem & Record<string, unknown>;
    expect(problem(unknown)).toMatchObject({ ...same, status: 404, detail: 'Account not found.' });
    expect(await transactionCount(accountId)).toBe(0);
  });

  it('answers 413 over 20 MB, and 409 for an account fed by another source', async () => {
    const accountId = await linkCsv();
    const big = await uploadForm(accountId, Buffer.alloc(20 * 1024 * 1024 + 1, 'a')).expect(413);
    expect(JSON.stringify(big.body)).toMatch(/exceeds 20971520 bytes \(20 MB\); split it into several files/);
    const sandbox = await t.http
      .post('/admin/accounts')
      .set(bearer(admin))
      .send({ tenant: t.tenant!.slug, platform: 'kraken', identity: 'household-9/kraken', source: 'sandbox' })
      .expect(201);
    const conflict = await uploadBody(sandbox.body.accountId as string, NATIVE_FILE).expect(409);
    expect(JSON.stringify(conflict.body)).toMatch(/only accounts with source \\"csv\\" take imports/);
  });
});
