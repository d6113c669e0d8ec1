/**
 * SYNTHETIC SANDBOX FIXTURES (design §11): a dozen accounts per sandbox tenant, across
 * exchanges and bitcoin / ethereum wallets, in every sync state, with one history gap and
 * transfers between own accounts. Ids are UUID v5 of fixed names (sandboxId), identical on
 * every machine; docs/accounts.md lists them. Histories come from sandbox-history.ts.
 */
import { sandboxId } from '../../sandbox/index.js';
import { sandboxAddress, type SandboxAccountScript } from './sandbox-history.js';

/** How the sandbox connector behaves for an account (account.sourceOptions.profile). */
export type SandboxProfile =
  /** Serves the history at once. */
  | 'normal'
  /** Answers "pending" until `syncDelayMinutes` after the account was linked (slow initial sync). */
  | 'slow_initial_sync'
  /** Rejects the authorization: the end client must reconnect. */
  | 'reconnect_required'
  /** The first sync works; every later refresh fails as if the exchange were down. */
  | 'outage_after_first_sync';

export interface SandboxSourceOptions {
  readonly profile: SandboxProfile;
  /** Household seed: all accounts with the same seed are simulated together. */
  readonly seed: string;
  /** Key of this account's script in the household. */
  readonly script: string;
  readonly syncDelayMinutes?: number;
}

export interface SandboxAccountFixture {
  readonly key: string;
  readonly platform: string;
  readonly source: 'sandbox' | 'csv';
  readonly profile: SandboxProfile;
  readonly syncDelayMinutes?: number;
  readonly chain?: 'bitcoin' | 'ethereum';
  readonly description: string;
  readonly script: SandboxAccountScript;
}

const COINBASE_FEE = '0.006';
const KRAKEN_FEE = '0.0026';
const GEMINI_FEE = '0.004';

/** The accounts of one sandbox household, in simulation order. */
export const SANDBOX_ACCOUNT_FIXTURES: readonly SandboxAccountFixture[] = [
  {
    key: 'coinbase-main',
    platform: 'coinbase',
    source: 'sandbox',
    profile: 'normal',
    description: 'Weekly BTC/ETH purchases since 2020; moves BTC to cold storage (transferId)',
    script: {
      key: 'coinbase-main',
      kind: 'exchange',
      idStyle: 'uuid',
      startDate: '2020-01-06',
      buys: {
        symbols: [
          ['BTC', 3],
          ['ETH', 2],
        ],
        meanDays: 9,
        usd: [100, 1_500],
        feeRate: COINBASE_FEE,
        lumpSum: { probability: 0.05, usd: [5_000, 20_000] },
      },
      sells: { meanDays: 75, fraction: [0.1, 0.35], feeRate: COINBASE_FEE },
      transfers: [
        {
          to: 'btc-cold-storage',
          symbol: 'BTC',
          meanDays: 150,
          fraction: [0.5, 0.8],
          networkFee: '0.0001',
          minimum: '0.01',
        },
      ],
    },
  },
  {
    key: 'btc-cold-storage',
    platform: 'bitcoin',
    chain: 'bitcoin',
    source: 'sandbox',
    profile: 'normal',
    description: 'Bitcoin cold wallet fed from coinbase-main; occasionally sends BTC back to sell',
    script: {
      key: 'btc-cold-storage',
      kind: 'wallet',
      idStyle: 'btc-hash',
      startDate: '2020-01-06',
      transfers: [
        {
          to: 'coinbase-main',
          symbol: 'BTC',
          meanDays: 500,
          fraction: [0.2, 0.4],
          networkFee: '0.00005',
          minimum: '0.01',
        },
      ],
    },
  },
  {
    key: 'kraken-trading',
    platform: 'kraken',
    source: 'sandbox',
    profile: 'normal',
    description: 'Active trading in BTC, ETH, SOL, ADA, DOT, LINK; sends ETH to the DeFi wallet',
    script: {
      key: 'kraken-trading',
      kind: 'exchange',
      idStyle: 'kraken',
      startDate: '2020-02-03',
      buys: {
        symbols: [
          ['BTC', 3],
          ['ETH', 3],
          ['SOL', 2],
          ['ADA', 1],
          ['DOT', 1],
          ['LINK', 1],
        ],
        meanDays: 6,
        usd: [200, 3_000],
        feeRate: KRAKEN_FEE,
        lumpSum: { probability: 0.04, usd: [5_000, 15_000] },
      },
      sells: { meanDays: 18, fraction: [0.15, 0.6], feeRate: KRAKEN_FEE },
      transfers: [
        {
          to: 'eth-defi-wallet',
          symbol: 'ETH',
          meanDays: 180,
          fraction: [0.3, 0.6],
          networkFee: '0.0012',
          minimum: '0.2',
        },
      ],
    },
  },
  {
    key: 'eth-defi-wallet',
    platform: 'ethereum',
    chain: 'ethereum',
    source: 'sandbox',
    profile: 'normal',
    description:
      'Ethereum wallet: ETH from kraken-trading, gas fees paid in ETH, a UNI airdrop (unknown basis)',
    script: {
      key: 'eth-defi-wallet',
      kind: 'wallet',
      idStyle: 'eth-hash',
      startDate: '2020-02-03',
      networkFees: { symbol: 'ETH', meanDays: 20, amount: [0.0008, 0.006] },
      deposits: [{ date: '2020-09-17', symbol: 'UNI', amount: '400' }],
    },
  },
  {
    key: 'gemini-earn',
    platform: 'gemini',
    source: 'sandbox',
    profile: 'normal',
    description: 'ETH and SOL purchases with monthly staking rewards (income)',
    script: {
      key: 'gemini-earn',
      kind: 'exchange',
      idStyle: 'numbered',
      startDate: '2020-05-11',
      buys: {
        symbols: [
          ['ETH', 2],
          ['SOL', 1],
        ],
        meanDays: 14,
        usd: [250, 2_500],
        feeRate: GEMINI_FEE,
      },
      sells: { meanDays: 200, fraction: [0.1, 0.3], feeRate: GEMINI_FEE },
      income: { symbols: ['ETH', 'SOL'], monthlyRate: 0.003 },
    },
  },
  {
    key: 'coinbase-joint',
    platform: 'coinbase',
    source: 'sandbox',
    profile: 'normal',
    description: 'Small joint account: monthly BTC purchases, rare sales',
    script: {
      key: 'coinbase-joint',
      kind: 'exchange',
      idStyle: 'uuid',
      startDate: '2021-03-01',
      buys: { symbols: [['BTC', 1]], meanDays: 30, usd: [200, 600], feeRate: COINBASE_FEE },
      sells: { meanDays: 365, fraction: [0.1, 0.2], feeRate: COINBASE_FEE },
      // Synthetic, labelled: the exchange reports 0.0005 BTC the history does not show (reconciliation).
      reportedBalanceDrift: { symbol: 'BTC', amount: '0.0005' },
    },
  },
  {
    key: 'robinhood-import',
    platform: 'robinhood',
    source: 'csv',
    profile: 'normal',
    description: 'Imported from a CSV export (source csv): BTC and DOGE',
    script: {
      key: 'robinhood-import',
      kind: 'exchange',
      idStyle: 'numbered',
      startDate: '2021-01-15',
      buys: {
        symbols: [
          ['BTC', 1],
          ['DOGE', 2],
        ],
        meanDays: 25,
        usd: [50, 500],
        feeRate: '0',
      },
      sells: { meanDays: 120, fraction: [0.2, 0.5], feeRate: '0' },
    },
  },
  {
    key: 'kraken-legacy',
    platform: 'kraken',
    source: 'sandbox',
    profile: 'normal',
    description:
      'History gap: the source lost the buys of Mar 2020 - Mar 2021, so a June 2021 sale exceeds the recorded holdings (balances 422 inconsistent_history)',
    script: {
      key: 'kraken-legacy',
      kind: 'exchange',
      idStyle: 'kraken',
      startDate: '2020-03-02',
      buys: { symbols: [['ETH', 1]], meanDays: 10, usd: [300, 1_200], feeRate: KRAKEN_FEE },
      forcedSells: [{ date: '2021-06-15', symbol: 'ETH', fraction: 0.9 }],
      gap: { from: '2020-03-01', to: '2021-04-01' },
    },
  },
  {
    key: 'okx-outage',
    platform: 'okx',
    source: 'sandbox',
    profile: 'outage_after_first_sync',
    description:
      'Synced once, then every refresh fails (source outage): syncStatus error, cached data still served',
    script: {
      key: 'okx-outage',
      kind: 'exchange',
      idStyle: 'numbered',
      startDate: '2022-01-10',
      buys: {
        symbols: [
          ['BTC', 1],
          ['SOL', 1],
        ],
        meanDays: 20,
        usd: [100, 1_000],
        feeRate: '0.001',
      },
      sells: { meanDays: 150, fraction: [0.1, 0.3], feeRate: '0.001' },
    },
  },
  {
    key: 'binanceus-new',
    platform: 'binanceus',
    source: 'sandbox',
    profile: 'slow_initial_sync',
    syncDelayMinutes: 15,
    description:
      'Just linked: initial sync completes 15 minutes after linking (syncing until then; balances 422 initial_sync_pending)',
    script: {
      key: 'binanceus-new',
      kind: 'exchange',
      idStyle: 'numbered',
      startDate: '2022-06-01',
      buys: {
        symbols: [
          ['BTC', 1],
          ['ETH', 1],
        ],
        meanDays: 12,
        usd: [100, 800],
        feeRate: '0.001',
      },
      sells: { meanDays: 120, fraction: [0.1, 0.3], feeRate: '0.001' },
    },
  },
  {
    key: 'btc-watch-wallet',
    platform: 'bitcoin',
    chain: 'bitcoin',
    source: 'sandbox',
    profile: 'slow_initial_sync',
    syncDelayMinutes: 45,
    description:
      'Watch-only bitcoin wallet with years of mining payouts, still being indexed: synced 45 minutes after linking',
    script: {
      key: 'btc-watch-wallet',
      kind: 'wallet',
      idStyle: 'btc-hash',
      startDate: '2020-01-20',
      deposits: [
        { date: '2020-01-20', symbol: 'BTC', amount: '1.5' },
        { date: '2022-11-30', symbol: 'BTC', amount: '0.75' },
      ],
      income: { symbols: ['BTC'], monthlyRate: 0.004 },
      networkFees: { symbol: 'BTC', meanDays: 40, amount: [0.00002, 0.0002] },
    },
  },
  {
    key: 'bitstamp-expired',
    platform: 'bitstamp',
    source: 'sandbox',
    profile: 'reconnect_required',
    description:
      'Authorization expired before the first sync: reconnect_required, nothing cached (balances 422 reconnect_required)',
    script: {
      key: 'bitstamp-expired',
      kind: 'exchange',
      idStyle: 'numbered',
      startDate: '2021-01-04',
      buys: { symbols: [['BTC', 1]], meanDays: 30, usd: [100, 500], feeRate: '0.005' },
    },
  },
];

export interface SandboxAccountIds {
  readonly accountId: string;
  readonly collectionId: string;
  readonly identity: string;
  readonly address: string | null;
}

/** Deterministic ids of a fixture in a tenant (UUID v5 of fixed names). */
export function sandboxAccountIds(tenantSlug: string, fixture: SandboxAccountFixture): SandboxAccountIds {
  return {
    accountId: sandboxId(`account:${tenantSlug}:${fixture.key}`),
    collectionId: sandboxId(`collection:${tenantSlug}:${fixture.key}`),
    identity: `${tenantSlug}:${fixture.key}`,
    address: fixture.chain ? sandboxAddress(fixture.chain, `${tenantSlug}:${fixture.key}`) : null,
  };
}

/** The household seed of a sandbox tenant. */
export const sandboxHouseholdSeed = (tenantSlug: string) => `sandbox-accounts:${tenantSlug}`;

export function sandboxSourceOptions(
  tenantSlug: string,
  fixture: SandboxAccountFixture,
): SandboxSourceOptions {
  return {
    profile: fixture.profile,
    seed: sandboxHouseholdSeed(tenantSlug),
    script: fixture.key,
    ...(fixture.syncDelayMinutes ? { syncDelayMinutes: fixture.syncDelayMinutes } : {}),
  };
}

export const SANDBOX_SCRIPTS: readonly SandboxAccountScript[] = SANDBOX_ACCOUNT_FIXTURES.map((f) => f.script);
