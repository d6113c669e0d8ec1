#!/usr/bin/env node
/**
 * An import file's parse and the request thread (issue 28): the longest event-loop stall (a 1 ms
 * timer measures the gaps) while a 20 MB CSV in the service's format (~290,000 rows) is parsed,
 * directly as the request thread did before (parseImportFile) and through ImportFileService (the
 * worker thread, the answer decoded in chunks), in alternating rounds in one process. No database.
 *
 *   npm run build && node bench/import-parse.mjs
 */
import { longestStall } from './harness.mjs';
const { parseImportFile } = await import('../dist/src/modules/sources/exports/export-files.js');
const { ImportFileService } = await import('../dist/src/modules/sources/exports/import-file.service.js');
const { ImportParsePool } = await import('../dist/src/modules/sources/exports/import-parse-pool.js');
const rows = ['transactionId,timestamp,symbol,direction,amount,price,fee,transferId'];
let bytes = 0;
for (let i = 0; bytes < 20e6; i++) {
  const line = `tx-${String(i).padStart(8, '0')},${new Date(Date.UTC(2020, 0, 1) + i * 60000).toISOString()},${['BTC', 'ETH', 'SOL'][i % 3]},${i % 4 === 3 ? 'sell' : 'buy'},0.00${1000 + (i % 9000)},${(20000 + (i % 5000)).toFixed(2)},1.25,`;
  rows.push(line);
  bytes += line.length + 1;
}
const text = rows.join('\n') + '\n';
async function stall(action) {
  const { ms, longest } = await longestStall(action);
  return `${Math.round(ms)} ms, longest stall ${Math.round(longest)} ms`;
}
const pool = new ImportParsePool();
const service = new ImportFileService({ dailyHistory: async () => new Map() }, pool);
const now = new Date('2030-01-01');
for (let r = 0; r < 3; r++) {
  console.log(
    `round ${r + 1} direct:  `,
    await stall(async () => parseImportFile(text, { now, prices: { usdOn: () => null } })),
  );
  console.log(`round ${r + 1} worker:  `, await stall(() => service.parse(text, { now })));
}
await pool.onApplicationShutdown();
console.log(`${(text.length / 1e6).toFixed(1)} MB, ${rows.length - 1} rows`);
