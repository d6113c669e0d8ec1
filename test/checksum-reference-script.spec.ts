/**
 * The partners' reference script (scripts/verify-checksum.mjs) is independent code; this
 * keeps it in step with the service's ChecksumAccumulator on awkward but valid input.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ChecksumAccumulator,
  type ChecksumRow,
  compareChecksumRows,
  EMPTY_CHECKSUM,
} from '../src/domain/checksum/checksum.js';
import { SeededRandom } from '../src/domain/random/seeded-random.js';

const SCRIPT = fileURLToPath(new URL('../scripts/verify-checksum.mjs', import.meta.url));
const HEADER = 'accountId,transactionId,symbol,direction,amount,price,timestamp';

interface TextRow extends ChecksumRow {
  readonly amount: string;
  readonly price: string | null;
  readonly timestamp: string;
}

function generateRows(count: number, seed: number): TextRow[] {
  const random = new SeededRandom(seed);
  const accounts = ['acc-b', 'acc-a', 'ACC-Z', 'acc-é', 'acc-😀', 'acc-\uE000', 'acc,"quoted"'];
  const amountForms = (units: number): string[] => [
    (units / 1e8).toFixed(8),
    `${units}e-8`,
    `${units}E-8`,
    `${(units / 1e8).toFixed(8)}0000`,
  ];
  const rows: TextRow[] = [];
  for (let i = 0; i < count; i++) {
    const units = random.int(-5e9, 5e9);
    const forms = amountForms(units);
    const priceCents = random.int(0, 1e9);
    const epochMs = Date.UTC(2015, 0, 1) + random.int(0, 3e11);
    const offsetHours = random.int(-11, 12);
    const local = new Date(epochMs + offsetHours * 3_600_000).toISOString().slice(0, 19);
    const offset = `${offsetHours < 0 ? '-' : '+'}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`;
    const micros = String(random.int(0, 999_999)).padStart(6, '0');
    rows.push({
      accountId: accounts[random.int(0, accounts.length - 1)],
      transactionId: `tx-${random.int(0, 1e6)}-${i}`,
      symbol: random.next() < 0.5 ? 'BTC' : 'ETH',
      direction: ['buy', 'sell', 'transfer_in', 'income'][random.int(0, 3)],
      amount: forms[random.int(0, forms.length - 1)],
      price: random.next() < 0.1 ? null : `${priceCents / 100}`,
      timestamp: random.next() < 0.5 ? `${local}.${micros}${offset}` : new Date(epochMs).toISOString(),
    });
  }
  return rows;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function toCsv(rows: readonly TextRow[], newline: string): string {
  const lines = rows.map((r) =>
    [r.accountId, r.transactionId, r.symbol, r.direction, r.amount, r.price ?? '', r.timestamp]
      .map(csvField)
      .join(','),
  );
  return [HEADER, ...lines].join(newline) + newline;
}

function expected(rows: readonly TextRow[]) {
  const accumulator = new ChecksumAccumulator();
  for (const r of [...rows].sort(compareChecksumRows)) accumulator.add(r);
  return accumulator.digest();
}

function runScript(args: string[], input?: string): unknown {
  const stdout = execFileSync(process.execPath, [SCRIPT, ...args], { input, encoding: 'utf8' });
  return JSON.parse(stdout);
}

describe('scripts/verify-checksum.mjs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'verify-checksum-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('agrees with ChecksumAccumulator on a shuffled CSV file', () => {
    const rows = generateRows(300, 20240102);
    const file = join(dir, 'export.csv');
    writeFileSync(file, toCsv(rows, '\r\n'));
    const result = runScript([file]);
    expect(result).toEqual(expected(rows));
    expect(result).toEqual(expect.objectContaining({ rowCount: 300 }));
  });

  it('reads the CSV from stdin, with a BOM and columns in another order', () => {
    const rows = generateRows(50, 7);
    const reordered = [
      'timestamp,price,amount,direction,symbol,transactionId,accountId',
      ...rows.map((r) =>
        [r.timestamp, r.price ?? '', r.amount, r.direction, r.symbol, r.transactionId, r.accountId]
          .map(csvField)
          .join(','),
      ),
    ].join('\n');
    expect(runScript([], `\uFEFF${reordered}`)).toEqual(expected(rows));
  });

  it('reads JSON: API transactions with their accountId, and plain arrays', () => {
    const rows = generateRows(40, 99);
    const byAccount = new Map<string, TextRow[]>();
    for (const r of rows) byAccount.set(r.accountId, [...(byAccount.get(r.accountId) ?? []), r]);
    const apiShaped = [...byAccount].map(([accountId, transactions]) => ({
      accountId,
      transactions: transactions.map(({ accountId: _omitted, ...rest }) => rest),
    }));
    expect(runScript(['-'], JSON.stringify(apiShaped))).toEqual(expected(rows));
    expect(runScript([], JSON.stringify(rows))).toEqual(expected(rows));
  });

  it('gives the checksum of empty input for a header-only CSV', () => {
    expect(runScript([], `${HEADER}\n`)).toEqual({ checksum: EMPTY_CHECKSUM, rowCount: 0 });
  });
});
