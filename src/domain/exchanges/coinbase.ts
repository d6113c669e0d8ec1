/**
 * Coinbase's v2 transactions the unified reading leaves out (docs/sources.md "Coinbase"). Pure.
 *
 * A Convert (one crypto for another, outside Advanced Trade) is two `trade` transactions, one in
 * each wallet: what left the source wallet (negative) and what reached the target wallet
 * (positive), both naming the same `trade.id`. Paired, they are one trade: the asset received
 * bought with the asset given, both valued at the given asset's stored price that day (as any
 * crypto-for-crypto trade). A half whose other half is not listed (yet) is left out: the
 * reconciliation shows it.
 */
import type { ExchangeLedgerEntry, ExchangeTrade } from './exchange-history.js';

export function coinbaseConverts(entries: readonly ExchangeLedgerEntry[]): ExchangeTrade[] {
  const halves = new Map<string, ExchangeLedgerEntry[]>();
  for (const entry of entries) {
    if (entry.info?.['type'] !== 'trade') continue;
    const trade = entry.info['trade'] as { id?: unknown } | undefined;
    const id = typeof trade?.id === 'string' && trade.id !== '' ? trade.id : undefined;
    if (!id) continue;
    halves.set(id, [...(halves.get(id) ?? []), entry]);
  }
  const trades: ExchangeTrade[] = [];
  for (const [id, pair] of halves) {
    const given = pair.filter((e) => e.direction === 'out');
    const received = pair.filter((e) => e.direction === 'in');
    if (pair.length !== 2 || given.length !== 1 || received.length !== 1) continue;
    const [out, into] = [given[0]!, received[0]!];
    if (out.currency === into.currency) continue;
    trades.push({
      id: `convert:${id}`,
      timestamp: Math.max(out.timestamp, into.timestamp),
      symbol: `${into.currency}/${out.currency}`,
      side: 'buy',
      amount: String(into.amount),
      price: '0',
      cost: String(out.amount),
      fee: null,
    });
  }
  return trades;
}
