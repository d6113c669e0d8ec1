/**
 * Reconciliation (issue 15): where a source reports an account's balances itself (exchanges,
 * chain APIs), each asset's source-reported quantity is set against the quantity its transactions
 * account for. Exact decimals throughout; pure (no clock, no I/O).
 *
 * Dust rule (docs/sources.md, "Reconciliation"): a difference is dust when its absolute value is
 * at most the asset's dust threshold: `DUST_THRESHOLDS[symbol]`, else `DEFAULT_DUST_THRESHOLD`
 * (0.00000001, one satoshi: the finest unit exchanges round balances to). Anything beyond it makes
 * the account need review.
 */
import { toExact } from '../money/exact-decimal.js';
import { canonicalDecimal } from '../money/format.js';

/** One asset's reconciliation. `difference` = `reported` − `calculated` (positive: the source holds more). */
export interface AssetReconciliation {
  readonly symbol: string;
  readonly reported: string;
  readonly calculated: string;
  readonly difference: string;
  /** |difference| is at most the asset's dust threshold. */
  readonly withinDust: boolean;
}

/** Absolute dust per asset where the default does not fit (USD-pegged assets: a cent). */
export const DUST_THRESHOLDS: Readonly<Record<string, string>> = {
  USD: '0.01',
  USDC: '0.01',
  USDT: '0.01',
  DAI: '0.01',
  PYUSD: '0.01',
};

/** One satoshi: an exchange's rounding of a balance stays within it. */
export const DEFAULT_DUST_THRESHOLD = '0.00000001';

export function dustThreshold(symbol: string): string {
  return DUST_THRESHOLDS[symbol] ?? DEFAULT_DUST_THRESHOLD;
}

/**
 * Per asset (byte order of the symbol), every asset the source reports or the transactions hold:
 * an asset missing on one side counts as 0 there.
 */
export function reconcileBalances(
  reported: Readonly<Record<string, string>>,
  calculated: readonly { readonly symbol: string; readonly quantity: string }[],
): AssetReconciliation[] {
  const held = new Map(calculated.map((a) => [a.symbol, a.quantity]));
  const symbols = [...new Set([...Object.keys(reported), ...held.keys()])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return symbols.map((symbol) => {
    const source = toExact(reported[symbol] ?? '0');
    const history = toExact(held.get(symbol) ?? '0');
    const difference = source.minus(history);
    return {
      symbol,
      reported: canonicalDecimal(source),
      calculated: canonicalDecimal(history),
      difference: canonicalDecimal(difference),
      withinDust: difference.abs().lte(toExact(dustThreshold(symbol))),
    };
  });
}

/**
 * Why the account needs review, naming every asset beyond dust with its amounts; null when every
 * difference is dust.
 */
export function reconciliationReviewReason(reconciliation: readonly AssetReconciliation[]): string | null {
  const beyond = reconciliation.filter((r) => !r.withinDust);
  if (beyond.length === 0) return null;
  const parts = beyond.map(
    (r) =>
      `${r.symbol}: the source reports ${r.reported}, the transactions account for ${r.calculated} (difference ${r.difference})`,
  );
  return `Source-reported balances disagree with the transactions beyond dust: ${parts.join('; ')}.`.slice(
    0,
    1000,
  );
}
