/**
 * CSV edge cases from the audit (#13 item 14), through the admin import endpoint: the 30-digit
 * limit of amounts and prices is named in the error, hour 24 is refused like second 60, and
 * quoted fields keep their spaces while unquoted ones are trimmed (docs/csv-format.md).
 */
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { createAccount, importCsv } from '../../factories/accounts.factory.js';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const HEADER = 'transactionId,timestamp,symbol,direction,amount,price,fee,transferId';

describe('CSV import edge cases (e2e)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')) });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
  });
  afterAll(() => t.close());

  const newAccount = async () => (await createAccount(t, admin, { tenant: 'sandbox' })).accountId;
  const stored = async (accountId: string) =>
    (await t.app
      .get(DataSource)
      .query(
        'SELECT transaction_id AS id, amount::text AS amount, price_usd::text AS price FROM "transaction" WHERE account_id = $1 ORDER BY transaction_id',
        [accountId],
      )) as { id: string; amount: string; price: string | null }[];

  it('names the 30-digit limit when an amount or a price has too many fraction digits', async () => {
    const accountId = await newAccount();
    const thirtyOne = '0.' + '1'.repeat(31);
    const res = await importCsv(
      t,
      admin,
      accountId,
      [
        HEADER,
        `a,2024-01-02T03:04:05Z,BTC,buy,${thirtyOne},42000,,`,
        `b,2024-01-02T03:04:05Z,BTC,buy,1,42000.${'0'.repeat(31)},,`,
        `c,2024-01-02T03:04:05Z,BTC,buy,${'9'.repeat(31)},1,,`,
      ].join('\n'),
    ).expect(400);
    expect(res.body.errors).toEqual({
      csv: ['3 problem(s) in the CSV; nothing was imported.'],
      'line 2': ['amount has 31 fraction digits; at most 30 are accepted'],
      'line 3': ['price has 31 fraction digits; at most 30 are accepted'],
      'line 4': ['amount has 31 integer digits; at most 30 are accepted'],
    });
    expect(await stored(accountId)).toEqual([]);
  });

  it('accepts exactly 30 fraction digits and stores them exactly', async () => {
    const accountId = await newAccount();
    const thirty = '0.' + '1'.repeat(30);
    await importCsv(
      t,
      admin,
      accountId,
      `${HEADER}\nx,2024-01-02T03:04:05Z,BTC,buy,${thirty},42000.5,,\n`,
    ).expect(200);
    expect(await stored(accountId)).toEqual([{ id: 'x', amount: thirty, price: '42000.5' }]);
  });

  it.each([
    ['hour 24', '2024-01-02T24:00:00Z'],
    ['second 60', '2024-01-02T23:59:60Z'],
    ['minute 60', '2024-01-02T23:60:00Z'],
    ['hour 24 with an offset', '2024-01-02T24:00:00+01:00'],
  ])('refuses %s like any impossible time', async (_, timestamp) => {
    const accountId = await newAccount();
    const res = await importCsv(t, admin, accountId, `${HEADER}\nx,${timestamp},BTC,buy,1,42000,,\n`).expect(
      400,
    );
    expect(res.body.errors['line 2']).toEqual([
      'timestamp must be an ISO 8601 timestamp with an offset (e.g. 2024-01-02T03:04:05Z)',
    ]);
    expect(await stored(accountId)).toEqual([]);
  });

  it('keeps the spaces of a quoted field and trims an unquoted one', async () => {
    const accountId = await newAccount();
    const ok = await importCsv(
      t,
      admin,
      accountId,
      `${HEADER}\n  plain-id  , 2024-01-02T03:04:05Z , btc , buy , 1 , 42000 ,,\n" quoted id ",2024-01-03T03:04:05Z,BTC,buy,1,42000,,\n`,
    ).expect(200);
    expect(ok.body).toMatchObject({ rows: 2, inserted: 2 });
    expect((await stored(accountId)).map((row) => row.id)).toEqual([' quoted id ', 'plain-id']);

    const bad = await importCsv(
      t,
      admin,
      accountId,
      `${HEADER}\ny,2024-01-02T03:04:05Z,BTC,buy," 1",42000,,\n`,
    ).expect(400);
    expect(bad.body.errors['line 2']).toEqual([
      'amount must be a decimal number > 0 (digits and an optional fraction, e.g. 0.5)',
    ]);
  });
});
