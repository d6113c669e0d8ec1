/**
 * Bitstamp "Transactions" export, the RFC 4180 layout (docs/sources.md, "Bitstamp"): one row per
 * trade, deposit, withdrawal or reward, amounts and their currencies in separate columns.
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

export const BITSTAMP_TYPES = [
  'Market',
  'Limit',
  'Instant',
  'Deposit',
  'Withdrawal',
  'Staking reward',
  'Ripple deposit',
  'Ripple payment',
];

export const BITSTAMP_EXPORT: ExportFormat = {
  id: 'bitstamp',
  name: 'Bitstamp transactions',
  signature: [
    'Type',
    'Subtype',
    'Datetime',
    'Amount',
    'Amount currency',
    'Value',
    'Value currency',
    'Fee',
    'Fee currency',
  ],
  parse(header: ExportRecord, records: readonly ExportRecord[], prices: PriceBook): ExportOutput {
    const output: ExportOutput = { legs: [], errors: [] };
    const seen = new Map<string, number>();
    for (const row of rowsOf(header, records, output.errors)) {
      const id = row.text('ID') || rowId('bitstamp', row.record, seen);
      collect(output, row, bitstampRow(row, id, prices));
    }
    return output;
  },
};

function bitstampRow(row: ExportRow, id: string, prices: PriceBook) {
  const type = BITSTAMP_TYPES.find((t) => t.toLowerCase() === row.text('Type').toLowerCase());
  const occurredAt = readTimestamp(row, 'Datetime');
  const amount = row.decimal('Amount');
  const asset = row.text('Amount currency').toUpperCase();
  if (!type) {
    row.fail(
      'Type',
      `is "${row.text('Type')}", a type this importer does not know; known: ${BITSTAMP_TYPES.join(', ')}`,
    );
    return null;
  }
  if (!occurredAt || !amount) return null;
  if (asset === '') {
    row.fail('Amount currency', 'is empty');
    return null;
  }
  const base = { transactionId: id, symbol: asset, occurredAt, amount: decimalText(amount.abs()) };
  if (type === 'Market' || type === 'Limit' || type === 'Instant') {
    const side = row.text('Subtype').toLowerCase();
    if (side !== 'buy' && side !== 'sell') {
      row.fail('Subtype', `is "${row.text('Subtype')}"; a trade is "Buy" or "Sell"`);
      return null;
    }
    const value = row.decimal('Value');
    const fee = row.decimal('Fee', { optional: true });
    const valueCurrency = row.text('Value currency').toUpperCase();
    const feeCurrency = row.text('Fee currency').toUpperCase() || valueCurrency;
    if (!value || !fee) return null;
    if (!fee.isZero() && feeCurrency !== valueCurrency && feeCurrency !== asset) {
      row.fail('Fee currency', `is ${feeCurrency}; a trade's fee must be in ${asset} or ${valueCurrency}`);
      return null;
    }
    const zero = new ExactDecimal(0);
    const feeOn = (symbol: string) => (feeCurrency === symbol ? fee.abs() : zero);
    const assetSide = { symbol: asset, amount: amount.abs(), fee: feeOn(asset) };
    const valueSide = { symbol: valueCurrency, amount: value.abs(), fee: feeOn(valueCurrency) };
    return tradeLegs(
      {
        row,
        column: 'Value currency',
        id,
        occurredAt,
        paid: side === 'buy' ? valueSide : assetSide,
        received: side === 'buy' ? assetSide : valueSide,
      },
      prices,
    );
  }
  if (FIAT.has(asset)) return null; // bank transfers of cash
  if (type === 'Staking reward')
    return storedPriceLeg(row, 'Amount', prices, { ...base, direction: 'income' });
  const inbound = type === 'Deposit' || type === 'Ripple deposit';
  return {
    ...base,
    direction: inbound ? ('deposit' as const) : ('withdrawal' as const),
    priceUsd: null,
    feeUsd: null,
    transferId: null,
  };
}
