/**
 * The admin API for accounts (/admin/accounts, admin scope): link for a tenant with encrypted
 * credentials, list with state, refresh, CSV import (all rows or none, errors by line), delete
 * with the account's data. Partner tokens get 403.
 */
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { CredentialsCipher } from '../../../src/modules/sources/index.js';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  simpleHistory,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { SANDBOX } from '../../support/test-app.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';

describe('admin accounts (e2e)', () => {
  let t: SuiteApp;
  let admin: string;
  let partner: string;
  let partnerB: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')) });
    [admin, partner, partnerB] = await Promise.all([
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
      t.token(),
      t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret),
    ]);
  });
  afterAll(() => t.close());

  const rowCount = async (sql: string, params: unknown[]) =>
    Number((await t.app.get(DataSource).query(sql, params))[0].n);

  it('is for the admin scope only: partner tokens get 403, no token 401', async () => {
    await t.http.get('/admin/accounts').set(bearer(partner)).expect(403);
    await t.http.post('/admin/accounts').set(bearer(partner)).send({}).expect(403);
    const res = await t.http.get('/admin/accounts').expect(401);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  describe('POST /admin/accounts', () => {
    it('links an account for a tenant; credentials are encrypted at rest and never returned', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({
          tenant: 'sandbox-b',
          platform: 'coinbase',
          identity: 'b-household-9/coinbase',
          source: 'sandbox',
          credentials: { apiKey: 'key-123', apiSecret: 'very-secret-value' },
        })
        .expect(201);
      expect(res.body).toMatchObject({
        tenant: 'sandbox-b',
        platform: 'coinbase',
        identity: 'b-household-9/coinbase',
        source: 'sandbox',
        syncStatus: 'syncing',
        connectionStatus: 'connected',
        balanceSource: 'calculated',
        lastSyncedAt: null,
        hasCredentials: true,
        address: null,
        chain: null,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/very-secret-value|key-123/);
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT credentials_encrypted FROM account WHERE id = $1', [res.body.accountId]);
      expect(row.credentials_encrypted).toMatch(/^v1\./);
      expect(row.credentials_encrypted).not.toMatch(/very-secret-value/);
      const cipher = t.app.get(CredentialsCipher);
      expect(await cipher.decrypt(res.body.accountId, row.credentials_encrypted)).toEqual({
        apiKey: 'key-123',
        apiSecret: 'very-secret-value',
      });
      // Bound to its account: the same ciphertext does not decrypt for another one.
      await expect(
        cipher.decrypt('00000000-0000-4000-8000-000000000000', row.credentials_encrypted),
      ).rejects.toThrow();

      // Tenant B's partner sees it; tenant A's partner gets 404.
      await t.http
        .get(`/v1/api/account/${res.body.accountId}/transactions`)
        .set(bearer(partnerB))
        .expect(200);
      await t.http.get(`/v1/api/account/${res.body.accountId}/transactions`).set(bearer(partner)).expect(404);

      // Refresh now: the synthetic source fills it.
      const refresh = await t.http
        .post(`/admin/accounts/${res.body.accountId}/refresh?tenant=sandbox-b`)
        .set(bearer(admin))
        .expect(200);
      expect(refresh.body).toMatchObject({
        status: 'refreshed',
        account: { syncStatus: 'synced', balanceSource: 'source_reported' },
      });
      expect(refresh.body.inserted).toBeGreaterThan(100);
    });

    it('takes on-chain accounts with address and chain', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({
          tenant: 'sandbox',
          platform: 'ethereum',
          identity: 'hh-3/eth',
          source: 'csv',
          chain: 'ethereum',
          address: '0x52908400098527886E0F7030069857D2E4169EE7',
        })
        .expect(201);
      expect(res.body).toMatchObject({ tenant: 'sandbox', chain: 'ethereum', hasCredentials: false });
      await t.http.get(`/v1/api/account/identity/hh-3%2Feth`).set(bearer(partner)).expect(200);
    });

    it.each([
      [{ platform: 'coinbase', identity: 'x1', source: 'ftp' }, 'source'],
      [{ platform: 'Coin Base', identity: 'x2', source: 'csv' }, 'platform'],
      [{ platform: 'coinbase', source: 'csv' }, 'identity'],
      [
        {
          platform: 'bitcoin',
          identity: 'x3',
          source: 'csv',
          address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
        },
        'chain',
      ],
      [
        { platform: 'ethereum', identity: 'x4', source: 'csv', chain: 'ethereum', address: '0x123' },
        'address',
      ],
      [{ platform: 'coinbase', identity: 'x5', source: 'csv', collectionId: 'abc' }, 'collectionId'],
      [{ platform: 'coinbase', identity: 'x6', source: 'csv', tenant: 'nobody' }, 'tenant'],
      [{ platform: 'coinbase', identity: 'x7', source: 'csv', credentials: { apiKey: 5 } }, 'credentials'],
      [{ platform: 'coinbase', identity: 'x8', source: 'csv', sandboxProfile: 'normal' }, 'sandboxProfile'],
      [{ platform: 'coinbase', identity: 'x9', source: 'csv', extra: true }, 'extra'],
    ])('rejects %j with 400 naming %s', async (body, field) => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'sandbox', ...body })
        .expect(400);
      expect(res.body.errors).toHaveProperty([field]);
    });

    it('answers a taken identity or collection with 409', async () => {
      const first = await createAccount(t, admin, { identity: 'dup-identity' });
      const dup = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: 'sandbox', platform: 'kraken', identity: 'dup-identity', source: 'csv' })
        .expect(409);
      expect(dup.body.errors).toHaveProperty(['identity']);
      const dupCollection = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({
          tenant: 'sandbox',
          platform: 'kraken',
          identity: 'other',
          source: 'csv',
          collectionId: first.collectionId,
        })
        .expect(409);
      expect(dupCollection.body.errors).toHaveProperty(['collectionId']);
    });

    it('documents one request per way of linking, each of which succeeds as shown (Swagger UI: Try it out)', async () => {
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      const content = doc.paths['/admin/accounts'].post.requestBody.content['application/json'];
      const examples = content.examples as Record<
        string,
        { summary: string; value: Record<string, unknown> }
      >;
      expect(Object.keys(examples)).toEqual([
        'sandbox',
        'csv',
        'bitcoin-address',
        'bitcoin-xpub',
        'ethereum',
        'ethereum-base',
        'solana',
        'exchange',
      ]);
      // In a tenant of this test's own: the examples name the sandbox's (`sandbox`), which exists.
      const own = await t.newTenant('link-examples');
      for (const [name, { summary, value }] of Object.entries(examples)) {
        expect([name, value.tenant, summary.length > 10]).toEqual([name, 'sandbox', true]);
        // Exactly one way of naming what is watched: never address and xpub, or credentials with either.
        const ways = ['address', 'xpub', 'credentials'].filter((field) => field in value);
        expect([name, ways.length <= 1]).toEqual([name, true]);
        const res = await t.http
          .post('/admin/accounts')
          .set(bearer(admin))
          .send({ ...value, tenant: own.slug });
        if (value.source === 'exchange') {
          // The keys are checked with the exchange before the account is linked: placeholders are
          // refused there (an admin puts the client's read-only keys in). Here no exchange is
          // reachable: the body passed every check of its own (no field named), then 503.
          expect([name, res.status, res.body.errors]).toEqual([name, 503, undefined]);
          expect(res.body.detail).toMatch(
            /could not be reached to check the credentials; nothing was stored/,
          );
          continue;
        }
        expect([name, res.status, res.body.errors]).toEqual([name, 201, undefined]);
        expect(res.body).toMatchObject({
          source: value.source,
          platform: value.platform,
          syncStatus: 'syncing',
        });
      }
    });
  });

  describe('GET /admin/accounts', () => {
    it('lists accounts with their state, per tenant or across tenants, with paging', async () => {
      const sandboxOnly = await t.http
        .get('/admin/accounts?tenant=sandbox&limit=200')
        .set(bearer(admin))
        .expect(200);
      expect(sandboxOnly.body.accounts.every((a: { tenant: string }) => a.tenant === 'sandbox')).toBe(true);
      expect(sandboxOnly.body.accounts[0]).toMatchObject({
        identity: 'sandbox:coinbase-main',
        source: 'sandbox',
        hasCredentials: true,
      });
      expect(
        sandboxOnly.body.accounts.find((a: { identity: string }) => a.identity === 'sandbox:okx-outage')
          .lastError,
      ).toMatch(/outage/);
      const first = await t.http.get('/admin/accounts?limit=10').set(bearer(admin)).expect(200);
      expect(first.body.accounts).toHaveLength(10);
      const next = await t.http
        .get(`/admin/accounts?limit=10&cursor=${encodeURIComponent(first.body.nextCursor)}`)
        .set(bearer(admin))
        .expect(200);
      expect(next.body.accounts[0].accountId).not.toBe(first.body.accounts[0].accountId);
      const tenants = new Set(
        [...first.body.accounts, ...next.body.accounts].map((a: { tenant: string }) => a.tenant),
      );
      expect(tenants.has('sandbox')).toBe(true);
      await t.http.get('/admin/accounts?tenant=NOPE').set(bearer(admin)).expect(400);
      await t.http.get('/admin/accounts?tenant=nope').set(bearer(admin)).expect(400);
    });

    it('filters by sync state and counts the accounts in every state (issue 17 item 4)', async () => {
      const all = await t.http.get('/admin/accounts?tenant=sandbox&limit=200').set(bearer(admin)).expect(200);
      const states = ['syncing', 'synced', 'reconnect_required', 'error'];
      const byState = Object.fromEntries(states.map((state) => [state, 0]));
      for (const account of all.body.accounts as { syncStatus: string }[]) byState[account.syncStatus] += 1;
      expect(all.body.counts).toEqual(byState);
      expect(byState.error).toBeGreaterThanOrEqual(1); // the sandbox's simulated outage
      for (const state of states) {
        const filtered = await t.http
          .get(`/admin/accounts?tenant=sandbox&limit=200&syncStatus=${state}`)
          .set(bearer(admin))
          .expect(200);
        expect(filtered.body.accounts).toHaveLength(byState[state]);
        expect(filtered.body.accounts.every((a: { syncStatus: string }) => a.syncStatus === state)).toBe(
          true,
        );
        expect(filtered.body.counts).toEqual(byState); // counts cover every state, whatever the filter
      }
      const errors = await t.http.get('/admin/accounts?tenant=sandbox&syncStatus=error').set(bearer(admin));
      expect(errors.body.accounts.map((a: { identity: string }) => a.identity)).toContain(
        'sandbox:okx-outage',
      );
      // Across tenants the counts add up the tenants' counts.
      const everywhere = await t.http.get('/admin/accounts?limit=1').set(bearer(admin)).expect(200);
      const sandboxB = await t.http
        .get('/admin/accounts?tenant=sandbox-b&limit=1')
        .set(bearer(admin))
        .expect(200);
      for (const state of states) {
        expect(everywhere.body.counts[state]).toBeGreaterThanOrEqual(
          byState[state] + sandboxB.body.counts[state],
        );
      }
      const bad = await t.http.get('/admin/accounts?syncStatus=broken').set(bearer(admin)).expect(400);
      expect(bad.body.errors).toEqual({
        syncStatus: ['syncStatus must be one of syncing, synced, reconnect_required, error.'],
      });
      // A cursor belongs to its filter: the unfiltered listing's cursor is refused with syncStatus.
      const page = await t.http.get('/admin/accounts?limit=2').set(bearer(admin)).expect(200);
      const mixed = await t.http
        .get(`/admin/accounts?limit=2&syncStatus=synced&cursor=${encodeURIComponent(page.body.nextCursor)}`)
        .set(bearer(admin));
      expect(mixed.status).toBe(400);
      expect(mixed.body.errors).toHaveProperty(['cursor']);
    });

    it('answers an unknown account with 404 and a non-UUID with 400', async () => {
      await t.http
        .get('/admin/accounts/00000000-0000-4000-8000-000000000000?tenant=sandbox')
        .set(bearer(admin))
        .expect(404);
      const bad = await t.http
        .post('/admin/accounts/xyz/refresh?tenant=sandbox')
        .set(bearer(admin))
        .expect(400);
      expect(bad.body.errors).toHaveProperty(['accountId']);
    });
  });

  describe('POST /admin/accounts/{id}/import', () => {
    it('imports nothing when any row is bad and names every bad line', async () => {
      const { accountId } = await createAccount(t, admin, {});
      const csv = [
        'transactionId,timestamp,symbol,direction,amount,price,fee,transferId',
        'ok-1,2024-01-02T03:04:05Z,BTC,buy,0.5,42000,10,',
        'bad-1,2024-01-02,BTC,buy,0.5,42000,,',
        'bad-2,2024-01-03T00:00:00Z,BTC,sell,-1,42000,,',
        'bad-3,2024-01-03T00:00:00Z,BTC,buy,1,,,',
        '"multi',
        'line",2024-01-03T00:00:00Z,BTC,deposit,1,,,',
        'ok-1,2024-01-04T00:00:00Z,ETH,buy,1,2000,,',
        'short,row',
      ].join('\n');
      const res = await importCsv(t, admin, accountId, csv).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors).toEqual({
        csv: ['6 problem(s) in the CSV; nothing was imported.'],
        'line 3': [expect.stringMatching(/^timestamp must be an ISO 8601 timestamp with an offset/)],
        'line 4': [expect.stringMatching(/^amount must be a decimal number > 0/)],
        'line 5': ['price is required for buy'],
        'line 6': [
          expect.stringMatching(/^transactionId must be 1-200 characters without "\|", line breaks/),
        ],
        'line 8': ['transactionId "ok-1" already appears on line 2'],
        'line 9': ['has 2 fields; the header has 8'],
      });
      expect(
        await rowCount('SELECT count(*) AS n FROM "transaction" WHERE account_id = $1', [accountId]),
      ).toBe(0);
    });

    it("rejects an unknown or missing column on line 1: every layout tried says what it lacks, the closest (the service's CSV) first", async () => {
      const { accountId } = await createAccount(t, admin, {});
      const res = await importCsv(t, admin, accountId, 'transactionId,when,symbol,direction\n').expect(400);
      expect(res.body.errors.csv).toEqual([
        "The header matches none of the layouts tried (Coinbase transaction history, Kraken ledgers, Kraken trades, Gemini transaction history, Bitstamp transactions, the service's CSV); what each lacks is listed by line, closest first. Nothing was imported.",
      ]);
      // The service's CSV has 3 of its 5 required columns; Gemini finds "symbol" (1 of 5); the others none.
      expect(res.body.errors['line 1'].map((m: string) => m.split(':')[0])).toEqual([
        "Not the service's CSV",
        'Not a Gemini transaction history export',
        'Not a Coinbase transaction history export',
        'Not a Kraken ledgers export',
        'Not a Kraken trades export',
        'Not a Bitstamp transactions export',
      ]);
      expect(res.body.errors['line 1'][0]).toBe(
        'Not the service\'s CSV: missing columns "timestamp", "amount"; unknown column "when" (its columns: transactionId, timestamp, symbol, direction, amount, price, fee, transferId)',
      );
    });

    it('imports all rows, updates changed ones on re-import, and computes balances', async () => {
      const { accountId } = await createAccount(t, admin, {});
      const history = simpleHistory('imp');
      const first = await importCsv(t, admin, accountId, csvOf(history)).expect(200);
      expect(first.body).toEqual({
        accountId,
        tenant: 'sandbox',
        rows: history.length,
        inserted: history.length,
        updated: 0,
        unchanged: 0,
        format: 'csv',
      });
      const again = await importCsv(
        t,
        admin,
        accountId,
        '\uFEFF' + csvOf(history).replaceAll('\n', '\r\n'),
      ).expect(200);
      expect(again.body).toMatchObject({ inserted: 0, updated: 0, unchanged: history.length });
      const changed = [
        { ...history[0], feeUsd: '3' },
        sourceTx({ transactionId: 'imp-extra', at: '2024-06-01T00:00:00Z' }),
      ];
      const third = await importCsv(t, admin, accountId, csvOf(changed)).expect(200);
      expect(third.body).toMatchObject({ rows: 2, inserted: 1, updated: 1, unchanged: 0 });
      const balances = await t.http
        .get(`/v1/api/account/${accountId}/balances`)
        .set(bearer(partner))
        .expect(200);
      expect(balances.body.result).toMatchObject({
        syncStatus: 'synced',
        balanceSource: 'calculated',
        balances: [{ symbol: 'BTC', balance: '1.45' }],
      });
    });

    it('answers 409 for a non-csv account, 415 for another content type, 404 for an unknown account', async () => {
      const sandboxAccountId = (
        await t.http.get('/v1/api/account/identity/sandbox:coinbase-main').set(bearer(partner))
      ).body.result.accountId;
      await importCsv(t, admin, sandboxAccountId, csvOf(simpleHistory('nope'))).expect(409);
      const { accountId } = await createAccount(t, admin, {});
      await t.http
        .post(`/admin/accounts/${accountId}/import?tenant=sandbox`)
        .set(bearer(admin))
        .send({ csv: 'x' })
        .expect(415);
      await importCsv(t, admin, '00000000-0000-4000-8000-000000000000', 'transactionId\n').expect(404);
    });
  });

  describe('DELETE /admin/accounts/{id}', () => {
    it('deletes the account with its transactions and balances; a linked account loses the basis it carried', async () => {
      const from = await createAccount(t, admin, { identity: 'del-from' });
      const to = await createAccount(t, admin, { identity: 'del-to', platform: 'bitcoin' });
      await importCsv(
        t,
        admin,
        from.accountId,
        csvOf([
          sourceTx({ transactionId: 'buy', at: '2023-01-01T00:00:00Z', amount: '1', priceUsd: '20000' }),
          sourceTx({
            transactionId: 'out',
            at: '2023-06-01T00:00:00Z',
            amount: '1',
            direction: 'transfer_out',
            transferId: 'move-1',
          }),
        ]),
      ).expect(200);
      await importCsv(
        t,
        admin,
        to.accountId,
        csvOf([
          sourceTx({
            transactionId: 'in',
            at: '2023-06-01T00:10:00Z',
            amount: '0.9999',
            direction: 'transfer_in',
            transferId: 'move-1',
          }),
        ]),
      ).expect(200);
      const carried = await t.http
        .get(`/v1/api/account/${to.accountId}/balances`)
        .set(bearer(partner))
        .expect(200);
      expect(carried.body.result.balances[0]).toMatchObject({
        balance: '0.9999',
        costBasis: '19998.00',
        needsReview: false,
      });

      await t.http.delete(`/admin/accounts/${from.accountId}?tenant=sandbox`).set(bearer(admin)).expect(204);
      await t.http.get(`/v1/api/account/${from.accountId}/transactions`).set(bearer(partner)).expect(404);
      await t.http.get(`/v1/api/account/collection/${from.collectionId}`).set(bearer(partner)).expect(404);
      for (const table of ['"transaction"', 'balance_snapshot', 'balance_snapshot_asset'])
        expect(
          await rowCount(`SELECT count(*) AS n FROM ${table} WHERE account_id = $1`, [from.accountId]),
        ).toBe(0);
      const orphaned = await t.http
        .get(`/v1/api/account/${to.accountId}/balances`)
        .set(bearer(partner))
        .expect(200);
      expect(orphaned.body.result.balances[0]).toMatchObject({
        balance: '0.9999',
        costBasis: '0.00',
        needsReview: true,
      });
      await t.http.delete(`/admin/accounts/${from.accountId}?tenant=sandbox`).set(bearer(admin)).expect(404);
    });
  });

  it('stores ids for tenant B separately (isolation sanity)', async () => {
    const n = await rowCount('SELECT count(*) AS n FROM account WHERE tenant_id = $1', [
      sandboxTenantId('sandbox-b'),
    ]);
    expect(n).toBeGreaterThanOrEqual(12);
  });
});
