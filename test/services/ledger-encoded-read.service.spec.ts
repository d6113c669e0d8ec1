/**
 * Service tier: the compute pool's ledger read (LedgerService.encodedLedgerForAccount and
 * encodedLedgerForTenant, issue 28) gives, decoded, exactly the entries of the plain read
 * (ledgerForAccount, ledgerForTenant): the same fields, absent fields absent, the same instants to
 * the millisecond (sub-millisecond parts cut off as a Date's parse cuts them, before 1970 too),
 * over several chunks of LEDGER_CHUNK_ROWS, one account or the whole tenant, with the symbols in
 * the order they first come.
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import { decodeLedger } from '../../src/domain/cost-basis/index.js';
import { LedgerModule, LedgerService } from '../../src/modules/ledger/index.js';
import { LEDGER_CHUNK_ROWS } from '../../src/modules/ledger/testing.js';
import { insertAccount, insertTenant } from '../factories/account-rows.factory.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-03-15T12:00:00Z');

/** Instants with awkward fractions of a second, as Postgres keeps them (microseconds). */
const INSTANTS = [
  '2024-01-01 00:00:00+00',
  '2024-02-29 23:59:59.999999+00',
  '2024-03-01 12:00:00.0005+00',
  '2024-03-01 12:00:00.057+00',
  '2023-06-30 08:15:42.1+05:30',
  '1969-12-31 23:59:59.9995+00',
  '1999-12-31 23:59:59.001-08:00',
];

describe('the ledger read for the compute pool (service tier)', () => {
  let s: ServiceModule;
  let tenantId: string;
  let a: string;
  let b: string;
  let ledger: LedgerService;

  beforeAll(async () => {
    s = await startServiceModule({
      imports: [LedgerModule],
      clock: new ManualClock(NOW),
      prices: new FixedMarketPrices({ BTC: '60000' }, NOW),
    });
    tenantId = await insertTenant(s.dataSource, 'service-encoded-read');
    a = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: NOW });
    b = await insertAccount(s.dataSource, tenantId, { source: 'csv', createdOn: NOW });
    const rows: unknown[][] = [];
    // acct-a: two chunks and a bit; acct-b: a few, one of them the other leg of a transfer.
    for (let i = 0; i < 2 * LEDGER_CHUNK_ROWS + 37; i++) {
      rows.push([
        a,
        `a-${String(i).padStart(5, '0')}`,
        ['BTC', 'ETH', 'SOL'][i % 3],
        i % 7 === 0 ? 'sell' : 'buy',
        `0.${String(i + 1).padStart(8, '0')}`,
        i % 11 === 0 ? null : `${1000 + i}.25`,
        i % 5 === 0 ? null : '1.5',
        INSTANTS[i % INSTANTS.length],
        i === 3 ? 'x-1' : null,
      ]);
    }
    rows.push([b, 'b-in', 'SOL', 'transfer_in', '0.00000004', null, null, INSTANTS[3], 'x-1']);
    rows.push([
      b,
      'b-buy',
      'DOGE',
      'buy',
      '12345678901234.123456789012345678',
      '0.1',
      '0',
      INSTANTS[5],
      null,
    ]);
    for (const row of rows) {
      await s.dataSource.query(
        `INSERT INTO "transaction" (tenant_id, account_id, transaction_id, symbol, direction, amount, price_usd, fee_usd, occurred_at, transfer_id)
         VALUES ($1, $2, $3, $4, $5, $6::numeric, $7::numeric, $8::numeric, $9::timestamptz, $10)`,
        [tenantId, ...row],
      );
    }
    ledger = s.get(LedgerService);
  });

  afterAll(() => s?.close());

  it('decodes one account’s read (with its transfer-linked account) to the plain read’s entries', async () => {
    const plain = await ledger.ledgerForAccount(tenantId, { id: a });
    const encoded = await ledger.encodedLedgerForAccount(tenantId, { id: a });
    expect(plain.entries).toHaveLength(2 * LEDGER_CHUNK_ROWS + 37 + 2);
    expect(encoded.accountIds).toEqual(plain.accountIds);
    expect(decodeLedger(encoded.ledger)).toStrictEqual(plain.entries);
    expect(encoded.symbols).toEqual([...new Set(plain.entries.map((e) => e.symbol))]);
    // The sub-millisecond parts cut off, toward the past.
    const times = new Set(plain.entries.map((e) => e.timestamp.toISOString()));
    expect(times).toContain('1969-12-31T23:59:59.999Z');
    expect(times).toContain('2024-03-01T12:00:00.000Z');
    expect(times).toContain('2024-02-29T23:59:59.999Z');
  });

  it('decodes the tenant’s read to the plain read’s entries', async () => {
    const plain = await ledger.ledgerForTenant(tenantId);
    const encoded = await ledger.encodedLedgerForTenant(tenantId);
    expect(decodeLedger(encoded.ledger)).toStrictEqual(plain);
    expect(encoded.symbols).toEqual([...new Set(plain.map((e) => e.symbol))]);
  });
});
