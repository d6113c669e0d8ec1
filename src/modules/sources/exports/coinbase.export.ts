/**
 * Coinbase "Transaction history" CSV (docs/sources.md, "Coinbase"): a few preamble lines, then one
 * row per event. Column sets: the current one (`ID`, `Price Currency`, `Price at Transaction`,
 * `$`-formatted money, negative quantities on the way out), the 2022–2024 one (`Spot Price
 * Currency`, `Spot Price at Transaction`, `Fees and/or Spread`) and the older ones (`Total
 * (inclusive of fees)`, `Fees`; or `USD Spot Price at Transaction`, `USD Subtotal`, ...).
 */
import type { Direction } from '../../../domain/cost-basis/index.js';
import type { SourceTransaction } from '../connectors/source-connector.js';
import {
  collect,
  decimalText,
  FIAT,
  readNumber,
  readTimestamp,
  rowId,
  rowsOf,
  unitPrice,
  type ExportFormat,
  type ExportOutput,
  type ExportRecord,
  type ExportRow,
} from './export-format.js';

const PRICE = ['Price at Transaction', 'Spot Price at Transaction', 'USD Spot Price at Transaction'];
const CURRENCY = ['Price Currency', 'Spot Price Currency'];
const FEES = ['Fees and/or Spread', 'Fees', 'USD Fees'];

const BUY = new Set(['buy', 'advanced trade buy', 'advance trade buy']);
const SELL = new Set(['sell', 'advanced trade sell', 'advance trade sell']);
const INCOME = new Set([
  'rewards income',
  'reward income',
  'staking income',
  'inflation reward',
  'learning reward',
  'coinbase earn',
  'interest payout',
  'incentives rewards payout',
  'subscription rebate',
]);
/** Coins leaving this account for another Coinbase product (Pro/Exchange) or an address. */
const OUT = new Set(['send', 'pro deposit', 'exchange deposit']);
const IN = new Set(['receive', 'pro withdrawal', 'exchange withdrawal']);
/** Moves inside the same Coinbase account: nothing changes hands. */
const INTERNAL = new Set([
  'retail staking transfer',
  'retail unstaking transfer',
  'vault withdrawal',
  'vault deposit',
  'cash to savings',
]);
export const COINBASE_TYPES = [
  ...BUY,
  ...SELL,
  ...INCOME,
  ...OUT,
  ...IN,
  'convert',
  'deposit',
  'withdrawal',
  ...INTERNAL,
];

/** "Converted 1 ETH to 0.064 BTC": the amount received (read by readNumber) and its asset. */
const CONVERTED = /^Converted\s+\S+\s+\w+\s+to\s+(\S+)\s+(\w+)/i;

export const COINBASE_EXPORT: ExportFormat = {
  id: 'coinbase',
  name: 'Coinbase transaction history',
  signature: ['Timestamp', 'Transaction Type', 'Asset', 'Quantity Transacted'],
  alsoRequired: [PRICE, FEES, ['Notes']],
  parse(header: ExportRecord, records: readonly ExportRecord[]): ExportOutput {
    const output: ExportOutput = { legs: [], errors: [] };
    const names = header.fields.map((f) => f.toLowerCase());
    const pick = (options: string[]) => options.find((o) => names.includes(o.toLowerCase())) ?? null;
    const priceColumn = pick(PRICE);
    const currencyColumn = pick(CURRENCY);
    const feeColumn = pick(FEES);
    const missing = [
      priceColumn ? null : PRICE.join('" or "'),
      feeColumn ? null : FEES.join('" or "'),
      names.includes('notes') ? null : 'Notes',
    ].filter((m): m is string => m !== null);
    if (missing.length > 0) {
      for (const m of missing)
        output.errors.push({
          line: header.line,
          field: 'header',
          message: `required column "${m}" is missing`,
        });
      return output;
    }
    const seen = new Map<string, number>();
    for (const row of rowsOf(header, records, output.errors)) {
      const id = row.text('ID') || rowId('coinbase', row.record, seen);
      const legs = coinbaseRow(row, id, priceColumn!, currencyColumn, feeColumn!);
      collect(output, row, legs);
    }
    return output;
  },
};

function coinbaseRow(
  row: ExportRow,
  id: string,
  priceColumn: string,
  currencyColumn: string | null,
  feeColumn: string,
): SourceTransaction | SourceTransaction[] | null {
  const type = row.text('Transaction Type').toLowerCase();
  const asset = row.text('Asset').toUpperCase();
  const occurredAt = readTimestamp(row, 'Timestamp');
  const quantity = row.decimal('Quantity Transacted');
  if (type === '') {
    row.fail('Transaction Type', 'is empty');
    return null;
  }
  if (INTERNAL.has(type)) return null;
  // Fiat cash in or out (bank transfers) is not a crypto position.
  if ((type === 'deposit' || type === 'withdrawal') && FIAT.has(asset)) return null;
  const known = COINBASE_TYPES.includes(type);
  if (!known) {
    row.fail(
      'Transaction Type',
      `is "${row.text('Transaction Type')}", a type this importer does not know; known: ${COINBASE_TYPES.join(', ')}`,
    );
    return null;
  }
  if (!occurredAt || !quantity) return null;
  const amount = quantity.abs();
  const base = { transactionId: id, symbol: asset, occurredAt, transferId: null };
  // A Receive that Coinbase itself paid (Earn, Rewards, a referral) is income, not a transfer in.
  const paidByCoinbase = type === 'receive' && /coinbase (earn|rewards?|referral)/i.test(row.text('Notes'));
  if (!paidByCoinbase && (type === 'deposit' || IN.has(type) || type === 'withdrawal' || OUT.has(type))) {
    const direction: Direction = type === 'deposit' || IN.has(type) ? 'deposit' : 'withdrawal';
    return { ...base, direction, amount: decimalText(amount), priceUsd: null, feeUsd: null };
  }
  const currency = currencyColumn ? row.text(currencyColumn).toUpperCase() : 'USD';
  if (currency !== 'USD') {
    row.fail(
      currencyColumn!,
      `is ${currency}: only USD-denominated Coinbase exports can be imported (the service stores no ${currency} exchange rates); choose USD as the export's currency`,
    );
    return null;
  }
  // Coinbase writes USD with its sign in the newer column sets (`$101.50`), bare in the older.
  const price = row.decimal(priceColumn, { currencySign: '$' });
  const fee = row.decimal(feeColumn, { optional: true, currencySign: '$' });
  if (!price || !fee) return null;
  const priceUsd = decimalText(price.abs());
  const feeUsd = fee.isZero() ? null : decimalText(fee.abs());
  if (BUY.has(type) || SELL.has(type))
    return {
      ...base,
      direction: BUY.has(type) ? ('buy' as const) : ('sell' as const),
      amount: decimalText(amount),
      priceUsd,
      feeUsd,
    };
  if (INCOME.has(type) || paidByCoinbase)
    return { ...base, direction: 'income' as const, amount: decimalText(amount), priceUsd, feeUsd: null };
  // Convert: the asset is sold at the spot price; what it became is bought for the net proceeds.
  const converted = CONVERTED.exec(row.text('Notes'));
  if (!converted) {
    row.fail(
      'Notes',
      `must say what was received ("Converted 1 ETH to 0.05 BTC"); got "${row.text('Notes')}"`,
    );
    return null;
  }
  const receivedAmount = readNumber(converted[1]);
  const receivedSymbol = converted[2].toUpperCase();
  if (receivedAmount === null) {
    row.fail('Notes', `names an amount received that is not a number ("${converted[1]}")`);
    return null;
  }
  const proceeds = amount.times(price.abs()).minus(fee.abs());
  if (receivedAmount.lte(0) || proceeds.lt(0)) {
    row.fail('Notes', `names an amount received that cannot be valued ("${row.text('Notes')}")`);
    return null;
  }
  return [
    {
      ...base,
      transactionId: `${id}:${asset}`,
      direction: 'sell' as const,
      amount: decimalText(amount),
      priceUsd,
      feeUsd,
    },
    {
      ...base,
      transactionId: `${id}:${receivedSymbol}`,
      symbol: receivedSymbol,
      direction: 'buy' as const,
      amount: decimalText(receivedAmount),
      priceUsd: decimalText(unitPrice(proceeds, receivedAmount)),
      feeUsd: null,
    },
  ];
}
