/**
 * Watch-only EVM accounts (issue 15 item 3, issue 30 items 2 and 3): one address on one chain of
 * the table (src/domain/chains/ethereum/evm-chains.ts: Ethereum, Base, Arbitrum One, OP Mainnet,
 * Polygon PoS), the account's `chain`. One connector for all of them: native, internal and ERC-20
 * transfers from an Etherscan-compatible API (v2, the chain's `chainid`), balances by JSON-RPC
 * through viem (`eth_getBalance`, ERC-20 `balanceOf`) on the chain's endpoint as the
 * source-reported quantities; on an OP-stack chain the L1 data fee of each sent transaction is read
 * from its receipt (`eth_getTransactionReceipt`, `l1Fee`). What each transfer means for the ledger
 * is decided in src/domain/chains/ethereum, swaps and wraps in src/domain/chains/swaps.ts. The
 * tokens moved are handed to the market store first (ensureTokenPrices, by the chain's CoinGecko
 * platform and contract), so a swap against a listed token can be valued from its price.
 *
 * Gas is a `fee` in the chain's gas asset (ETH, POL) priced with its stored daily price of the UTC
 * day; a swap's two sides are a `sell` and a `buy` at one value from the stored daily prices; a
 * wrap is a conversion pair; deposits and withdrawals carry no price. Native receipts and payments
 * are recorded as `transfer_in`/`transfer_out` with transferId `chain:<hash>` (an exchange leg of
 * the same transaction pairs with them); tokens are not.
 */
import { createPublicClient, erc20Abi, getAddress, http, isAddress, type PublicClient } from 'viem';
import {
  addressLegs,
  evmChain,
  EVM_PLATFORMS,
  unitsToDecimal,
  wrapPairOf,
  type AddressLeg,
  type EvmChain,
} from '../../../domain/chains/ethereum/index.js';
import { classifyWalletLegs } from '../../../domain/chains/swaps.js';
import { transferDirection } from '../../../domain/chains/transfer-id.js';
import type { ChainTokenRef, MarketPricesPort } from '../../../common/ports/market-prices.port.js';
import {
  singlePage,
  SourceUnavailableError,
  type ConnectorRequest,
  type ConnectorResult,
  type SourceConnector,
  type SourceDescription,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import type { EtherscanClient } from './etherscan.client.js';
import { ETHEREUM_SOURCE } from './ethereum.source.js';

export interface EthereumConnectorOptions {
  /** JSON-RPC endpoint per platform id; a chain not named uses its table default. */
  readonly rpcUrls?: Readonly<Record<string, string>>;
  readonly rpcTimeoutMs?: number;
}

/** Receipts asked for at once, sent as one JSON-RPC batch. */
const RECEIPTS_PER_BATCH = 50;
/** L1 fees kept in memory (a few MB at most); beyond, the cache starts over. */
const L1_FEE_CACHE_SIZE = 100_000;

export class EthereumConnector implements SourceConnector {
  private readonly rpcs = new Map<string, PublicClient>();
  /** `<chainId>:<hash>` → L1 data fee (wei) of receipts already read. */
  private readonly l1FeeCache = new Map<string, bigint>();

  constructor(
    private readonly etherscan: EtherscanClient,
    private readonly prices: Pick<MarketPricesPort, 'pricesOnDate' | 'ensureTokenPrices'>,
    private readonly options: EthereumConnectorOptions = {},
  ) {}

  describe(): SourceDescription {
    return ETHEREUM_SOURCE;
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const address = request.account.address;
    const chainId = request.account.chain ?? request.account.platform;
    const chain = evmChain(chainId);
    if (!chain) {
      throw new SourceUnavailableError(
        `The account's chain ${chainId} is not one this source reads (${EVM_PLATFORMS.join(', ')}).`,
      );
    }
    if (!address || !isAddress(address, { strict: false })) {
      throw new SourceUnavailableError(`The account has no valid ${chain.name} address.`);
    }
    const { signal } = request;
    const etherscan = this.etherscan.withChain(chain.chainId);
    const [normal, internal, tokens] = [
      await etherscan.normalTransactions(address, signal),
      await etherscan.internalTransactions(address, signal),
      await etherscan.tokenTransfers(address, signal),
    ];
    const l1Fees = chain.l1DataFee
      ? await this.l1Fees(
          chain,
          normal.filter((tx) => tx.from.toLowerCase() === address.toLowerCase()).map((tx) => tx.hash),
          signal,
        )
      : undefined;
    const legs = addressLegs(address, { normal, internal, tokens, l1Fees }, chain);
    await this.ensureTokenPrices(chain, legs, request.now);
    const transactions = await this.priced(chain, legs);
    return {
      status: 'ready',
      mode: 'full',
      pages: singlePage(transactions),
      reportedBalances: await this.balances(chain, getAddress(address), legs, signal),
    };
  }

  /**
   * Asks the market store for daily prices of the tokens the history moved (by chain and contract,
   * issue 30 item 4) from its first day to today, before swaps are valued with them. Never fails
   * the refresh: a token it cannot price now stays unpriced (docs/market-data.md, 5a).
   */
  private async ensureTokenPrices(chain: EvmChain, legs: readonly AddressLeg[], now: Date): Promise<void> {
    if (!this.prices.ensureTokenPrices || legs.length === 0) return;
    const tokens = new Map<string, ChainTokenRef>();
    for (const leg of legs) {
      if (leg.contractAddress)
        tokens.set(leg.symbol, {
          symbol: leg.symbol,
          platform: chain.coingeckoPlatform,
          contract: leg.contractAddress,
        });
    }
    if (tokens.size === 0) return;
    const first = legs.reduce(
      (min, leg) => (leg.occurredAt < min ? leg.occurredAt : min),
      legs[0]!.occurredAt,
    );
    await this.prices.ensureTokenPrices(
      [...tokens.values()],
      first.toISOString().slice(0, 10),
      now.toISOString().slice(0, 10),
    );
  }

  private rpc(chain: EvmChain): PublicClient {
    let client = this.rpcs.get(chain.platform);
    if (!client) {
      const url = this.options.rpcUrls?.[chain.platform] ?? chain.defaultRpcUrl;
      client = createPublicClient({
        transport: http(url, {
          timeout: this.options.rpcTimeoutMs ?? 15_000,
          retryCount: 0,
          batch: { batchSize: RECEIPTS_PER_BATCH },
        }),
      });
      this.rpcs.set(chain.platform, client);
    }
    return client;
  }

  private rpcFailure(chain: EvmChain, error: unknown, signal: AbortSignal): never {
    if (signal.aborted) throw signal.reason;
    throw new SourceUnavailableError(
      `The ${chain.name} JSON-RPC endpoint failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }

  /**
   * The L1 data fee (wei) of each hash, from its receipt's `l1Fee` (OP-stack chains). Receipts of
   * mined transactions never change, so fees already read are kept in memory (L1_FEE_CACHE_SIZE,
   * per process) and a refresh asks only for new ones, RECEIPTS_PER_BATCH to a JSON-RPC batch.
   */
  private async l1Fees(
    chain: EvmChain,
    hashes: readonly string[],
    signal: AbortSignal,
  ): Promise<Map<string, bigint>> {
    const fees = new Map<string, bigint>();
    const key = (hash: string) => `${chain.chainId}:${hash}`;
    const missing: string[] = [];
    for (const hash of new Set(hashes.map((h) => h.toLowerCase()))) {
      const known = this.l1FeeCache.get(key(hash));
      if (known === undefined) missing.push(hash);
      else fees.set(hash, known);
    }
    try {
      for (let start = 0; start < missing.length; start += RECEIPTS_PER_BATCH) {
        if (signal.aborted) throw signal.reason;
        const batch = missing.slice(start, start + RECEIPTS_PER_BATCH);
        const receipts = await Promise.all(
          batch.map(
            (hash) =>
              this.rpc(chain).request({
                method: 'eth_getTransactionReceipt',
                params: [hash as `0x${string}`],
              }) as Promise<{ l1Fee?: unknown } | null>,
          ),
        );
        receipts.forEach((receipt, i) => {
          const hash = batch[i]!;
          if (!receipt) throw new Error(`no receipt for ${hash}`);
          const l1Fee = receipt.l1Fee ?? '0x0';
          if (typeof l1Fee !== 'string' || !/^0x[0-9a-f]{1,64}$/i.test(l1Fee))
            throw new Error(`malformed l1Fee in the receipt of ${hash}`);
          fees.set(hash, BigInt(l1Fee));
          if (this.l1FeeCache.size >= L1_FEE_CACHE_SIZE) this.l1FeeCache.clear();
          this.l1FeeCache.set(key(hash), BigInt(l1Fee));
        });
      }
    } catch (error) {
      this.rpcFailure(chain, error, signal);
    }
    return fees;
  }

  /** The gas asset and every token the history touched, as the chain reports them now. */
  private async balances(
    chain: EvmChain,
    address: `0x${string}`,
    legs: readonly AddressLeg[],
    signal: AbortSignal,
  ): Promise<Map<string, string>> {
    const tokens = new Map<string, { symbol: string; decimals: number }>();
    for (const leg of legs) {
      if (leg.contractAddress)
        tokens.set(leg.contractAddress, { symbol: leg.symbol, decimals: leg.decimals });
    }
    try {
      const rpc = this.rpc(chain);
      const balances = new Map([[chain.gasAsset, unitsToDecimal(await rpc.getBalance({ address }), 18)]]);
      for (const [contract, token] of tokens) {
        if (signal.aborted) throw signal.reason;
        const units = await rpc.readContract({
          address: getAddress(contract),
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
        });
        balances.set(token.symbol, unitsToDecimal(units, token.decimals));
      }
      return balances;
    } catch (error) {
      this.rpcFailure(chain, error, signal);
    }
  }

  /**
   * The ledger's legs: swaps and wraps recognised (classifyWalletLegs), gas priced at the gas
   * asset's stored price of its UTC day (a missing one fails the refresh: the market history must
   * cover it), a swap valued from the stored prices of its day (neither side priced: kept as
   * deposit and withdrawal).
   */
  private async priced(chain: EvmChain, legs: readonly AddressLeg[]): Promise<SourceTransaction[]> {
    const dayOf = (at: Date) => at.toISOString().slice(0, 10);
    // Prices of the days of transactions that both send and receive (swap candidates) and of gas.
    const sides = new Map<string, Set<'in' | 'out'>>();
    for (const leg of legs) {
      if (leg.direction === 'fee') continue;
      const seen = sides.get(leg.hash) ?? new Set();
      seen.add(leg.direction === 'deposit' ? 'in' : 'out');
      sides.set(leg.hash, seen);
    }
    const wanted = new Map<string, Set<string>>();
    const want = (date: string, symbol: string) => {
      const symbols = wanted.get(date) ?? new Set();
      symbols.add(symbol);
      wanted.set(date, symbols);
    };
    for (const leg of legs) {
      if (leg.direction === 'fee') want(dayOf(leg.occurredAt), chain.gasAsset);
      else if (sides.get(leg.hash)!.size === 2) want(dayOf(leg.occurredAt), leg.symbol);
    }
    const stored = new Map<string, Map<string, string>>();
    for (const [date, symbols] of wanted)
      stored.set(date, await this.prices.pricesOnDate([...symbols], date));
    const priceOnDay = (symbol: string, date: string) => stored.get(date)?.get(symbol);

    const classified = classifyWalletLegs(legs, { wraps: [wrapPairOf(chain)], priceOnDay });
    return classified.map((leg) => {
      let priceUsd = leg.priceUsd;
      if (leg.direction === 'fee') {
        const date = dayOf(leg.occurredAt);
        priceUsd = priceOnDay(chain.gasAsset, date) ?? null;
        if (priceUsd === null) {
          throw new SourceUnavailableError(
            `No stored ${chain.gasAsset} price on or before ${date} for the gas of transaction ${leg.hash}; the market history must cover it.`,
          );
        }
      }
      const asIs = leg.direction === 'deposit' || leg.direction === 'withdrawal';
      return {
        transactionId: leg.transactionId,
        symbol: leg.symbol,
        direction: asIs ? transferDirection(leg.direction, leg.transferId) : leg.direction,
        amount: leg.amount,
        priceUsd,
        feeUsd: null,
        occurredAt: leg.occurredAt,
        transferId: leg.transferId,
      };
    });
  }
}
