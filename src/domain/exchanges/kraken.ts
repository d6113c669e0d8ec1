/**
 * Kraken's own vocabulary, in ONE place for both ways a Kraken history comes in (docs/sources.md,
 * "Kraken: one table for the API and the export files"): the exchange source (ccxt's Kraken class
 * against the REST API: Ledgers, BalanceEx, TradesHistory) and the export files (`ledgers.csv`,
 * `trades.csv`). Both read an asset code and a ledger entry's type and subtype the same way, so an
 * account linked by API key and the same account imported from a file give the same ledger.
 *
 * - Asset codes: Kraken's legacy X/Z-prefixed codes and its own names become the tickers the
 *   ledger and the market store use (XXBT → BTC, XETH → ETH, ETH2 → ETH). A suffix names the
 *   wallet the coins sit in, not another asset (Kraken's "What is Asset.S and Asset.M?"; its
 *   Ledgers documentation for `.B` and `.F`): `.S` staked, `.M` opt-in rewards, `.B`
 *   yield-bearing (bonded) Earn, `.F` auto-earning Kraken Rewards, `.P` parachain, `.HOLD` held
 *   fiat, with an optional two-digit lock term before it (`DOT28.S`). So `ETH2.S` is ETH and
 *   `DOT.S` is DOT; the wallet is kept beside the ticker (krakenAssetCode) for what sums wallets.
 * - Ledger entries: `krakenLedgerMeaning` says what a row of a type and subtype means. Moves
 *   between the client's own Kraken wallets (Earn allocation, deallocation, migration and
 *   autoallocation; spot↔staking and spot↔futures transfers) mean nothing for the ledger: the
 *   coins stay the client's, in the same account. Only rewards are income, and a negative amount
 *   never is.
 *
 * Pure: strings in, strings out.
 */
import type { ExchangeLedgerEntry, LedgerEntryKind } from './exchange-history.js';

/** Kraken's legacy X/Z-prefixed codes and its own names, as the tickers the ledger uses. */
const ALIASES: Readonly<Record<string, string>> = {
  XXBT: 'BTC',
  XBT: 'BTC',
  XETH: 'ETH',
  ETH2: 'ETH',
  XXDG: 'DOGE',
  XDG: 'DOGE',
  XLTC: 'LTC',
  XXRP: 'XRP',
  XXLM: 'XLM',
  XETC: 'ETC',
  XXMR: 'XMR',
  XZEC: 'ZEC',
  XREP: 'REP',
  XMLN: 'MLN',
  ZUSD: 'USD',
  ZEUR: 'EUR',
  ZGBP: 'GBP',
  ZCAD: 'CAD',
  ZJPY: 'JPY',
  ZAUD: 'AUD',
  ZCHF: 'CHF',
};

/** The wallet a Kraken balance or ledger row is in, by the asset code's suffix. */
export type KrakenWallet =
  'spot' | 'staked' | 'opt_in_rewards' | 'bonded' | 'auto_earn' | 'parachain' | 'held';

const WALLETS: Readonly<Record<string, KrakenWallet>> = {
  S: 'staked',
  M: 'opt_in_rewards',
  B: 'bonded',
  F: 'auto_earn',
  P: 'parachain',
  HOLD: 'held',
};

const SUFFIXED = /^([A-Z0-9]+?)(\d{2})?\.(S|M|B|F|P|HOLD)$/;

/** `ETH2.S` → {symbol: ETH, wallet: staked}; `XXBT` → {BTC, spot}; `DOT28.S` → {DOT, staked}. */
export function krakenAssetCode(raw: string): { readonly symbol: string; readonly wallet: KrakenWallet } {
  const code = raw.trim().toUpperCase();
  const suffixed = SUFFIXED.exec(code);
  const base = suffixed ? suffixed[1] : code;
  return { symbol: ALIASES[base] ?? base, wallet: suffixed ? WALLETS[suffixed[3]] : 'spot' };
}

/** The ledger ticker of a Kraken asset code, whatever wallet it is in: `XXBT`, `XBT.M` → BTC. */
export function krakenAsset(raw: string): string {
  return krakenAssetCode(raw).symbol;
}

const QUOTES = [
  'ZUSD',
  'ZEUR',
  'ZGBP',
  'ZCAD',
  'ZJPY',
  'XXBT',
  'XETH',
  'USDT',
  'USDC',
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'JPY',
  'AUD',
  'CHF',
  'XBT',
  'ETH',
  'DAI',
  'DOT',
];

/** `XXBTZUSD` → [BTC, USD]; `ETHXBT` → [ETH, BTC]; `SOL/USD` → [SOL, USD]; null when no quote is known. */
export function krakenPair(pair: string): [string, string] | null {
  const text = pair.trim().toUpperCase();
  if (text.includes('/')) {
    const [baseCode, quoteCode] = text.split('/');
    return baseCode && quoteCode ? [krakenAsset(baseCode), krakenAsset(quoteCode)] : null;
  }
  if (/^X[A-Z]{3}[XZ][A-Z]{3}$/.test(text) && (ALIASES[text.slice(0, 4)] || ALIASES[text.slice(4)]))
    return [krakenAsset(text.slice(0, 4)), krakenAsset(text.slice(4))];
  for (const quote of QUOTES) {
    if (text.endsWith(quote) && text.length > quote.length)
      return [krakenAsset(text.slice(0, -quote.length)), krakenAsset(quote)];
  }
  return null;
}

/**
 * What a Ledgers row means:
 * - `trade`: a leg of a trade (its `refid` groups the legs);
 * - `deposit`, `withdrawal`: coins in from or out to outside Kraken (by the amount's sign);
 * - `reward`: income at the day's price (staking, Earn rewards, dividends, bonuses, airdrops);
 * - `internal`: coins moving between the client's own Kraken wallets, nothing for the ledger;
 * - `not_income`: a reward type with a negative amount, which is never income: left out;
 * - `delisting`: a `transfer` out without a move subtype (coins Kraken removed), a withdrawal;
 * - `unsupported`: margin, rollover, settled, adjustment, sale, credit, conversion, NFTs, and a
 *   subtype of `earn` not listed here.
 */
export type KrakenLedgerMeaning =
  'trade' | 'deposit' | 'withdrawal' | 'reward' | 'internal' | 'not_income' | 'delisting' | 'unsupported';

/** Types whose rows are rewards whatever their subtype. */
const REWARD_TYPES = new Set(['staking', 'reward', 'dividend', 'invite bonus']);
/** `earn` subtypes: the reward, and the moves between Kraken's own wallets. */
export const KRAKEN_EARN_SUBTYPES: Readonly<Record<string, 'reward' | 'internal'>> = {
  reward: 'reward',
  allocation: 'internal',
  deallocation: 'internal',
  migration: 'internal',
  autoallocation: 'internal',
};
/** `transfer` subtypes between Kraken's own wallets (spot, staking, futures). */
const TRANSFER_MOVES = new Set([
  'spottostaking',
  'stakingfromspot',
  'stakingtospot',
  'spotfromstaking',
  'spotfromfutures',
  'spottofutures',
]);
/** The `type` values a Kraken ledger row may have that this service reads. */
export const KRAKEN_LEDGER_TYPES = [
  'trade',
  'spend',
  'receive',
  'deposit',
  'withdrawal',
  'staking',
  'reward',
  'earn',
  'dividend',
  'invite bonus',
  'transfer',
];

/**
 * What a Ledgers row of this type and subtype means (both compared case-insensitively), given
 * whether its amount entered (`in`, >= 0) or left (`out`, < 0) the wallet it is booked on.
 */
export function krakenLedgerMeaning(type: string, subtype: string, flow: 'in' | 'out'): KrakenLedgerMeaning {
  const kind = type.trim().toLowerCase();
  const sub = subtype.trim().toLowerCase();
  if (kind === 'trade' || kind === 'spend' || kind === 'receive') return 'trade';
  // The sign says which way the coins went (a reversed deposit leaves, a returned withdrawal comes back).
  if (kind === 'deposit' || kind === 'withdrawal') return flow === 'in' ? 'deposit' : 'withdrawal';
  if (kind === 'earn') {
    const meaning = KRAKEN_EARN_SUBTYPES[sub];
    if (meaning === undefined) return 'unsupported';
    if (meaning === 'internal') return 'internal';
    return flow === 'in' ? 'reward' : 'not_income';
  }
  if (REWARD_TYPES.has(kind)) return flow === 'in' ? 'reward' : 'not_income';
  if (kind === 'transfer') {
    if (TRANSFER_MOVES.has(sub)) return 'internal';
    // No move subtype: an airdrop or a fork's coins arriving, or a delisted asset leaving.
    return flow === 'in' ? 'reward' : 'delisting';
  }
  return 'unsupported';
}

/**
 * The exchange source's reading of a Kraken ledger entry from ccxt (its `info` is Kraken's raw
 * row: `type`, `subtype`, the signed `amount`): the same table as the export file. Trade legs are
 * left out (TradesHistory gives the trades), and so is what the ledger cannot take.
 */
export function krakenLedgerKind(entry: ExchangeLedgerEntry): LedgerEntryKind {
  const info = entry.info ?? {};
  const raw = String(info['amount'] ?? '');
  const flow = raw.trim().startsWith('-') || entry.direction === 'out' ? 'out' : 'in';
  // A row from the deposit and withdrawal lists (no ledger) has no raw type: ccxt's says it.
  const type = typeof info['type'] === 'string' ? info['type'] : entry.type;
  const meaning = krakenLedgerMeaning(type, String(info['subtype'] ?? ''), flow);
  switch (meaning) {
    case 'deposit':
    case 'withdrawal':
    case 'reward':
      return meaning;
    case 'delisting':
      return 'withdrawal';
    default:
      return 'none';
  }
}
