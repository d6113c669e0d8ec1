/**
 * Bitstamp's own vocabulary where ccxt's unified reading of `user_transactions` falls short
 * (docs/sources.md "Bitstamp"). Pure.
 *
 * A row names its amounts by lower-case currency keys (`"btc": "-0.02000000"`, `"usd": "0.00"`),
 * its market by a `base_quote` key on trades. ccxt finds a movement's currency as the first key
 * whose amount is a non-zero *integer*: a deposit or withdrawal of less than one unit (0.05 ETH)
 * has none, and its row came without currency and amount (silently dropped). Here the currency
 * is the one key whose amount is not zero, the amount its signed value.
 */
import type { Decimal } from 'decimal.js';
import { ExactDecimal } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';
import { unifiedLedgerKind, type ExchangeLedgerEntry, type LedgerEntryKind } from './exchange-history.js';

/** Keys of a user_transactions row that are not amounts of a currency. */
const NOT_AMOUNTS = new Set([
  'id',
  'datetime',
  'type',
  'fee',
  'order_id',
  'status',
  'price',
  'amount',
  'currency',
]);

/**
 * user_transactions `type`s: 0 deposit, 1 withdrawal, 2 market trade, 14 sub-account transfer,
 * 25 credited with staked assets, 26 sent assets to staking, 27 staking reward, 32 referral
 * reward, 35 inter-account transfer.
 */
const REWARDS = new Set(['27', '32']);
/** Moves between the client's own Bitstamp wallets (staking in and out): nothing for the ledger. */
const OWN_WALLET_MOVES = new Set(['25', '26']);

/** The currency (upper case) and signed amount of a non-trade row: the one non-zero currency key. */
export function bitstampMovement(
  row: Readonly<Record<string, unknown>>,
): { currency: string; amount: string } | undefined {
  if (String(row['type']) === '2') return undefined;
  const found: { currency: string; amount: string }[] = [];
  for (const [key, value] of Object.entries(row)) {
    if (NOT_AMOUNTS.has(key) || key.includes('_') || value === null || value === undefined) continue;
    let amount: Decimal;
    try {
      amount = new ExactDecimal(String(value));
    } catch {
      continue;
    }
    if (!amount.isZero()) found.push({ currency: key.toUpperCase(), amount: canonicalDecimal(amount) });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** What a Bitstamp ledger row is: rewards by its own type, staking moves nothing, else ccxt's reading. */
export function bitstampLedgerKind(entry: ExchangeLedgerEntry): LedgerEntryKind {
  const type = String(entry.info?.['type'] ?? '');
  if (OWN_WALLET_MOVES.has(type)) return 'none';
  if (REWARDS.has(type))
    return new ExactDecimal(entry.amount).isNegative() || entry.direction === 'out' ? 'none' : 'reward';
  return unifiedLedgerKind(entry);
}
