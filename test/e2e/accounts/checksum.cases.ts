/**
 * GET /v1/api/checksum (design §6, docs/checksum.md): stable across calls, equal to the partners'
 * reference script on an export of the same rows, filters with AND, other tenants' filters cover
 * nothing, byte order with awkward ids, and the same value on PGlite and Postgres.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ManualClock } from '../../../src/common/clock/clock.js';
import {
  ChecksumAccumulator,
  compareChecksumRows,
  EMPTY_CHECKSUM,
} from '../../../src/domain/checksum/checksum.js';
import { SANDBOX_ACCOUNT_FIXTURES } from '../../../src/modules/sources/index.js';
import { ChecksumService } from '../../../src/modules/integrity/index.js';
import { sandboxTenantId } from '../../../src/modules/sandbox/index.js';
import {
  bearer,
  createAccount,
  csvOf,
  importCsv,
  sandboxAccount,
  sourceTx,
} from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/verify-checksum.mjs', import.meta.url));

describe('checksum (e2e)', () => {
  let t: TestApp;
  let partner: string;
  let admin: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')) });
    [partner, admin] = await Promise.all([t.token(), t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret)]);
  });
  afterAll(() => t.close());

  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));
  const checksum = async (query = '') => (await get(`/v1/api/checksum${query}`).expect(200)).body.result;

  /** The partner's export: every account's API transactions with its accountId. */
  async function exportAll(): Promise<{ accountId: string; transactions: unknown[] }[]> {
    const accounts = (await get('/v1/api/accounts?limit=200').expect(200)).body.result.accounts as {
      accountId: string;
    }[];
    const out = [];
    for (const { accountId } of accounts) {
      const res = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      out.push({ accountId, transactions: res.body.result.transactions });
    }
    return out;
  }

  const referenceScript = (input: unknown) =>
    JSON.parse(
      execFileSync(process.execPath, [SCRIPT, '-'], { input: JSON.stringify(input), encoding: 'utf8' }),
    );

  it('returns checksum, computedAt and rowCount in the envelope, identical across calls', async () => {
    const res = await get('/v1/api/checksum').expect(200);
    expect(res.body).toMatchObject({ isError: false, statusCode: 200 });
    expect(Object.keys(res.body.result).sort()).toEqual(['checksum', 'computedAt', 'rowCount']);
    expect(res.body.result.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.result.computedAt).toBe('2026-03-15T12:00:00.000Z');
    const again = await checksum();
    expect(again.checksum).toBe(res.body.result.checksum);
    expect(again.rowCount).toBe(res.body.result.rowCount);
  });

  it('equals the reference script run on an export of the same rows', async () => {
    const exported = await exportAll();
    const rows = exported.reduce((n, a) => n + a.transactions.length, 0);
    const result = await checksum();
    expect(result.rowCount).toBe(rows);
    expect(rows).toBeGreaterThan(1_000);
    expect(referenceScript(exported)).toEqual({ checksum: result.checksum, rowCount: rows });
  });

  it('narrows by platform, collectionId and identity, combined with AND', async () => {
    const exported = await exportAll();
    const accounts = (await get('/v1/api/accounts?limit=200').expect(200)).body.result.accounts as {
      accountId: string;
      platform: string;
      collectionId: string;
      identity: string;
    }[];
    const coinbaseIds = new Set(accounts.filter((a) => a.platform === 'coinbase').map((a) => a.accountId));
    const byPlatform = await checksum('?platform=coinbase');
    expect(referenceScript(exported.filter((a) => coinbaseIds.has(a.accountId)))).toEqual({
      checksum: byPlatform.checksum,
      rowCount: byPlatform.rowCount,
    });

    const kraken = sandboxAccount('sandbox', 'kraken-trading');
    const only = exported.filter((a) => a.accountId === kraken.accountId);
    const expected = referenceScript(only);
    const byCollection = await checksum(`?collectionId=${kraken.collectionId}`);
    const byIdentity = await checksum(`?identity=${encodeURIComponent(kraken.identity)}`);
    const all = await checksum(
      `?platform=kraken&collectionId=${kraken.collectionId}&identity=${encodeURIComponent(kraken.identity)}`,
    );
    for (const r of [byCollection, byIdentity, all])
      expect({ checksum: r.checksum, rowCount: r.rowCount }).toEqual(expected);

    const contradictory = await checksum(`?platform=coinbase&collectionId=${kraken.collectionId}`);
    expect(contradictory).toMatchObject({ checksum: EMPTY_CHECKSUM, rowCount: 0 });
  });

  it('covers no rows for another tenant’s collection or identity (no error, nothing revealed)', async () => {
    const foreign = sandboxAccount('sandbox-b', 'kraken-trading');
    expect(await checksum(`?collectionId=${foreign.collectionId}`)).toMatchObject({
      checksum: EMPTY_CHECKSUM,
      rowCount: 0,
    });
    expect(await checksum(`?identity=${encodeURIComponent(foreign.identity)}`)).toMatchObject({
      checksum: EMPTY_CHECKSUM,
      rowCount: 0,
    });
    expect(await checksum('?collectionId=00000000-0000-4000-8000-000000000000')).toMatchObject({
      rowCount: 0,
    });
  });

  it('differs between tenants and answers a malformed collectionId with 400', async () => {
    const b = (
      await get('/v1/api/checksum', await t.token(SANDBOX.tenantB.clientId, SANDBOX.tenantB.secret)).expect(
        200,
      )
    ).body.result;
    expect(b.checksum).not.toBe((await checksum()).checksum);
    // The sandbox is deterministic (fixed ids, seeded histories, fixed clock here): tenant B's
    // checksum is this very value on PGlite and on Postgres, on every machine.
    expect(b).toMatchObject({
      checksum: '0a8f4c195c13d6f74a0fbe06aba28b8d6c002ab639c035137eb76c85fa0847ad',
      rowCount: 1670,
    });
    const bad = await get('/v1/api/checksum?collectionId=nope').expect(400);
    expect(bad.body.responseException.exceptionMessage.errors).toHaveProperty(['collectionId']);
    await t.http.get('/v1/api/checksum').expect(401);
  });

  it('orders awkward ids by bytes, as the reference script and ChecksumAccumulator do', async () => {
    const { accountId, collectionId } = await createAccount(t, admin, {
      collectionId: '0b6f3a52-1c4d-4e8f-9a7b-5d2c1e0f3a4b',
      identity: 'checksum-fixture',
    });
    const ids = ['B', 'a', 'ab', 'é', '😀', '\uE000', 'tx,"quoted"', 'Z-1'];
    const rows = ids.map((id, i) =>
      sourceTx({
        transactionId: id,
        at: `2024-01-0${(i % 9) + 1}T03:04:05.123Z`,
        amount: `0.${i + 1}0000000`,
        priceUsd: '42000.10',
      }),
    );
    await importCsv(t, admin, accountId, csvOf(rows)).expect(200);
    const result = await checksum(`?collectionId=${collectionId}`);
    const accumulator = new ChecksumAccumulator();
    const lines = rows
      .map((r) => ({
        accountId,
        transactionId: r.transactionId,
        symbol: r.symbol,
        direction: r.direction,
        amount: r.amount,
        price: r.priceUsd,
        timestamp: r.occurredAt,
      }))
      .sort(compareChecksumRows);
    for (const line of lines) accumulator.add(line);
    expect({ checksum: result.checksum, rowCount: result.rowCount }).toEqual(accumulator.digest());
    const exported = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
    expect(referenceScript({ accountId, transactions: exported.body.result.transactions })).toEqual({
      checksum: result.checksum,
      rowCount: ids.length,
    });
  });

  it('streams in pages: the result does not depend on the page size', async () => {
    const service = t.app.get(ChecksumService);
    const tenantId = sandboxTenantId('sandbox');
    const big = await service.compute(tenantId, {});
    const small = await service.compute(tenantId, {}, 7);
    expect({ checksum: small.checksum, rowCount: small.rowCount }).toEqual({
      checksum: big.checksum,
      rowCount: big.rowCount,
    });
    expect(SANDBOX_ACCOUNT_FIXTURES.length).toBeGreaterThan(10);
  });
});
