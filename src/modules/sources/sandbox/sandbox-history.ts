/**
 * SYNTHETIC SANDBOX DATA: deterministic account histories for the sandbox tenants.
 *
 * Pure: a seed, account scripts and an end time in; transactions out. No clock, no
 * Math.random, no I/O. Trades are priced from the sandbox market model (sandbox-market.ts)
 * on the day they happen. The simulation walks day by day from 2020-01-01 and every draw
 * depends only on what came before, so the history up to a date never depends on how far it
 * is generated: a later refresh only adds the newer days (prefix-stable).
 *
 * All accounts of one household (one tenant) are simulated together, so a transfer out of one
 * account arrives on the other with the same transferId, and a sale never exceeds what the
 * account holds at that moment (except where a script asks for a history gap).
 */
import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { INBOUND_DIRECTIONS, type Direction } from '../../../domain/cost-basis/index.js';
import { generateDailyHistory } from '../../../domain/market/sandbox-market.js';
import { ExactDecimal, share } from '../../../domain/money/exact-decimal.js';
import { SANDBOX_HISTORY_START, sandboxAssetBySymbol } from '../../../domain/market/sandbox-assets.js';
import { SeededRandom } from '../../../domain/random/seeded-random.js';
import type { SourceTransaction } from '../connectors/source-connector.js';

const D = ExactDecimal;
type Dec = InstanceType<typeof D>;
const ZERO = new D(0);
const DAY_MS = 86_400_000;
const START_MS = Date.parse(`${SANDBOX_HISTORY_START}T00:00:00Z`);
/** Asset quantities are kept to the satoshi. */
const AMOUNT_DP = 8;

export type TransactionIdStyle = 'uuid' | 'kraken' | 'btc-hash' | 'eth-hash' | 'numbered';

export interface SandboxBuyPlan {
  /** Assets bought, with relative weights. */
  readonly symbols: readonly (readonly [symbol: string, weight: number])[];
  /** Mean days between buys (a buy happens on a day with probability 1/meanDays). */
  readonly meanDays: number;
  readonly usd: readonly [min: number, max: number];
  /** Exchange fee as a fraction of the notional (0.006 = 0.6 %). */
  readonly feeRate: string;
  /** Occasional larger purchases. */
  readonly lumpSum?: { readonly probability: number; readonly usd: readonly [number, number] };
}

export interface SandboxSellPlan {
  readonly meanDays: number;
  /** Share of the holding sold. */
  readonly fraction: readonly [number, number];
  readonly feeRate: string;
}

export interface SandboxTransferPlan {
  /** Key of the receiving account (same household). */
  readonly to: string;
  readonly symbol: string;
  readonly meanDays: number;
  readonly fraction: readonly [number, number];
  /** Quantity the network keeps: the transfer_in is this much smaller than the transfer_out. */
  readonly networkFee: string;
  /** Do not move less than this (keeps transfers realistic). */
  readonly minimum: string;
}

export interface SandboxAccountScript {
  readonly key: string;
  readonly kind: 'exchange' | 'wallet';
  readonly idStyle: TransactionIdStyle;
  /** First day of activity (YYYY-MM-DD). */
  readonly startDate: string;
  readonly buys?: SandboxBuyPlan;
  readonly sells?: SandboxSellPlan;
  /** Staking / interest rewards on the first of each month: holding × monthlyRate. */
  readonly income?: { readonly symbols: readonly string[]; readonly monthlyRate: number };
  /** Network fees paid in the asset itself (wallets): taxable `fee` disposals. */
  readonly networkFees?: {
    readonly symbol: string;
    readonly meanDays: number;
    readonly amount: readonly [number, number];
  };
  /** Receipts from outside the household (airdrops, gifts): unknown basis. */
  readonly deposits?: readonly { readonly date: string; readonly symbol: string; readonly amount: string }[];
  readonly transfers?: readonly SandboxTransferPlan[];
  /** Large sales on fixed dates (fraction of the holding). */
  readonly forcedSells?: readonly {
    readonly date: string;
    readonly symbol: string;
    readonly fraction: number;
  }[];
  /**
   * History gap: the source does not report the buys in [from, to). The simulation still makes
   * them, so later sales sell coins the reported history never received.
   */
  readonly gap?: { readonly from: string; readonly to: string };
  /**
   * SYNTHETIC reconciliation example (docs/sources.md, "Reconciliation"): the exchange reports
   * `amount` more `symbol` than the account's history holds (e.g. a reward it never listed as a
   * transaction), so the account shows a difference beyond dust and needs review. Only the
   * reported balances change; the history does not.
   */
  readonly reportedBalanceDrift?: { readonly symbol: string; readonly amount: string };
}

export interface GeneratedHistory {
  /** What the source reports, in time order. */
  readonly transactions: readonly SourceTransaction[];
  /** What the account really holds at the end (exchanges report this as their balance). */
  readonly trueBalances: ReadonlyMap<string, string>;
}

/** Daily sandbox prices by symbol, generated once per process and extended on demand. */
const priceCache = new Map<string, string[]>();

function dailyPrice(symbol: string, day: number): string {
  let prices = priceCache.get(symbol);
  if (!prices || prices.length <= day) {
    const asset = sandboxAssetBySymbol(symbol);
    if (!asset) throw new Error(`Sandbox history uses ${symbol}, which the sandbox market does not know`);
    // Generate a year ahead at once so day-by-day walks do not regenerate the path every day.
    const through = dateOf(Math.max(day + 365, prices?.length ?? 0));
    prices = generateDailyHistory(asset, SANDBOX_HISTORY_START, through).map((row) => row.priceUsd);
    priceCache.set(symbol, prices);
  }
  return prices[day];
}

function dateOf(day: number): string {
  return new Date(START_MS + day * DAY_MS).toISOString().slice(0, 10);
}

function dayOf(date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - START_MS) / DAY_MS);
}

function uniform(random: SeededRandom, [min, max]: readonly [number, number]): number {
  return min + (max - min) * random.next();
}

function floorAmount(value: Dec): Dec {
  return value.toDecimalPlaces(AMOUNT_DP, Decimal.ROUND_DOWN);
}

function cents(value: Dec): Dec {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

function text(value: Dec): string {
  return value.isZero() ? '0' : value.toFixed();
}

function hex(input: string): string {
  return createHash('sha256').update(input).digest('hex');
}

const KRAKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function transactionId(style: TransactionIdStyle, seed: string, key: string, n: number): string {
  const digest = hex(`${seed}:${key}:${n}`);
  switch (style) {
    case 'uuid':
      return `${digest.slice(0, 8)}-${digest.slice(8, 12)}-4${digest.slice(13, 16)}-a${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
    case 'kraken': {
      const chars = [...digest.slice(0, 32)].map(
        (c, i) => KRAKEN_ALPHABET[(parseInt(c, 16) + i * 7) % KRAKEN_ALPHABET.length],
      );
      return `T${chars.slice(0, 5).join('')}-${chars.slice(5, 10).join('')}-${chars.slice(10, 16).join('')}`;
    }
    case 'btc-hash':
      return digest;
    case 'eth-hash':
      return `0x${digest}`;
    case 'numbered':
      return `${key}-${String(n).padStart(6, '0')}`;
  }
}

/** A deterministic address for a sandbox wallet. */
export function sandboxAddress(chain: 'bitcoin' | 'ethereum', seed: string): string {
  const digest = hex(`address:${seed}`);
  if (chain === 'ethereum') return `0x${digest.slice(0, 40)}`;
  const bech32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  return `bc1q${[...digest.slice(0, 38)].map((c, i) => bech32[(parseInt(c, 16) * 3 + i) % 32]).join('')}`;
}

interface AccountState {
  readonly script: SandboxAccountScript;
  readonly random: SeededRandom;
  readonly holdings: Map<string, Dec>;
  readonly emitted: SourceTransaction[];
  counter: number;
}

/**
 * Simulates every account of one household from 2020-01-01 to `until` (inclusive) and returns
 * each account's reported history by key.
 */
export function generateSandboxHistories(
  seed: string,
  scripts: readonly SandboxAccountScript[],
  until: Date,
): Map<string, GeneratedHistory> {
  const states = new Map<string, AccountState>(
    scripts.map((script) => [
      script.key,
      {
        script,
        random: new SeededRandom(`${seed}:${script.key}`),
        holdings: new Map(),
        emitted: [],
        counter: 0,
      },
    ]),
  );
  const clock = new SeededRandom(`${seed}:time-of-day`);
  const lastDay = Math.floor((until.getTime() - START_MS) / DAY_MS);

  for (let day = 0; day <= lastDay; day++) {
    const date = dateOf(day);
    const dayStart = START_MS + day * DAY_MS;
    // One cursor per day for the whole household: events get strictly increasing times in the
    // order they are simulated, so the engine replays them exactly as they were decided.
    let cursorMs = dayStart + clock.int(20, 180) * 60_000;
    const nextTime = (): Date => {
      cursorMs = Math.min(cursorMs + clock.int(60, 1_200) * 1_000, dayStart + DAY_MS - 1_000);
      return new Date(cursorMs);
    };

    for (const state of states.values()) {
      const { script, random } = state;
      if (date < script.startDate) continue;
      const emit = (tx: Omit<SourceTransaction, 'transactionId'>) => {
        state.counter += 1;
        const quantity = new D(tx.amount);
        const held = state.holdings.get(tx.symbol) ?? ZERO;
        const inbound = INBOUND_DIRECTIONS.has(tx.direction);
        state.holdings.set(tx.symbol, inbound ? held.plus(quantity) : held.minus(quantity));
        const full: SourceTransaction = {
          ...tx,
          transactionId: transactionId(script.idStyle, seed, script.key, state.counter),
        };
        state.emitted.push(full);
        return full;
      };
      const held = (symbol: string) => state.holdings.get(symbol) ?? ZERO;
      const priced = (direction: Direction, symbol: string, amount: Dec, feeRate: string | null) => {
        const priceUsd = dailyPrice(symbol, day);
        const feeUsd = feeRate === null ? null : text(cents(amount.times(priceUsd).times(feeRate)));
        emit({
          symbol,
          direction,
          amount: text(amount),
          priceUsd,
          feeUsd,
          occurredAt: nextTime(),
          transferId: null,
        });
      };

      for (const deposit of script.deposits ?? []) {
        if (deposit.date !== date) continue;
        emit({
          symbol: deposit.symbol,
          direction: 'deposit',
          amount: deposit.amount,
          priceUsd: null,
          feeUsd: null,
          occurredAt: nextTime(),
          transferId: null,
        });
      }

      if (script.income && date.endsWith('-01')) {
        for (const symbol of script.income.symbols) {
          const reward = floorAmount(held(symbol).times(script.income.monthlyRate));
          if (reward.greaterThan(0)) priced('income', symbol, reward, null);
        }
      }

      if (script.buys && random.next() < 1 / script.buys.meanDays) {
        const plan = script.buys;
        const symbol = pickWeighted(random, plan.symbols);
        let usd = Math.round(uniform(random, plan.usd) / 10) * 10;
        if (plan.lumpSum && random.next() < plan.lumpSum.probability) {
          usd = Math.round(uniform(random, plan.lumpSum.usd) / 100) * 100;
        }
        const amount = floorAmount(share(usd, dailyPrice(symbol, day)));
        if (amount.greaterThan(0)) priced('buy', symbol, amount, plan.feeRate);
      }

      if (script.sells && random.next() < 1 / script.sells.meanDays) {
        const heldSymbols = [...state.holdings]
          .filter(([, quantity]) => quantity.greaterThan(0))
          .map(([s]) => s)
          .sort();
        if (heldSymbols.length > 0) {
          const symbol = heldSymbols[random.int(0, heldSymbols.length - 1)];
          const amount = floorAmount(held(symbol).times(uniform(random, script.sells.fraction)));
          if (amount.greaterThan(0)) priced('sell', symbol, amount, script.sells.feeRate);
        }
      }

      for (const forced of script.forcedSells ?? []) {
        if (forced.date !== date) continue;
        const amount = floorAmount(held(forced.symbol).times(forced.fraction));
        if (amount.greaterThan(0)) priced('sell', forced.symbol, amount, script.sells?.feeRate ?? '0.005');
      }

      if (script.networkFees && random.next() < 1 / script.networkFees.meanDays) {
        const { symbol } = script.networkFees;
        const amount = floorAmount(new D(uniform(random, script.networkFees.amount)));
        if (amount.greaterThan(0) && held(symbol).greaterThan(amount.times(10)))
          priced('fee', symbol, amount, null);
      }

      for (const transfer of script.transfers ?? []) {
        if (random.next() >= 1 / transfer.meanDays) continue;
        const amount = floorAmount(held(transfer.symbol).times(uniform(random, transfer.fraction)));
        if (amount.lessThan(transfer.minimum) || amount.lessThanOrEqualTo(transfer.networkFee)) continue;
        const target = states.get(transfer.to);
        if (!target)
          throw new Error(`Sandbox script ${script.key} transfers to unknown account ${transfer.to}`);
        const transferId = `xfer-${hex(`${seed}:${script.key}:${transfer.to}:${state.counter}`).slice(0, 20)}`;
        const sent = emit({
          symbol: transfer.symbol,
          direction: 'transfer_out',
          amount: text(amount),
          priceUsd: null,
          feeUsd: null,
          occurredAt: nextTime(),
          transferId,
        });
        // Arrives a few minutes later, minus the network fee.
        target.counter += 1;
        const received = amount.minus(transfer.networkFee);
        target.holdings.set(transfer.symbol, (target.holdings.get(transfer.symbol) ?? ZERO).plus(received));
        target.emitted.push({
          transactionId: transactionId(target.script.idStyle, seed, target.script.key, target.counter),
          symbol: transfer.symbol,
          direction: 'transfer_in',
          amount: text(received),
          priceUsd: null,
          feeUsd: null,
          occurredAt: new Date(Math.max(sent.occurredAt.getTime() + 60_000, nextTime().getTime())),
          transferId,
        });
      }
    }
  }

  const result = new Map<string, GeneratedHistory>();
  for (const { script, emitted } of states.values()) {
    const visible = emitted
      .filter((tx) => tx.occurredAt.getTime() <= until.getTime())
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
    const trueBalances = new Map<string, string>();
    const totals = new Map<string, Dec>();
    for (const tx of visible) {
      const sign = INBOUND_DIRECTIONS.has(tx.direction) ? 1 : -1;
      totals.set(tx.symbol, (totals.get(tx.symbol) ?? ZERO).plus(new D(tx.amount).times(sign)));
    }
    for (const [symbol, quantity] of [...totals].sort(([a], [b]) => (a < b ? -1 : 1)))
      trueBalances.set(symbol, text(quantity));
    const gap = script.gap;
    const reported = gap
      ? visible.filter(
          (tx) =>
            !(
              tx.direction === 'buy' &&
              tx.occurredAt.toISOString().slice(0, 10) >= gap.from &&
              tx.occurredAt.toISOString().slice(0, 10) < gap.to
            ),
        )
      : visible;
    result.set(script.key, { transactions: reported, trueBalances });
  }
  return result;
}

function pickWeighted(random: SeededRandom, options: readonly (readonly [string, number])[]): string {
  const total = options.reduce((sum, [, weight]) => sum + weight, 0);
  let point = random.next() * total;
  for (const [symbol, weight] of options) {
    point -= weight;
    if (point < 0) return symbol;
  }
  return options[options.length - 1][0];
}
