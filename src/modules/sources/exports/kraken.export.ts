/**
 * Kraken's History → Export files (docs/sources.md, "Kraken"): `ledgers.csv` (one row per balance
 * change; the legs of one trade share a `refid`) and `trades.csv` (one row per fill, with its pair).
 * Asset codes and what each ledger type and subtype means come from the one Kraken table the
 * exchange source reads Kraken's API with (src/domain/exchanges/kraken.ts).
 */
import type { Decimal } from 'decimal.js';
import {
  KRAKEN_EARN_SUBTYPES,
  KRAKEN_LEDGER_TYPES,
  krakenAsset,
  krakenLedgerMeaning,
  krakenPair,
} from '../../../domain/exchanges/kraken.js';
import { ExactDecimal } from '../../../domain/money/exact-decimal.js';
import {
  collect,
  decimalText,
  FIAT,
  readTimestamp,
  rowsOf,
  storedPriceLeg,
  tradeLegs,
  type ExportFormat,
  type ExportOutput,
  type ExportRecord,
  type ExportRow,
  type PriceBook,
} from './export-format.js';

export const KRAKEN_LEDGERS_EXPORT: ExportFormat = {
  id: 'kraken-ledgers',
  name: 'Kraken ledgers',
  signature: ['txid', 'refid', 'time', 'type', 'asset', 'amount', 'fee'],
  parse(header: ExportRecord, records: readonly ExportRecord[], prices: PriceBook): ExportOutput {
    const output: ExportOutput = { legs: [], errors: [] };
    const rows = rowsOf(header, records, output.errors).filter((row) => row.text('txid') !== '');
    // The legs of a trade share a refid: grouped first, turned into a trade at the first leg's line.
    const groups = new Map<string, ExportRow[]>();
    for (const row of rows) {
      if (!['trade', 'spend', 'receive'].includes(row.text('type').toLowerCase())) continue;
      const refid = row.text('refid');
      groups.set(refid, [...(groups.get(refid) ?? []), row]);
    }
    const done = new Set<string>();
    for (const row of rows) {
      const type = row.text('type').toLowerCase();
      if (['trade', 'spend', 'receive'].includes(type)) {
        const refid = row.text('refid');
        if (done.has(refid)) continue;
        done.add(refid);
        collect(output, row, ledgerTrade(refid, groups.get(refid) ?? [row], prices));
        continue;
      }
      collect(output, row, ledgerRow(row, type, prices));
    }
    return output;
  },
};

interface Leg {
  readonly row: ExportRow;
  readonly symbol: string;
  readonly amount: Decimal;
  readonly fee: Decimal;
}

function legOf(row: ExportRow): Leg | null {
  const amount = row.decimal('amount');
  const fee = row.decimal('fee', { optional: true });
  if (!amount || !fee) return null;
  return { row, symbol: krakenAsset(row.text('asset')), amount, fee: fee.abs() };
}

function ledgerTrade(refid: string, rows: ExportRow[], prices: PriceBook) {
  const first = rows[0];
  const occurredAt = readTimestamp(first, 'time');
  const legs = rows.map(legOf);
  if (!occurredAt || legs.some((l) => l === null)) return null;
  // Zero-amount legs carry only a fee (Kraken charges it in a third asset, e.g. KFEE): refused.
  const paid = legs.filter((l) => l!.amount.isNegative());
  const received = legs.filter((l) => l!.amount.isPositive() && !l!.amount.isZero());
  if (paid.length !== 1 || received.length !== 1 || legs.length !== 2) {
    first.fail(
      'refid',
      `"${refid}" has ${legs.length} ledger row(s) of a trade (${paid.length} paid, ${received.length} received); a trade needs exactly one of each`,
    );
    return null;
  }
  const [out] = paid as Leg[];
  const [into] = received as Leg[];
  return tradeLegs(
    {
      row: first,
      column: 'asset',
      id: refid,
      occurredAt,
      paid: { symbol: out.symbol, amount: out.amount.abs(), fee: out.fee },
      received: { symbol: into.symbol, amount: into.amount, fee: into.fee },
    },
    prices,
  );
}

function ledgerRow(row: ExportRow, type: string, prices: PriceBook) {
  const subtype = row.text('subtype').toLowerCase();
  const occurredAt = readTimestamp(row, 'time');
  const leg = legOf(row);
  if (!KRAKEN_LEDGER_TYPES.includes(type)) {
    row.fail(
      'type',
      `is "${row.text('type')}", a type this importer does not take (margin, futures and adjustments are not imported); known: ${KRAKEN_LEDGER_TYPES.join(', ')}`,
    );
    return null;
  }
  if (!occurredAt || !leg) return null;
  const meaning = krakenLedgerMeaning(type, subtype, leg.amount.isNegative() ? 'out' : 'in');
  if (meaning === 'unsupported') {
    row.fail(
      'subtype',
      `is "${row.text('subtype')}", a subtype of "${row.text('type')}" this importer does not take; known: ${Object.keys(KRAKEN_EARN_SUBTYPES).join(', ')}`,
    );
    return null;
  }
  // Moves between the client's own Kraken wallets, and a reward type's negative amount: nothing.
  if (meaning === 'internal' || meaning === 'not_income' || meaning === 'trade') return null;
  if (FIAT.has(leg.symbol)) return null;
  const id = row.text('txid');
  const base = { transactionId: id, symbol: leg.symbol, occurredAt };
  if (meaning === 'deposit' || meaning === 'withdrawal' || meaning === 'delisting') {
    if (leg.amount.isZero()) return null;
    const inbound = leg.amount.isPositive();
    const moved = inbound ? leg.amount.minus(leg.fee) : leg.amount.abs();
    const legs = [];
    // decimal.js calls zero positive: a row whose fee took it all moves nothing.
    if (moved.gt(0))
      legs.push({
        ...base,
        direction: inbound ? ('deposit' as const) : ('withdrawal' as const),
        amount: decimalText(moved),
        priceUsd: null,
        feeUsd: null,
        transferId: null,
      });
    if (!inbound && leg.fee.gt(0)) {
      // The network fee of a withdrawal is a disposal of the asset at its value (docs/cost-basis.md).
      const fee = storedPriceLeg(row, 'fee', prices, {
        ...base,
        transactionId: `${id}:fee`,
        direction: 'fee',
        amount: decimalText(leg.fee),
      });
      if (!fee) return null;
      legs.push(fee);
    }
    return legs;
  }
  // A reward (staking, earn reward, dividend, invite bonus; a transfer in: an airdrop or a fork's
  // coins): income at the day's stored price, net of its fee.
  const net = leg.amount.minus(leg.fee);
  if (!net.gt(0)) return null;
  return storedPriceLeg(row, 'amount', prices, { ...base, direction: 'income', amount: decimalText(net) });
}

export const KRAKEN_TRADES_EXPORT: ExportFormat = {
  id: 'kraken-trades',
  name: 'Kraken trades',
  signature: ['txid', 'ordertxid', 'pair', 'time', 'type', 'price', 'cost', 'fee', 'vol'],
  parse(header: ExportRecord, records: readonly ExportRecord[], prices: PriceBook): ExportOutput {
    const output: ExportOutput = { legs: [], errors: [] };
    for (const row of rowsOf(header, records, output.errors)) {
      const type = row.text('type').toLowerCase();
      const occurredAt = readTimestamp(row, 'time');
      const pair = krakenPair(row.text('pair'));
      if (!pair) row.fail('pair', `is "${row.text('pair')}", a pair whose quote currency is not known`);
      if (type !== 'buy' && type !== 'sell') {
        row.fail('type', `is "${row.text('type')}"; a trade is "buy" or "sell"`);
        continue;
      }
      const cost = row.decimal('cost');
      const vol = row.decimal('vol');
      const fee = row.decimal('fee', { optional: true });
      if (!occurredAt || !pair || !cost || !vol || !fee) continue;
      if (!vol.isPositive() || vol.isZero()) {
        row.fail('vol', 'must be > 0');
        continue;
      }
      const [base, quote] = pair;
      const zero = new ExactDecimal(0);
      const baseSide = { symbol: base, amount: vol, fee: zero };
      const quoteSide = { symbol: quote, amount: cost.abs(), fee: fee.abs() };
      collect(
        output,
        row,
        tradeLegs(
          {
            row,
            column: 'pair',
            id: row.text('txid'),
            occurredAt,
            paid: type === 'buy' ? quoteSide : baseSide,
            received: type === 'buy' ? baseSide : quoteSide,
          },
          prices,
        ),
      );
    }
    return output;
  },
};
