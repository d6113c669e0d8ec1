/**
 * Sources (design §5): where account histories come from. The SourceConnector interface and its
 * registry, one folder per source (sandbox/, csv/; exchanges and chains join the same way), the
 * credentials cipher, and the refresh engine (refresh/: when and what to refresh in RefreshService,
 * fetch with timeout in SourceFetcher) with its scheduler.
 *
 * Owns: fetching. A fetched or imported history is handed to the ledger's LedgerWriter, which
 * takes the lease, writes it and recomputes the balances; sources never writes the ledger itself. Never: calls a source inside a database transaction, returns or
 * logs credentials, or queries without a tenant id (the scheduler's claim says so in its name).
 */
import { Module } from '@nestjs/common';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { AppConfig } from '../../config/app-config.js';
import { JobsModule } from '../jobs/index.js';
import { LedgerModule } from '../ledger/index.js';
import { MarketModule } from '../market/index.js';
import { BitcoinConnector } from './bitcoin/bitcoin.connector.js';
import { EsploraClient } from './bitcoin/esplora.client.js';
import { ConnectorRegistry } from './connectors/connector.registry.js';
import { CredentialsCipher } from './credentials/credentials-cipher.js';
import { CsvConnector } from './csv/csv.connector.js';
import { EthereumConnector } from './ethereum/ethereum.connector.js';
import { EtherscanClient } from './ethereum/etherscan.client.js';
import { checkGenericIds } from './exchange/ccxt-exchange.js';
import {
  EXCHANGE_REQUEST_TIMEOUT_MS,
  EXCHANGE_SYNC_TIMEOUT_MS,
  ExchangeConnector,
} from './exchange/exchange.connector.js';
import { RefreshScheduler } from './refresh/refresh.scheduler.js';
import { RefreshService } from './refresh/refresh.service.js';
import { SourceFetcher } from './refresh/source-fetcher.js';
import { SourceSchedules } from './refresh/source-schedule.js';
import { SandboxConnector } from './sandbox/sandbox.connector.js';
import { SOLANA_SYNC_TIMEOUT_MS, SolanaConnector } from './solana/solana.connector.js';
import { SolanaRpcClient } from './solana/solana-rpc.client.js';
import { ImportFileService } from './exports/import-file.service.js';
import { ImportParsePool } from './exports/import-parse-pool.js';

@Module({
  imports: [LedgerModule, MarketModule, JobsModule],
  providers: [
    SandboxConnector,
    {
      provide: ConnectorRegistry,
      inject: [AppConfig, SandboxConnector, MARKET_PRICES],
      useFactory: async (
        config: AppConfig,
        sandbox: SandboxConnector,
        prices: MarketPricesPort,
      ): Promise<ConnectorRegistry> => {
        const registry = new ConnectorRegistry();
        registry.register('csv', new CsvConnector());
        registry.register(
          'bitcoin',
          new BitcoinConnector(new EsploraClient({ baseUrl: config.ESPLORA_BASE_URL }), prices),
        );
        registry.register(
          'ethereum',
          new EthereumConnector(
            new EtherscanClient({
              baseUrl: config.ETHERSCAN_BASE_URL,
              apiKey: config.ETHERSCAN_API_KEY ?? '',
              // Etherscan v2 serves every chain behind one URL: the connector sets each account's
              // chain id (src/domain/chains/ethereum/evm-chains.ts); mainnet by default.
              chainId: 1,
            }),
            prices,
            { rpcUrls: config.evmRpcUrls },
          ),
        );
        registry.register(
          'solana',
          new SolanaConnector(new SolanaRpcClient({ baseUrl: config.SOLANA_RPC_URL }), prices),
          { timeoutMs: SOLANA_SYNC_TIMEOUT_MS },
        );
        const genericIds = config.exchangeGenericIds;
        // Only an operator who allows generic exchanges pays for loading ccxt at start-up.
        await checkGenericIds(genericIds);
        registry.register(
          'exchange',
          new ExchangeConnector(prices, {
            requestTimeoutMs: EXCHANGE_REQUEST_TIMEOUT_MS,
            apiUrls: config.exchangeApiUrls,
            rateLimitMs: config.EXCHANGE_RATE_LIMIT_MS,
            genericIds,
          }),
          { timeoutMs: EXCHANGE_SYNC_TIMEOUT_MS },
        );
        // Synthetic data never reaches production.
        if (config.sandboxEnabled) registry.register('sandbox', sandbox);
        return registry;
      },
    },
    CredentialsCipher,
    SourceFetcher,
    RefreshService,
    RefreshScheduler,
    ImportFileService,
    ImportParsePool,
    SourceSchedules,
  ],
  exports: [
    ConnectorRegistry,
    CredentialsCipher,
    RefreshService,
    SandboxConnector,
    ImportFileService,
    SourceSchedules,
  ],
})
export class SourcesModule {}
