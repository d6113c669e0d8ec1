/**
 * Sources: the refresh engine and connector faults, the wallets list, the partner link flow with
 * the bitcoin, ethereum and solana sources, Kraken through ccxt, and transfers between an exchange and an
 * own wallet. One application for all of these suites (test/e2e/README.md), seeded at the suites'
 * instant (2026-03-15T12:00Z). The app knows one URL per kind of fake server (Kraken, Esplora,
 * Etherscan and its JSON-RPC, Solana JSON-RPC): relays started here, which each suite points at fakes of its own
 * (./sources/fake-relay.ts).
 *
 * Every suite links its accounts into tenants of its own. Order matters: sync runs the scheduler
 * over every tenant and expects only the sandbox's seeded accounts to be due, so it comes first;
 * wallets reads the sandbox's wallets as seeded.
 */
import { useE2eWorld } from '../support/e2e-world.js';
import { FAKE_ETHERSCAN_KEY } from '../fakes/ethereum-fake-server.js';
import { relays } from './sources/fake-relay.js';
import './sources/sync.cases.js';
import './sources/faults-connectors.cases.js';
import './sources/wallets.cases.js';
import './sources/link-flow.cases.js';
import './sources/exchange-link.cases.js';
import './sources/exchange-wallet-transfer.cases.js';

useE2eWorld({
  sandbox: true,
  startAt: new Date('2026-03-15T12:00:00.000Z'),
  overrides: async () => {
    const [kraken, esplora, ethereum, solana] = await Promise.all([
      relays.kraken.start(),
      relays.esplora.start(),
      relays.ethereum.start(),
      relays.solana.start(),
    ]);
    return {
      EXCHANGE_API_URLS: JSON.stringify({ kraken }),
      EXCHANGE_RATE_LIMIT_MS: '1',
      ESPLORA_BASE_URL: esplora,
      ETHERSCAN_BASE_URL: `${ethereum}/api`,
      ETHERSCAN_API_KEY: FAKE_ETHERSCAN_KEY,
      ETHEREUM_RPC_URL: `${ethereum}/rpc`,
      SOLANA_RPC_URL: solana,
      // The fake serves each EVM chain's JSON-RPC at /rpc/<chainId> (issue 30 item 2).
      BASE_RPC_URL: `${ethereum}/rpc/8453`,
      ARBITRUM_RPC_URL: `${ethereum}/rpc/42161`,
    };
  },
});

afterAll(async () => {
  await Promise.all(Object.values(relays).map((relay) => relay.stop()));
});
