/**
 * Gemini "Transaction history" (docs/sources.md, "Gemini"), saved as CSV: one row per trade or
 * transfer, one column group per asset (`BTC Amount BTC`, `Fee (BTC) BTC`, `BTC Balance BTC`),
 * money as `$1,234.56`, amounts out as `(0.5 BTC)`; the last row holds totals and has no date.
 */
import { ExactDecimal } from '../../../domain/money/exact-decimal.js';
import {
  collect,
  decimalText,
  FIAT,
  readTimestamp,
  rowId,
  rowsOf,
  storedPriceLeg,
  tradeLegs,
  type ExportFormat,
  type ExportOutput,
  type ExportRecord,
  type ExportRow,
  type PriceBook,
} from './export-format.js';

const QUOTES = [
  'GUSD',
  'USDT',
  'USDC',
  'DAI',
  'USD',
  'EUR',
  'GBP',
  'SGD',
  'BTC',
  'ETH',
  'BCH',
  'LTC',
  'FIL',
  'SOL',
];
const INCOME = /interest|reward|staking|earn|referral|bonus|airdrop/i;
export const GEMINI_TYPES = ['Buy', 'Sell', 'Credit', 'Debit'];

export const GEMINI_EXPORT: ExportFormat = {
  id: 'gemini',
  name: 'Gemini transaction history',
  signature: ['Date', 'Time (UTC)', 'Type', 'Symbol', 'Specification'],
  parse(header: ExportRecord, records: readonly ExportRecord[], prices: PriceBook): ExportOutput {
    const output: ExportOutput = { legs: [], errors: [] };
    const assets = new Set(
      header.fields
        .map((f) => /^([A-Za-z0-9]+) Amount \1$/.exec(f)?.[1].toUpperCase())
        .filter((a) => a !== undefined),
    );
    const seen = new Map<string, number>();
    for (const row of rowsOf(header, records, output.errors)) {
      if (row.text('Date') === '') continue; // the totals row
      const id = row.text('Trade ID') || row.text('Tx Hash') || rowId('gemini', row.record, seen);
      collect(output, row, geminiRow(row, id, assets, prices));
    }
    return output;
  },
};

/** `BTCUSD` → [BTC, USD] among the file's assets; null when it does not split. */
export function geminiPair(symbol: string, assets: ReadonlySet<string>): [string, string] | null {
  const text = symbol.toUpperCase();
  for (const quote of QUOTES) {
    const base = text.slice(0, -quote.length);
    if (text.endsWith(quote) && base !== '' && (assets.has(base) || assets.size === 0)) return [base, quote];
  }
  return null;
}

function geminiTime(row: ExportRow): Date | null {
  const date = row.text('Date');
  const time = row.text('Time (UTC)');
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(date);
  const isoDate = us ? `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}` : date;
  return readTimestamp(row, 'Date', `${isoDate} ${time}`);
}

function amountOf(row: ExportRow, asset: string) {
  const column = `${asset} Amount ${asset}`;
  if (!row.has(column)) {
    row.fail('Symbol', `names ${asset} but the file has no "${column}" column`);
    return null;
  }
  return row.decimal(column, geminiAffixes(asset));
}

/** Gemini writes USD as `$1,234.50` and every other asset with its code after: `(0.02 BTC)`. */
function geminiAffixes(asset: string) {
  return asset === 'USD' ? { currencySign: '$', unit: 'USD' } : { unit: asset };
}

function feeOf(row: ExportRow, asset: string) {
  const column = [`Fee (${asset}) ${asset}`, `Trading Fee (${asset}) ${asset}`].find((c) => row.has(c));
  return column ? row.decimal(column, { optional: true, ...geminiAffixes(asset) }) : new ExactDecimal(0);
}

function geminiRow(row: ExportRow, id: string, assets: ReadonlySet<string>, prices: PriceBook) {
  const type = row.text('Type');
  const occurredAt = geminiTime(row);
  if (!GEMINI_TYPES.includes(type)) {
    row.fail('Type', `is "${type}", a type this importer does not know; known: ${GEMINI_TYPES.join(', ')}`);
    return null;
  }
  if (!occurredAt) return null;
  if (type === 'Buy' || type === 'Sell') {
    const pair = geminiPair(row.text('Symbol'), assets);
    if (!pair) {
      row.fail('Symbol', `is "${row.text('Symbol')}", a pair whose quote currency is not known`);
      return null;
    }
    const [base, quote] = pair;
    const baseAmount = amountOf(row, base);
    const quoteAmount = amountOf(row, quote);
    const fee = feeOf(row, quote);
    if (!baseAmount || !quoteAmount || !fee) return null;
    const zero = new ExactDecimal(0);
    const baseSide = { symbol: base, amount: baseAmount.abs(), fee: zero };
    const quoteSide = { symbol: quote, amount: quoteAmount.abs(), fee: fee.abs() };
    return tradeLegs(
      {
        row,
        column: 'Symbol',
        id,
        occurredAt,
        paid: type === 'Buy' ? quoteSide : baseSide,
        received: type === 'Buy' ? baseSide : quoteSide,
      },
      prices,
    );
  }
  const asset = row.text('Symbol').toUpperCase();
  if (FIAT.has(asset)) return null; // bank transfers of cash
  const amount = amountOf(row, asset);
  const fee = feeOf(row, asset);
  if (!amount || !fee) return null;
  const base = { transactionId: id, symbol: asset, occurredAt, amount: decimalText(amount.abs()) };
  if (type === 'Credit') {
    if (INCOME.test(row.text('Specification')))
      return storedPriceLeg(row, `${asset} Amount ${asset}`, prices, { ...base, direction: 'income' });
    return { ...base, direction: 'deposit' as const, priceUsd: null, feeUsd: null, transferId: null };
  }
  const legs = [
    { ...base, direction: 'withdrawal' as const, priceUsd: null, feeUsd: null, transferId: null },
  ];
  if (!fee.isZero()) {
    const feeLeg = storedPriceLeg(row, `Fee (${asset}) ${asset}`, prices, {
      ...base,
      transactionId: `${id}:fee`,
      direction: 'fee',
      amount: decimalText(fee.abs()),
    });
    if (!feeLeg) return null;
    legs.push(feeLeg as never);
  }
  return legs;
}
