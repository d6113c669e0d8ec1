/**
 * Ethereum watch-only accounts (issue 15 item 3): one address; native ETH, internal transfers and
 * ERC-20 transfers from an Etherscan-compatible API, balances by JSON-RPC through viem
 * (`eth_getBalance`, ERC-20 `balanceOf`) as the source-reported quantities. What each transfer
 * means for the ledger is decided in src/domain/chains/ethereum. Gas is a `fee` priced with the
 * stored daily ETH price of its UTC day; deposits and withdrawals carry no price. Native ETH
 * receipts and payments are recorded as `transfer_in`/`transfer_out` with transferId
 * `chain:<hash>` (an exchange leg of the same transaction pairs with them); tokens are not.
 */
import { createPublicClient, erc20Abi, getAddress, http, isAddress, type PublicClient } from 'viem';
import { addressLegs, unitsToDecimal, type AddressLeg } from '../../../domain/chains/ethereum/index.js';
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
import type { EtherscanClient } from './etherscan.client.js';
import { ETHEREUM_SOURCE } from './ethereum.source.js';

export interface EthereumConnectorOptions {
  readonly rpcUrl: string;
  readonly rpcTimeoutMs?: number;
}

export class EthereumConnector implements SourceConnector {
  private readonly rpc: PublicClient;

  constructor(
    private readonly etherscan: EtherscanClient,
    private readonly prices: Pick<MarketPricesPort, 'pricesOnDate'>,
    options: EthereumConnectorOptions,
  ) {
    this.rpc = createPublicClient({
      transport: http(options.rpcUrl, { timeout: options.rpcTimeoutMs ?? 15_000, retryCount: 0 }),
    });
  }

  describe(): SourceDescription {
    return ETHEREUM_SOURCE;
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const address = request.account.address;
    if (!address || !isAddress(address, { strict: false })) {
      throw new SourceUnavailableError('The account has no valid Ethereum address.');
    }
    const { signal } = request;
    const [normal, internal, tokens] = [
      await this.etherscan.normalTransactions(address, signal),
      await this.etherscan.internalTransactions(address, signal),
      await this.etherscan.tokenTransfers(address, signal),
    ];
    const legs = addressLegs(address, { normal, internal, tokens });
    const transactions = await this.priced(legs);
    return {
      status: 'ready',
      mode: 'full',
      pages: singlePage(transactions),
      reportedBalances: await this.balances(getAddress(address), legs, signal),
    };
  }

  /** ETH and every token the history touched, as the chain reports them now. */
  private async balances(
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
      const balances = new Map([['ETH', unitsToDecimal(await this.rpc.getBalance({ address }), 18)]]);
      for (const [contract, token] of tokens) {
        if (signal.aborted) throw signal.reason;
        const units = await this.rpc.readContract({
          address: getAddress(contract),
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [address],
        });
        balances.set(token.symbol, unitsToDecimal(units, token.decimals));
      }
      return balances;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new SourceUnavailableError(
        `The Ethereum JSON-RPC endpoint failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
    }
  }

  private async priced(legs: readonly AddressLeg[]): Promise<SourceTransaction[]> {
    const priceByDate = new Map<string, string | undefined>();
    const out: SourceTransaction[] = [];
    for (const leg of legs) {
      let priceUsd: string | null = null;
      if (leg.direction === 'fee') {
        const date = leg.occurredAt.toISOString().slice(0, 10);
        if (!priceByDate.has(date))
          priceByDate.set(date, (await this.prices.pricesOnDate(['ETH'], date)).get('ETH'));
        const price = priceByDate.get(date);
        if (price === undefined) {
          throw new SourceUnavailableError(
            `No stored ETH price on or before ${date} for the gas of transaction ${leg.hash}; the market history must cover it.`,
          );
        }
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
