#!/usr/bin/env node
/**
 * Reference implementation of the integrity checksum (docs/checksum.md), for partners.
 * Plain Node.js 18+, no dependencies, deliberately independent of the service's code.
 *
 *   node scripts/verify-checksum.mjs export.csv
 *   node scripts/verify-checksum.mjs transactions.json
 *   cat export.csv | node scripts/verify-checksum.mjs
 *
 * Input, detected by its first character:
 *   - CSV with the header accountId,transactionId,symbol,direction,amount,price,timestamp
 *     (any column order, RFC 4180 quoting, optional UTF-8 BOM, LF or CRLF);
 *   - JSON: an array of transaction objects with those fields, or an object
 *     { "accountId": "...", "transactions": [ ... ] } (the API's result.transactions
 *     plus the account id; the account id is applied to transactions that lack one),
 *     or an array of such objects, or an API envelope { "result": ... } around either.
 *
 * Output: {"checksum":"<sha-256 hex>","rowCount":N}
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const FIELDS = ['accountId', 'transactionId', 'symbol', 'direction', 'amount', 'price', 'timestamp'];

/** '1.50' → '1.5', '1e-7' → '0.0000001', '-0' → '0', '100' → '100'. */
function canonicalDecimal(text) {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(String(text));
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new Error(`Not a decimal: ${text}`);
  const [, sign, integerPart, fractionPart = '', exponentText = '0'] = match;
  let digits = integerPart + fractionPart;
  // Position of the decimal point within `digits`, after applying the exponent.
  let point = integerPart.length + Number(exponentText);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  const magnitude = fraction ? `${integer}.${fraction}` : integer;
  return sign === '-' && magnitude !== '0' ? `-${magnitude}` : magnitude;
}

/** ISO 8601 UTC with milliseconds; finer fractions are truncated. Requires an offset. */
function canonicalTimestamp(text) {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/i.exec(String(text));
  if (!match) throw new Error(`Timestamp needs ISO 8601 with an offset: ${text}`);
  const [, dateTime, fraction = '', offset] = match;
  const [year, month, day] = dateTime.slice(0, 10).split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) throw new Error(`Invalid date: ${text}`);
  const milliseconds = fraction.padEnd(3, '0').slice(0, 3); // truncated, not rounded
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  const date = new Date(`${dateTime}.${milliseconds}${zone}`);
  if (Number.isNaN(date.getTime())) throw new Error(`Invalid timestamp: ${text}`);
  return date.toISOString();
}

/** Sort key comparison on UTF-8 bytes (Postgres COLLATE "C"), not on locale or UTF-16. */
function compareRows(a, b) {
  return (
    Buffer.compare(Buffer.from(a.accountId, 'utf8'), Buffer.from(b.accountId, 'utf8')) ||
    Buffer.compare(Buffer.from(a.transactionId, 'utf8'), Buffer.from(b.transactionId, 'utf8'))
  );
}

function line(row) {
  const price =
    row.price === null || row.price === undefined || row.price === '' ? '' : canonicalDecimal(row.price);
  return [
    row.accountId,
    row.transactionId,
    row.symbol,
    row.direction,
    canonicalDecimal(row.amount),
    price,
    canonicalTimestamp(row.timestamp),
  ].join('|');
}

function checksum(rows) {
  const hash = createHash('sha256');
  const sorted = [...rows].sort(compareRows);
  for (const row of sorted) hash.update(`${line(row)}\n`, 'utf8');
  return { checksum: hash.digest('hex'), rowCount: sorted.length };
}

/** RFC 4180: fields separated by commas, optionally in double quotes ("" escapes a quote). */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      field += char;
    }
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  const nonEmpty = records.filter((r) => !(r.length === 1 && r[0] === ''));
  if (nonEmpty.length === 0) return [];
  const header = nonEmpty[0].map((name) => name.trim());
  const missing = FIELDS.filter((name) => !header.includes(name));
  if (missing.length > 0) throw new Error(`CSV header lacks: ${missing.join(', ')}`);
  return nonEmpty
    .slice(1)
    .map((values) => Object.fromEntries(header.map((name, i) => [name, values[i] ?? ''])));
}

function rowsFromJson(value, accountId) {
  if (Array.isArray(value)) return value.flatMap((item) => rowsFromJson(item, accountId));
  if (value && typeof value === 'object') {
    if ('result' in value && !('transactionId' in value)) return rowsFromJson(value.result, accountId);
    if (Array.isArray(value.transactions))
      return rowsFromJson(value.transactions, value.accountId ?? accountId);
    return [{ ...value, accountId: value.accountId ?? accountId }];
  }
  throw new Error('JSON input must be an array or object of transactions');
}

/** Every field is text (decimals too: JSON numbers would already have lost digits); price may be empty. */
function validate(row, index) {
  for (const name of FIELDS) {
    const value = row[name];
    const allowedEmpty = name === 'price' && (value === null || value === undefined || value === '');
    if (!allowedEmpty && (typeof value !== 'string' || value === '')) {
      throw new Error(`Row ${index + 1}: field ${name} is missing or not text`);
    }
  }
  return row;
}

function parseInput(text) {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  const rows = first === '[' || first === '{' ? rowsFromJson(JSON.parse(body)) : parseCsv(body);
  return rows.map(validate);
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function main() {
  const path = process.argv[2];
  const text = path && path !== '-' ? readFileSync(path, 'utf8') : await readStdin();
  process.stdout.write(`${JSON.stringify(checksum(parseInput(text)))}\n`);
}

main().catch((error) => {
  process.stderr.write(`verify-checksum: ${error.message}\n`);
  process.exit(1);
});
