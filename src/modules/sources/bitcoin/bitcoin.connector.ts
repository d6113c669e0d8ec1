/**
 * Bitcoin watch-only accounts (issue 15 item 2): one address, or an extended public key whose used
 * addresses are found by the gap limit (receive and change chains). History and balances from an
 * Esplora API; what each transaction means for the wallet is decided in
 * src/domain/chains/bitcoin (deposits, withdrawals, network fees; own-address moves are no
 * disposal). A receipt from or payment to outside is recorded as a `transfer_in`/`transfer_out`
 * with transferId `chain:<txid>` (its transaction id keeps the `:deposit`/`:withdrawal` suffix), so
 * an exchange leg of the same chain transaction pairs with it. Fees and mining income need a USD price: the stored daily BTC price of that UTC day
 * (the last stored on or before it).
 */
import pLimit from 'p-limit';
import { DomainError } from '../../../common/errors/domain-error.js';
import {
  discoverAddresses,
  ExtendedKeyError,
  isBitcoinAddress,
  parseExtendedPublicKey,
  satsToBtc,
  walletHistory,
  type EsploraTransaction,
  type WalletLeg,
} from '../../../domain/chains/bitcoin/index.js';
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
import { BITCOIN_SOURCE } from './bitcoin.source.js';
import type { EsploraClient } from './esplora.client.js';

const SYMBOL = 'BTC';
/** Address lookups in flight at once during discovery: polite to a public API. */
const DISCOVERY_CONCURRENCY = 4;

export class BitcoinConnector implements SourceConnector {
  constructor(
    private readonly esplora: EsploraClient,
    private readonly prices: Pick<MarketPricesPort, 'pricesOnDate'>,
  ) {}

  describe(): SourceDescription {
    return BITCOIN_SOURCE;
  }

  /** Keeps the extended public key (checked: a public, account-level key of a known format). */
  accountOptions(options: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
    const xpub = options['xpub'];
    if (typeof xpub !== 'string') return null;
    try {
      parseExtendedPublicKey(xpub);
    } catch (error) {
      if (error instanceof ExtendedKeyError) throw DomainError.validation('xpub', error.message);
      throw error;
    }
    return { xpub: xpub.trim() };
  }

  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    const { signal } = request;
    const addresses = await this.walletAddresses(request);
    const transactions: EsploraTransaction[] = [];
    let balanceSats = 0n;
    for (const address of addresses) {
      const stats = await this.esplora.addressStats(address, signal);
      balanceSats += BigInt(stats.chain_stats.funded_txo_sum) - BigInt(stats.chain_stats.spent_txo_sum);
      for await (const page of this.esplora.confirmedTransactions(address, signal))
        transactions.push(...page);
    }
    const legs = walletHistory(transactions, new Set(addresses));
    return {
      status: 'ready',
      mode: 'full',
      pages: singlePage(await this.priced(legs)),
      reportedBalances: new Map([[SYMBOL, satsToBtc(balanceSats)]]),
    };
  }

  /** The wallet's addresses: the one watched, or the used ones of its extended key. */
  private async walletAddresses(request: ConnectorRequest): Promise<string[]> {
    const xpub = request.account.sourceOptions?.['xpub'];
    if (typeof xpub === 'string') {
      const key = parseExtendedPublicKey(xpub);
      const limit = pLimit(DISCOVERY_CONCURRENCY);
      const found = await discoverAddresses(key, (address) =>
        limit(async () => {
          const stats = await this.esplora.addressStats(address, request.signal);
          return stats.chain_stats.tx_count + stats.mempool_stats.tx_count > 0;
        }),
      );
      return found.used.map((used) => used.address);
    }
    const address = request.account.address;
    if (!address || !isBitcoinAddress(address)) {
      throw new SourceUnavailableError(
        'The account has neither a valid bitcoin address nor an extended public key.',
      );
    }
    return [address];
  }

  /** Source transactions, with the day's stored BTC price on fees and income. */
  private async priced(legs: readonly WalletLeg[]): Promise<SourceTransaction[]> {
    const priceByDate = new Map<string, string | undefined>();
    for (const leg of legs) {
      if (leg.direction !== 'fee' && leg.direction !== 'income') continue;
      const date = leg.occurredAt.toISOString().slice(0, 10);
      if (!priceByDate.has(date))
        priceByDate.set(date, (await this.prices.pricesOnDate([SYMBOL], date)).get(SYMBOL));
    }
    return legs.map((leg) => {
      const date = leg.occurredAt.toISOString().slice(0, 10);
      const needsPrice = leg.direction === 'fee' || leg.direction === 'income';
      const priceUsd = needsPrice ? priceByDate.get(date) : undefined;
      if (needsPrice && priceUsd === undefined) {
        throw new SourceUnavailableError(
          `No stored BTC price on or before ${date} for the ${leg.direction} of transaction ${leg.txid}; the market history must cover it.`,
        );
      }
      return {
        transactionId: leg.transactionId,
        symbol: SYMBOL,
        direction: transferDirection(leg.direction, leg.transferId),
        amount: leg.amount,
        priceUsd: priceUsd ?? null,
        feeUsd: null,
        occurredAt: leg.occurredAt,
        transferId: leg.transferId,
      };
    });
  }
}
