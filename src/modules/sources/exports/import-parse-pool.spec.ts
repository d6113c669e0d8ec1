/**
 * The import parse in its worker thread (issue 28) answers what parseImportFile answers on the
 * request thread: the same transactions for the service's CSV and for an exchange export whose
 * crypto trades and fees are valued at stored daily prices (two passes: what is asked, then with
 * it), the same line-numbered errors, and the progress the CLI's bar shows. The worker runs from
 * dist/ (npm test builds it first).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import { EXPORT_FIXTURE_PRICES, priceBook } from '../../../../test/factories/export-prices.factory.js';
import { parseImportFile } from './export-files.js';
import { ImportFileService } from './import-file.service.js';
import { ImportParsePool, importParseWorkerFilename } from './import-parse-pool.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const book = priceBook();
const asked: { symbols: readonly string[]; from: string; to: string }[] = [];
const market = {
  async dailyHistory(symbols: readonly string[], from: string, to: string) {
    asked.push({ symbols, from, to });
    const history = new Map<string, { date: string; priceUsd: string }[]>();
    for (const [key, priceUsd] of Object.entries(EXPORT_FIXTURE_PRICES)) {
      const [symbol, date] = key.split(' ');
      if (!symbols.includes(symbol) || date < from || date > to) continue;
      history.set(symbol, [...(history.get(symbol) ?? []), { date, priceUsd }]);
    }
    return history;
  },
} as unknown as MarketPricesPort;

describe('ImportParsePool', () => {
  const pool = new ImportParsePool();
  const service = new ImportFileService(market, pool);
  afterAll(() => pool.onApplicationShutdown());

  it('runs the worker compiled next to the compiled pool, or dist/ under Jest', () => {
    expect(
      importParseWorkerFilename('file:///srv/app/dist/src/modules/sources/exports/import-parse-pool.js'),
    ).toBe('/srv/app/dist/src/modules/sources/exports/import-parse.worker.js');
    expect(
      importParseWorkerFilename('file:///srv/app/src/modules/sources/exports/import-parse-pool.ts'),
    ).toBe('/srv/app/dist/src/modules/sources/exports/import-parse.worker.js');
  });

  it('parses an export valued at stored prices as parseImportFile does directly', async () => {
    const text = readFileSync(
      join(process.cwd(), 'test', 'fixtures', 'exports', 'kraken-ledgers.csv'),
      'utf8',
    );
    const direct = parseImportFile(text, { now: NOW, prices: book });
    expect(direct.ok).toBe(true);
    const progress: number[] = [];
    asked.length = 0;
    const pooled = await service.parse(text, { now: NOW, onProgress: (rows) => progress.push(rows) });
    expect(pooled).toEqual(direct);
    // The second pass had the prices the first asked for, read once for the file's range.
    expect(asked).toHaveLength(1);
    expect(progress.length).toBeGreaterThan(0);
    // The times are this realm's Dates (the writer's driver checks instanceof Date).
    if (pooled.ok) expect(pooled.transactions.every((tx) => tx.occurredAt instanceof Date)).toBe(true);
  });

  it('parses the service’s CSV, and reports its errors by line, as directly', async () => {
    const rows = Array.from(
      { length: 2_500 },
      (_, i) => `t-${i},2024-01-02T03:04:05Z,BTC,buy,0.${i + 1},42000.10,1.5,`,
    );
    const text = ['transactionId,timestamp,symbol,direction,amount,price,fee,transferId', ...rows].join('\n');
    const progress: number[] = [];
    const pooled = await service.parse(text, { now: NOW, onProgress: (n) => progress.push(n) });
    expect(pooled).toEqual(parseImportFile(text, { now: NOW, prices: book }));
    expect(pooled.ok && pooled.transactions).toHaveLength(2_500);
    expect(progress).toContain(1_000);
    expect(progress[progress.length - 1]).toBe(2_500);
    const bad = `${text}\nt-x,yesterday,BTC,buy,1,1,,`;
    expect(await service.parse(bad, { now: NOW })).toEqual(parseImportFile(bad, { now: NOW, prices: book }));
  });
});
