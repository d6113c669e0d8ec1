/**
 * Solana watch-only accounts (issue 30 item 1): one address; SOL, SPL tokens of both token
 * programs, fees and staking rewards over Solana JSON-RPC (SolanaRpcClient). What each transaction
 * means for the ledger is decided in src/domain/chains/solana. This connector only finds what to
 * read:
 *
 * - the signatures of the address, and of every token account it owns: those
 *   `getTokenAccountsByOwner` lists now (both programs) and those its own transactions show it
 *   owning (a closed one included), so a token receipt that names only the token account is seen;
 * - each transaction once (`getTransaction`, jsonParsed, version 0); one without a `blockTime`
 *   (old ledger history) dated by `getBlockTime` of its slot;
 * - its stake accounts: those its transactions name with the address as an authority
 *   (stakeAccountsOf), and their inflation rewards per epoch from the first epoch one appears in
 *   to the last completed one (`getInflationReward`, dated by `getBlockTime` of the paying slot);
 * - balances as the chain reports them now: SOL = the address's `getBalance` + its stake
 *   accounts' + the lamports of its token accounts (rent, wSOL), each token by mint.
 *
 * Every mint moved or held is handed to the market store's ensureTokenPrices (by mint, platform
 * `solana`) so tokens get daily prices where the market provider knows them.
 *
 * Fees and rewards carry the stored daily SOL price of their UTC day (the last stored on or before
 * it); deposits and withdrawals none. A leg with a chain transfer id is stored as a
 * `transfer_in`/`transfer_out` (an exchange's leg naming the same signature pairs with it).
 */
import pLimit from 'p-limit';
import {
  epochOfSlot,
  isSolanaAddress,
  KNOWN_MINTS,
  lamportsToSol,
  baseUnitsToDecimal,
  MalformedSolanaError,
  ownTokenAccountsOf,
  rewardLegs,
  sortLegs,
  stakeAccountsOf,
  transactionLegs,
  unknownMintSymbol,
  WSOL_MINT,
  type SolanaInflationReward,
  type SolanaLeg,
  type SolanaTransaction,
} from '../../../domain/chains/solana/index.js';
import { classifyWalletLegs } from '../../../domain/chains/swaps.js';
import { transferDirection } from '../../../domain/chains/transfer-id.js';
import type { MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import {
  singlePage,
  SourceUnavailableError,
  type ConnectorRequest,
  type ConnectorResult,
  type SourceConnector,
  type SourceDescription,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import type { SolanaRpcClient, TokenAccount } from './solana-rpc.client.js';
import { SOLANA_SOURCE } from './solana.source.js';

const SYMBOL = 'SOL';
/** getTransaction calls in flight at once: polite to a public endpoint (100 requests / 10 s). */
const TRANSACTION_CONCURRENCY = 4;
/** The whole history of a busy wallet is many calls: the engine waits this long for it. */
export const SOLANA_SYNC_TIMEOUT_MS = 300_000;

export class SolanaConnector implements SourceConnector {
  constructor(
    private readonly rpc: SolanaRpcClient,
    private readonly prices: Pick<MarketPricesPort, 'pricesOnDate' | 'ensureTokenPrices'>,
  ) {}

  describe(): SourceDescription {
    return SOLANA_SOURCE;
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const address = request.account.address;
    if (!address || !isSolanaAddress(address))
      throw new SourceUnavailableError('The account has no valid Solana address.');
    const { signal } = request;
    const transactions = new Map<string, SolanaTransaction>();
    const limit = pLimit(TRANSACTION_CONCURRENCY);
    const read = async (account: string) => {
      const signatures = (await this.rpc.signatures(account, signal)).map((row) => row.signature);
      const wanted = [...new Set(signatures)].filter((signature) => !transactions.has(signature));
      // The first failure ends the read: queued requests are dropped, those in flight aborted.
      const stop = new AbortController();
      const reading = AbortSignal.any([signal, stop.signal]);
      let fetched: SolanaTransaction[];
      try {
        fetched = await Promise.all(
          wanted.map((signature) => limit(() => this.rpc.transaction(signature, reading))),
        );
      } catch (error) {
        limit.clearQueue();
        stop.abort();
        throw error;
      }
      for (const [i, tx] of fetched.entries()) {
        // Old transactions may carry no blockTime: the block's own time dates them.
        const blockTime =
          typeof tx.blockTime === 'number' ? tx.blockTime : await this.rpc.blockTime(tx.slot, signal);
        transactions.set(wanted[i]!, blockTime === tx.blockTime ? tx : { ...tx, blockTime });
      }
    };

    await read(address);
    const tokenAccounts = await this.rpc.tokenAccounts(address, signal);
    const ownTokenAccounts = new Set(tokenAccounts.map((account) => account.pubkey));
    for (const tx of transactions.values())
      for (const account of ownTokenAccountsOf(address, tx)) ownTokenAccounts.add(account);
    for (const account of [...ownTokenAccounts].sort()) await read(account);

    const history = [...transactions.values()];
    try {
      const stakeAccounts = stakeAccountsOf(address, history);
      const legs = [
        ...transactionLegs(address, history, {
          stakeAccounts,
          tokenAccounts: tokenAccounts.map((account) => account.pubkey),
        }),
        ...rewardLegs(await this.rewards(history, stakeAccounts, signal)),
      ];
      await this.ensureTokenPrices(address, legs, tokenAccounts, request.now);
      return {
        status: 'ready',
        mode: 'full',
        pages: singlePage(await this.priced(sortLegs(legs))),
        reportedBalances: await this.balances(address, stakeAccounts, tokenAccounts, legs, signal),
      };
    } catch (error) {
      if (error instanceof MalformedSolanaError)
        throw new SourceUnavailableError(`Solana RPC answered a malformed transaction: ${error.message}`);
      throw error;
    }
  }

  /**
   * The stake accounts' inflation rewards, epoch by epoch, from the epoch of the first transaction
   * naming one of them to the last completed epoch (rewards of epoch E are paid at E + 1's start).
   */
  private async rewards(
    history: readonly SolanaTransaction[],
    stakeAccounts: readonly string[],
    signal: AbortSignal,
  ): Promise<SolanaInflationReward[]> {
    if (stakeAccounts.length === 0) return [];
    const stake = new Set(stakeAccounts);
    const firstSlot = Math.min(
      ...history
        .filter((tx) => tx.transaction.message.accountKeys.some((key) => stake.has(key.pubkey)))
        .map((tx) => tx.slot),
    );
    const schedule = await this.rpc.epochSchedule(signal);
    const current = await this.rpc.currentEpoch(signal);
    const rewards: SolanaInflationReward[] = [];
    const blockTimes = new Map<number, number>();
    for (let epoch = epochOfSlot(firstSlot, schedule); epoch < current; epoch++) {
      const answers = await this.rpc.inflationRewards(stakeAccounts, epoch, signal);
      for (const [i, reward] of answers.entries()) {
        if (!reward) continue;
        if (!blockTimes.has(reward.effectiveSlot))
          blockTimes.set(reward.effectiveSlot, await this.rpc.blockTime(reward.effectiveSlot, signal));
        rewards.push({
          account: stakeAccounts[i]!,
          epoch: reward.epoch,
          amount: reward.amount,
          effectiveSlot: reward.effectiveSlot,
          blockTime: blockTimes.get(reward.effectiveSlot)!,
        });
      }
    }
    return rewards;
  }

  /**
   * Asks the market store to hold daily prices of every mint the wallet moved or holds, from its
   * first leg's day to today (docs/market-data.md, 5a): by mint on CoinGecko's `solana` platform.
   * A mint it cannot price stays unpriced (never a failure): its legs carry no price anyway.
   */
  private async ensureTokenPrices(
    address: string,
    legs: readonly SolanaLeg[],
    tokenAccounts: readonly TokenAccount[],
    now: Date,
  ): Promise<void> {
    if (!this.prices.ensureTokenPrices) return;
    const mints = new Map<string, string>();
    for (const leg of legs) if (leg.mint) mints.set(leg.mint, leg.symbol);
    for (const account of tokenAccounts)
      if (account.owner === address && account.mint !== WSOL_MINT && account.tokenAmount?.amount !== '0')
        mints.set(account.mint, KNOWN_MINTS.get(account.mint)?.symbol ?? unknownMintSymbol(account.mint));
    if (mints.size === 0) return;
    const today = now.toISOString().slice(0, 10);
    const first = legs.reduce<Date | null>(
      (min, leg) => (!min || leg.occurredAt < min ? leg.occurredAt : min),
      null,
    );
    await this.prices.ensureTokenPrices(
      [...mints].map(([contract, symbol]) => ({ symbol, platform: 'solana', contract })),
      first ? first.toISOString().slice(0, 10) : today,
      today,
    );
  }

  /** SOL of the whole wallet and every token it holds or its history touched, as the chain reports now. */
  private async balances(
    address: string,
    stakeAccounts: readonly string[],
    tokenAccounts: readonly TokenAccount[],
    legs: readonly SolanaLeg[],
    signal: AbortSignal,
  ): Promise<Map<string, string>> {
    let lamports = await this.rpc.balance(address, signal);
    for (const account of stakeAccounts) lamports += await this.rpc.balance(account, signal);
    const tokens = new Map<string, { symbol: string; decimals: number; units: bigint }>();
    for (const leg of legs)
      if (leg.mint) tokens.set(leg.mint, { symbol: leg.symbol, decimals: leg.decimals, units: 0n });
    for (const account of tokenAccounts) {
      if (account.owner !== address) continue;
      lamports += account.lamports;
      if (account.mint === WSOL_MINT) continue;
      const units = /^\d{1,30}$/.test(account.tokenAmount?.amount ?? '')
        ? BigInt(account.tokenAmount.amount)
        : null;
      const decimals = account.tokenAmount?.decimals;
      if (units === null || !Number.isInteger(decimals) || decimals < 0 || decimals > 30)
        throw new SourceUnavailableError(
          `Solana RPC answered a malformed balance of token account ${account.pubkey}.`,
        );
      const token = tokens.get(account.mint) ?? {
        symbol: KNOWN_MINTS.get(account.mint)?.symbol ?? unknownMintSymbol(account.mint),
        decimals,
        units: 0n,
      };
      token.units += units;
      tokens.set(account.mint, token);
    }
    const balances = new Map([[SYMBOL, lamportsToSol(lamports)]]);
    for (const token of tokens.values())
      balances.set(token.symbol, baseUnitsToDecimal(token.units, token.decimals));
    return balances;
  }

  /**
   * Source transactions, with the day's stored SOL price on fees and rewards, and swaps read as
   * trades by the chain-agnostic rule the EVM chains use (src/domain/chains/swaps.ts): what left
   * valued at its stored daily price (else what arrived at its own); neither priced: the legs stay
   * a withdrawal and a deposit. wSOL is SOL already, so there are no wraps to recognise.
   */
  private async priced(legs: readonly SolanaLeg[]): Promise<SourceTransaction[]> {
    const dayOf = (at: Date) => at.toISOString().slice(0, 10);
    const swapLegs = legs.filter(
      (leg) => leg.swap && (leg.direction === 'deposit' || leg.direction === 'withdrawal'),
    );
    const wanted = new Map<string, Set<string>>();
    for (const leg of swapLegs) {
      const symbols = wanted.get(dayOf(leg.occurredAt)) ?? new Set<string>();
      symbols.add(leg.symbol);
      wanted.set(dayOf(leg.occurredAt), symbols);
    }
    const stored = new Map<string, Map<string, string>>();
    for (const [date, symbols] of wanted)
      stored.set(date, await this.prices.pricesOnDate([...symbols], date));
    const swaps = new Map(
      classifyWalletLegs(
        swapLegs.map((leg) => ({
          transactionId: leg.transactionId,
          hash: leg.signature,
          direction: leg.direction as 'deposit' | 'withdrawal',
          symbol: leg.symbol,
          amount: leg.amount,
          occurredAt: leg.occurredAt,
          transferId: null,
        })),
        { wraps: [], priceOnDay: (symbol, date) => stored.get(date)?.get(symbol) },
      ).map((leg) => [leg.transactionId, leg]),
    );

    const priceByDate = new Map<string, string | undefined>();
    const out: SourceTransaction[] = [];
    for (const leg of legs) {
      const swap = swaps.get(leg.transactionId);
      if (swap) {
        out.push({
          transactionId: leg.transactionId,
          symbol: leg.symbol,
          direction: swap.direction as SourceTransaction['direction'],
          amount: leg.amount,
          priceUsd: swap.priceUsd,
          feeUsd: null,
          occurredAt: leg.occurredAt,
          transferId: swap.transferId,
        });
        continue;
      }
      let priceUsd: string | null = null;
      if (leg.direction === 'fee' || leg.direction === 'income') {
        const date = dayOf(leg.occurredAt);
        if (!priceByDate.has(date))
          priceByDate.set(date, (await this.prices.pricesOnDate([SYMBOL], date)).get(SYMBOL));
        const price = priceByDate.get(date);
        if (price === undefined)
          throw new SourceUnavailableError(
            `No stored SOL price on or before ${date} for the ${leg.direction} of ${leg.signature}; the market history must cover it.`,
          );
        priceUsd = price;
      }
      out.push({
        transactionId: leg.transactionId,
        symbol: leg.symbol,
        direction: transferDirection(leg.direction, leg.transferId),
        amount: leg.amount,
        priceUsd,
        feeUsd: null,
        occurredAt: leg.occurredAt,
        transferId: leg.transferId,
      });
    }
    return out;
  }
}
