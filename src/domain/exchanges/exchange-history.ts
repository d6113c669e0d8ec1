/**
 * What an exchange account's history means for its ledger (issue 15 item 1), from ccxt's unified
 * structures (trades from fetchMyTrades, entries from fetchLedger). Pure: the shapes below are
 * the fields of ccxt's Trade and LedgerEntry this code reads, and USD prices come in as a lookup.
 *
 * - A trade against USD is a `buy` or `sell` at the trade price, its fee in USD (stablecoins
 *   such as USDC are assets with a price, not USD).
 * - A trade against another crypto asset (ETH/BTC) is two legs: a buy of one and a sell of the
 *   other, both at the quote's USD price of that day (the day's stored price), the fee on the leg
 *   in the fee's currency.
 * - A trade against another fiat currency (EUR, GBP…) needs an exchange rate the service does
 *   not store: it is reported as unpriced (the refresh fails naming it) rather than guessed.
 * - Ledger deposits and withdrawals of crypto are `deposit`/`withdrawal`; one that names its
 *   chain transaction (`txid`, a 64-hex-digit hash) is a `transfer_in`/`transfer_out` with
 *   `transferId` = chainTransferId(txid), so a watched wallet's leg of the same transaction pairs
 *   with it (unpaired, it means the same as a deposit/withdrawal). A withdrawal fee in the asset
 *   is a `fee` entry (the transfer_out is the amount that left, the fee is not in it); staking and
 *   other rewards are `income` at the day's price; a negative amount is never income.
 *   Fiat movements and the ledger's own trade rows (the trades cover them) are left out.
 *   What a ledger entry is comes from a LedgerEntryRule: ccxt's unified types for most exchanges
 *   (unifiedLedgerKind), an exchange's own table where ccxt's types are not enough (Kraken:
 *   krakenLedgerKind in ./kraken.ts, the same table its export files are read with).
 * - An asset the market store has no price for at all (an unknown asset: the lookup answers null)
 *   fails nothing: its rows are kept without a price and flagged like an unknown token's
 *   (docs/sources.md): a reward is a `deposit` (unknown basis), a fee in it a `withdrawal`, a
 *   trade against it takes the other side's price, or, when neither side has one, is a
 *   `deposit` of what came in and a `withdrawal` of what went out. A known asset without a price
 *   on that day is a gap in the market history: the item fails, named, rather than be guessed.
 *
 * Amounts are decimal text computed with ExactDecimal; nothing is a float in the result.
 */
import type { Decimal } from 'decimal.js';
import { ExactDecimal } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';
import { chainTransferId } from '../chains/transfer-id.js';

export interface ExchangeTrade {
  readonly id: string;
  readonly timestamp: number;
  /** ccxt unified symbol, e.g. "BTC/USD". */
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly amount: number | string;
  readonly price: number | string;
  /**
   * The quote amount, where the exchange gives it rather than a price (a Coinbase Convert: what
   * left one wallet and what reached the other): the quote leg is exactly it, and the per-unit
   * price is derived (cost ÷ amount, to DERIVED_PRICE_DECIMALS places in USD). `price` is unused.
   */
  readonly cost?: number | string;
  readonly fee?: { readonly cost?: number | string; readonly currency?: string } | null;
}

export interface ExchangeLedgerEntry {
  readonly id: string;
  readonly timestamp: number;
  /** ccxt unified ledger type: deposit, withdrawal, trade, transaction, fee, rebate, reward, … */
  readonly type: string;
  readonly currency: string;
  readonly amount: number | string;
  readonly direction?: 'in' | 'out';
  readonly fee?: { readonly cost?: number | string; readonly currency?: string } | null;
  /** Exchange-specific type (Kraken: "staking", "earn", …). */
  readonly info?: Record<string, unknown>;
  /** The chain transaction of a deposit or withdrawal, where the exchange gives it. */
  readonly txid?: string | null;
}

export type ExchangeLegDirection =
  'buy' | 'sell' | 'deposit' | 'withdrawal' | 'transfer_in' | 'transfer_out' | 'fee' | 'income';

export interface ExchangeLeg {
  readonly transactionId: string;
  readonly symbol: string;
  readonly direction: ExchangeLegDirection;
  readonly amount: string;
  /** USD per unit; null for deposits and withdrawals. */
  readonly priceUsd: string | null;
  /** USD fee of a buy or sell; null when none. */
  readonly feeUsd: string | null;
  readonly occurredAt: Date;
  /** `chain:<txid>` on a transfer_in/transfer_out; null on every other leg. */
  readonly transferId: string | null;
}

/**
 * The USD price of `symbol` on the UTC day `date` (YYYY-MM-DD): undefined when none is stored for
 * that day (a gap: the item fails), null when the asset has no market at all (an unknown asset:
 * its rows are kept without a price).
 */
export type UsdPriceOnDay = (symbol: string, date: string) => string | null | undefined;

/** What a ledger entry means for the ledger: a movement in or out, a reward, or nothing. */
export type LedgerEntryKind = 'deposit' | 'withdrawal' | 'reward' | 'none';
/** An exchange's reading of its ledger entries. */
export type LedgerEntryRule = (entry: ExchangeLedgerEntry) => LedgerEntryKind;

/** Digits kept after the point of a USD price derived by division (as the export files do). */
const DERIVED_PRICE_DECIMALS = 20;

/** Currencies that are money, not assets the ledger holds. USD is the ledger's unit. */
export const FIAT_CURRENCIES: ReadonlySet<string> = new Set([
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'JPY',
  'CHF',
  'AUD',
]);

export class UnpricedExchangeItemError extends Error {
  constructor(
    readonly itemId: string,
    readonly currency: string,
    readonly date: string,
  ) {
    super(`No USD price for ${currency} on ${date} (item ${itemId}); it is not guessed.`);
    this.name = 'UnpricedExchangeItemError';
  }
}

/**
 * ccxt's unified type of a ledger entry, with the `transaction` some exchanges report for both
 * deposits and withdrawals (Kraken) resolved by the exchange's own type or the entry's direction.
 */
function movementKind(entry: ExchangeLedgerEntry, subtype: string): string {
  if (entry.type !== 'transaction') return entry.type;
  if (subtype === 'deposit' || subtype === 'withdrawal') return subtype;
  if (entry.direction === 'in') return 'deposit';
  if (entry.direction === 'out') return 'withdrawal';
  return entry.type;
}

/**
 * Ledger types that are rewards (income at market value): ccxt's unified ones, and the exchange
 * types ccxt leaves as they are (Coinbase v2 transactions: `staking_reward`, `inflation_reward`
 * (Solana, Cosmos), `interest` (USDC rewards), `incentives_rewards_payout`).
 */
const REWARD_TYPES = new Set([
  'reward',
  'staking',
  'earn',
  'rebate',
  'airdrop',
  'staking_reward',
  'inflation_reward',
  'interest',
  'incentives_rewards_payout',
]);

/**
 * A ledger entry by ccxt's unified type (with the exchange's own `info.type` where ccxt says
 * `transaction`): rewards are income only when they came in; a negative one is never income.
 */
export function unifiedLedgerKind(entry: ExchangeLedgerEntry): LedgerEntryKind {
  const subtype = String(entry.info?.['type'] ?? '').toLowerCase();
  if (REWARD_TYPES.has(entry.type) || REWARD_TYPES.has(subtype))
    return entry.direction === 'out' || new ExactDecimal(entry.amount).isNegative() ? 'none' : 'reward';
  const kind = movementKind(entry, subtype);
  return kind === 'deposit' || kind === 'withdrawal' ? kind : 'none';
}

export function exchangeLegs(
  trades: readonly ExchangeTrade[],
  ledger: readonly ExchangeLedgerEntry[],
  priceOnDay: UsdPriceOnDay,
  ledgerKind: LedgerEntryRule = unifiedLedgerKind,
): ExchangeLeg[] {
  const legs: ExchangeLeg[] = [];
  const dayOf = (timestamp: number) => new Date(timestamp).toISOString().slice(0, 10);
  /** The USD price; null for an asset without any market. Fiat other than USD is never guessed. */
  const price = (id: string, currency: string, timestamp: number): string | null => {
    if (currency === 'USD') return '1';
    const found = FIAT_CURRENCIES.has(currency) ? undefined : priceOnDay(currency, dayOf(timestamp));
    if (found === undefined) throw new UnpricedExchangeItemError(id, currency, dayOf(timestamp));
    return found;
  };
  const text = (value: Decimal.Value) => canonicalDecimal(new ExactDecimal(value));
  /** A disposal valued at `priceUsd`, or, unvalued, the coins leaving without a price. */
  const outLeg = (direction: 'sell' | 'fee', priceUsd: string | null) =>
    priceUsd === null ? { direction: 'withdrawal' as const, priceUsd: null } : { direction, priceUsd };
  /** An acquisition at `priceUsd`, or, unvalued, coins arriving of unknown basis. */
  const inLeg = (direction: 'buy' | 'income', priceUsd: string | null) =>
    priceUsd === null ? { direction: 'deposit' as const, priceUsd: null } : { direction, priceUsd };

  for (const trade of trades) {
    const [base, quote] = trade.symbol.split('/') as [string, string];
    const amount = new ExactDecimal(trade.amount);
    if (!base || !quote || amount.lte(0)) continue;
    const occurredAt = new Date(trade.timestamp);
    const quoteAmount = trade.cost !== undefined ? new ExactDecimal(trade.cost) : amount.times(trade.price);
    // The trade's USD value: from the quote's price; an unknown quote takes the base's price.
    const quotePrice = price(trade.id, quote, trade.timestamp);
    let basePriceUsd: string | null;
    let quotePriceUsd: string | null;
    if (quotePrice !== null) {
      basePriceUsd =
        trade.cost !== undefined
          ? text(
              quoteAmount
                .times(quotePrice)
                .div(amount)
                .toDecimalPlaces(DERIVED_PRICE_DECIMALS, ExactDecimal.ROUND_HALF_UP),
            )
          : text(new ExactDecimal(trade.price).times(quotePrice));
      quotePriceUsd = quotePrice;
    } else {
      basePriceUsd = price(trade.id, base, trade.timestamp);
      quotePriceUsd =
        basePriceUsd === null || quoteAmount.isZero()
          ? null
          : text(
              amount
                .times(basePriceUsd)
                .div(quoteAmount)
                .toDecimalPlaces(DERIVED_PRICE_DECIMALS, ExactDecimal.ROUND_HALF_UP),
            );
    }
    const feeCurrency = trade.fee?.currency;
    const feeCost = new ExactDecimal(trade.fee?.cost ?? 0);
    const fiatFee = feeCost.gt(0) && feeCurrency !== undefined && FIAT_CURRENCIES.has(feeCurrency);
    const baseLeg = trade.side === 'buy' ? inLeg('buy', basePriceUsd) : outLeg('sell', basePriceUsd);
    legs.push({
      transactionId: `trade:${trade.id}:${base}`,
      symbol: base,
      ...baseLeg,
      amount: text(amount),
      // A fee in money adds to the basis of a buy and reduces the proceeds of a sell.
      feeUsd:
        fiatFee && baseLeg.priceUsd !== null
          ? text(feeCost.times(price(trade.id, feeCurrency!, trade.timestamp)!))
          : null,
      occurredAt,
      transferId: null,
    });
    if (!FIAT_CURRENCIES.has(quote)) {
      // The other side of a crypto-for-crypto trade: the quote asset is sold (or bought) at its USD price.
      legs.push({
        transactionId: `trade:${trade.id}:${quote}`,
        symbol: quote,
        ...(trade.side === 'buy' ? outLeg('sell', quotePriceUsd) : inLeg('buy', quotePriceUsd)),
        amount: text(quoteAmount),
        feeUsd: null,
        occurredAt,
        transferId: null,
      });
    }
    if (feeCost.gt(0) && feeCurrency !== undefined && !fiatFee) {
      // A fee paid in a crypto asset disposes of that asset (docs/cost-basis.md, "fee").
      legs.push({
        transactionId: `trade:${trade.id}:fee`,
        symbol: feeCurrency,
        ...outLeg('fee', price(trade.id, feeCurrency, trade.timestamp)),
        amount: text(feeCost),
        feeUsd: null,
        occurredAt,
        transferId: null,
      });
    }
  }

  for (const entry of ledger) {
    const currency = entry.currency;
    if (!currency || FIAT_CURRENCIES.has(currency)) continue;
    const amount = new ExactDecimal(entry.amount).abs();
    const occurredAt = new Date(entry.timestamp);
    const kind = ledgerKind(entry);
    const fee = new ExactDecimal(entry.fee?.cost ?? 0);
    if (kind === 'none') continue;
    if (amount.gt(0)) {
      if (kind === 'reward') {
        legs.push({
          transactionId: `ledger:${entry.id}`,
          symbol: currency,
          ...inLeg('income', price(entry.id, currency, entry.timestamp)),
          amount: text(amount),
          feeUsd: null,
          occurredAt,
          transferId: null,
        });
      } else {
        const transferId = chainTransferId(entry.txid);
        legs.push({
          transactionId: `ledger:${entry.id}`,
          symbol: currency,
          direction: transferId === null ? kind : kind === 'deposit' ? 'transfer_in' : 'transfer_out',
          amount: text(amount),
          priceUsd: null,
          feeUsd: null,
          occurredAt,
          transferId,
        });
      }
    }
    if (fee.gt(0) && (entry.fee?.currency ?? currency) === currency) {
      legs.push({
        transactionId: `ledger:${entry.id}:fee`,
        symbol: currency,
        ...outLeg('fee', price(entry.id, currency, entry.timestamp)),
        amount: text(fee),
        feeUsd: null,
        occurredAt,
        transferId: null,
      });
    }
  }
  return legs.sort(
    (a, b) =>
      a.occurredAt.getTime() - b.occurredAt.getTime() ||
      (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0),
  );
}
