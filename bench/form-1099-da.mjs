#!/usr/bin/env node
/**
 * Form 1099-DA reconciliation at the file limit (issue 27 item 9's row: 100,000 broker lines
 * matched in ≤ 2 s). The matching is pure (src/domain/tax/form-1099-da.ts), so it is timed alone,
 * without HTTP or the database: what it costs is what it holds the event loop for.
 *
 * Three files of 100,000 lines (FORM_1099_DA_MAX_LINES), each against the service lines it meets:
 *   same day   100,000 copies of one line for an asset and date, with one sale of that day whose
 *              units differ (every line reaches the same-day pass; the quadratic matching took
 *              5 s for 16,000 such lines and ~100 s for 100,000 would be the square of that);
 *   per lot    100,000 covered lines, each the lot of one of 100,000 service lines (2 lots a sale,
 *              sales spread over the year's days and three assets), in shuffled order;
 *   per sale   100,000 aggregated lines (no date acquired), each the two lots of one sale.
 *
 *   npm run build && node bench/form-1099-da.mjs [--rounds 5] [--lines 100000]
 *
 * Prints, per file, the parse and the matching time of each round and their medians.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    lines: { type: 'string', default: '100000' },
  },
});
const ROUNDS = Number(args.rounds);
const LINES = Number(args.lines);

const { parseForm1099Da, reconcileForm1099Da } = await import('../dist/src/domain/tax/form-1099-da.js');
const { ExactDecimal } = await import('../dist/src/domain/money/exact-decimal.js');

const HEADER = 'asset,units,date_acquired,date_sold,proceeds,cost_basis,term,reference';
const ASSETS = ['BTC', 'ETH', 'SOL'];

function serviceLine({ tx, symbol, quantity, acquired, sold, proceeds, basis }) {
  const p = new ExactDecimal(proceeds);
  const b = new ExactDecimal(basis);
  return {
    part: 'I',
    box: 'H',
    term: 'short',
    symbol,
    quantity,
    description: `${quantity} ${symbol}`,
    dateAcquired: acquired,
    dateSold: sold,
    proceedsUsd: p,
    costBasisUsd: b,
    gainUsd: p.minus(b),
    accountId: 'acct-a',
    transactionId: tx,
    reviewReason: null,
    identifiedLate: false,
  };
}

/** A day of 2025 (0-364) as YYYY-MM-DD. */
const day = (n) => new Date(Date.UTC(2025, 0, 1 + (n % 365))).toISOString().slice(0, 10);

/** Deterministic shuffle (a fixed LCG), so every run times the same file. */
function shuffled(items) {
  const out = [...items];
  let seed = 2026;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function sameDay() {
  const rows = Array.from({ length: LINES }, (_, i) => `BTC,0.4,,2025-03-01,26000.00,,,R${i}`);
  const service = [
    serviceLine({
      tx: 's1',
      symbol: 'BTC',
      quantity: '0.5',
      acquired: null,
      sold: '2025-03-01',
      proceeds: '32500',
      basis: '0',
    }),
  ];
  return { csv: [HEADER, ...rows].join('\n'), service };
}

/** 100,000 service lines: sale k sells two lots of asset k mod 3 on day k mod 365. */
function serviceLots() {
  const service = [];
  for (let k = 0; k < LINES / 2; k++) {
    const symbol = ASSETS[k % 3];
    const sold = day(k);
    for (const lot of [0, 1]) {
      service.push(
        serviceLine({
          tx: `s${k}`,
          symbol,
          quantity: `0.${(k % 9) + 1}${lot}1`,
          acquired: `2024-0${lot + 1}-${String((k % 28) + 1).padStart(2, '0')}`,
          sold,
          proceeds: `${1000 + (k % 500)}.${lot}5`,
          basis: `${900 + (k % 400)}`,
        }),
      );
    }
  }
  return service;
}

function perLot() {
  const service = serviceLots();
  const rows = shuffled(
    service.map(
      (l, i) =>
        `${l.symbol},${l.quantity},${l.dateAcquired},${l.dateSold},${l.proceedsUsd.toFixed(2)},${l.costBasisUsd.toFixed(2)},short,L${i}`,
    ),
  );
  return { csv: [HEADER, ...rows].join('\n'), service };
}

function perSale() {
  const service = serviceLots();
  const rows = [];
  for (let i = 0; i < service.length; i += 2) {
    const [a, b] = [service[i], service[i + 1]];
    const units = new ExactDecimal(a.quantity).plus(b.quantity).toFixed();
    rows.push(
      `${a.symbol},${units},VARIOUS,${a.dateSold},${a.proceedsUsd.plus(b.proceedsUsd).toFixed(2)},,,S${i}`,
    );
    // Half as many sales as lines: the other half of the file is each sale's line again, left over.
    rows.push(`${a.symbol},${units},,${a.dateSold},1.00,,,T${i}`);
  }
  return { csv: [HEADER, ...shuffled(rows)].join('\n'), service };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(0)} ms`;

console.log(
  `Form 1099-DA reconciliation, ${LINES.toLocaleString('en-US')} broker lines, ${ROUNDS} rounds (Node ${process.version})`,
);
console.log('| file | parse (median) | matching (median) | matching, each round | outcome |');
console.log('|---|---:|---:|---|---|');
for (const [name, make] of [
  ['same day', sameDay],
  ['per lot', perLot],
  ['per sale', perSale],
]) {
  const { csv, service } = make();
  const parses = [];
  const matches = [];
  let outcome = '';
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    const parsed = parseForm1099Da(csv);
    parses.push(performance.now() - started);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
    started = performance.now();
    const result = reconcileForm1099Da(parsed.lines, service);
    matches.push(performance.now() - started);
    outcome = `matched ${result.matched.length}, different ${result.different.length}, unmatched broker ${result.unmatchedBroker.length}, unmatched service ${result.unmatchedService.length}`;
  }
  console.log(
    `| ${name} | ${ms(median(parses))} | **${ms(median(matches))}** | ${matches.map(ms).join(', ')} | ${outcome} |`,
  );
}
