/**
 * The partner link flow (issue 15 item 5) with the real bitcoin and ethereum sources (items 2, 3)
 * and the solana source (issue 30 item 1) against local fakes: a fake Esplora, a fake
 * Etherscan-compatible API and JSON-RPC endpoint, a fake Solana JSON-RPC endpoint. A partner
 * links a zpub, an Ethereum address and a Solana address over REST, watches them sync, and reads
 * balances, transactions, gains and the checksum; a Base and an Arbitrum address (issue 30) sync
 * from their chains with a swap, a wrap and the OP-stack L1 fee; every error path of POST/PUT/DELETE /v1/api/accounts; the
 * credentials path through a test exchange connector that declares `linking` like a real one; the
 * admin API's reconnect and xpub link. The partners are two tenants of the suite's own.
 */
import { base58 } from '@scure/base';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Decimal } from 'decimal.js';
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../../src/common/ports/market-prices.port.js';
import { parseExtendedPublicKey, type EsploraTransaction } from '../../../src/domain/chains/bitcoin/index.js';
import type { EtherscanNormalTx, EtherscanTokenTx } from '../../../src/domain/chains/ethereum/index.js';
import {
  CredentialsCipher,
  singlePage,
  SourceAuthorizationError,
  SourceUnavailableError,
  type ConnectorRequest,
  type ConnectorResult,
  type SourceConnector,
  type SourceDescription,
} from '../../../src/modules/sources/index.js';
import { bearer, registerConnector } from '../../factories/accounts.factory.js';
import { FakeEsplora } from '../../fakes/esplora-fake-server.js';
import { FAKE_ETHERSCAN_KEY, FakeEthereum } from '../../fakes/ethereum-fake-server.js';
import {
  buildTransaction,
  FakeSolanaRpc,
  tokenBalance,
  TOKEN_PROGRAM,
} from '../../fakes/solana-fake-server.js';
import { startSuite, type SuiteApp, type SuiteTenant } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';
import { relays } from './fake-relay.js';

const SCRIPT = fileURLToPath(new URL('../../../scripts/verify-checksum.mjs', import.meta.url));

// ---- Bitcoin: a zpub wallet with mining income, a payment with change and a network fee ----
const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const wallet = parseExtendedPublicKey(ZPUB);
const RECEIVE_0 = wallet.address(0, 0);
const CHANGE_0 = wallet.address(1, 0);
const FRIEND = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const INCOME_AT = '2025-01-10T10:00:00.000Z';
const PAID_AT = '2025-02-10T12:00:00.000Z';

const coinbase: EsploraTransaction = {
  txid: 'a1'.repeat(32),
  vin: [{ txid: '0'.repeat(64), vout: 0, is_coinbase: true, prevout: null }],
  vout: [{ scriptpubkey_address: RECEIVE_0, value: 50_000_000 }],
  fee: 0,
  status: { confirmed: true, block_height: 880_000, block_time: Date.parse(INCOME_AT) / 1000 },
};
const payment: EsploraTransaction = {
  txid: 'b2'.repeat(32),
  vin: [{ txid: coinbase.txid, vout: 0, prevout: { scriptpubkey_address: RECEIVE_0, value: 50_000_000 } }],
  vout: [
    { scriptpubkey_address: FRIEND, value: 20_000_000 },
    { scriptpubkey_address: CHANGE_0, value: 29_990_000 },
  ],
  fee: 10_000,
  status: { confirmed: true, block_height: 884_000, block_time: Date.parse(PAID_AT) / 1000 },
};

// ---- Ethereum: a deposit, a payment with gas, USDC and an unknown token ----
const ME = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const me = ME.toLowerCase();
const OTHER = '0x1111111111111111111111111111111111111111';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const SPAM = '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef';
const T = Date.parse('2025-03-01T00:00:00Z') / 1000;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const normal = (n: number, from: string, to: string, value: bigint): EtherscanNormalTx => ({
  hash: hash(n),
  blockNumber: String(21_900_000 + n),
  timeStamp: String(T + n * 3_600),
  from,
  to,
  value: String(value),
  gasUsed: '21000',
  gasPrice: '20000000000',
  isError: '0',
});
const token = (n: number, value: bigint, contractAddress: string, decimals: number): EtherscanTokenTx => ({
  hash: hash(n),
  blockNumber: String(21_900_000 + n),
  timeStamp: String(T + n * 3_600),
  from: OTHER,
  to: me,
  value: String(value),
  contractAddress,
  tokenSymbol: 'USDC',
  tokenDecimal: String(decimals),
  logIndex: '1',
});

// ---- Solana: a deposit, a payment with its fee, USDC into a token account the sender opened ----
const solKey = (n: number) => base58.encode(new Uint8Array(32).fill(n));
const solSig = (n: number) => base58.encode(new Uint8Array(64).fill(n));
const SOL_ME = solKey(41);
const SOL_OTHER = solKey(42);
const SOL_MY_USDC = solKey(43);
const SOL_OTHER_USDC = solKey(44);
const SPL_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const solAt = (n: number) => ({ signature: solSig(n), slot: 325_000_000 + n, blockTime: T + n * 3_600 });
/** Lamports: ME 0 → 2,000,000,000 → 1,499,995,000 (0.5 SOL + 5,000 fee); MY_USDC 0 → 2,039,280 rent. */
const solanaHistory = () => [
  buildTransaction({
    ...solAt(1),
    keys: [
      { pubkey: SOL_OTHER, pre: 9_000_000_000, post: 6_999_995_000 },
      { pubkey: SOL_ME, pre: 0, post: 2_000_000_000 },
    ],
  }),
  buildTransaction({
    ...solAt(2),
    keys: [
      { pubkey: SOL_ME, pre: 2_000_000_000, post: 1_499_995_000 },
      { pubkey: SOL_OTHER, pre: 6_999_995_000, post: 7_499_995_000 },
    ],
  }),
  buildTransaction({
    ...solAt(3),
    keys: [
      { pubkey: SOL_OTHER, pre: 7_499_995_000, post: 7_497_950_720 },
      { pubkey: SOL_OTHER_USDC, pre: 2_039_280, post: 2_039_280 },
      { pubkey: SOL_MY_USDC, pre: 0, post: 2_039_280 },
    ],
    preTokens: [tokenBalance(1, SPL_USDC, SOL_OTHER, 1_000_000_000n, 6)],
    postTokens: [
      tokenBalance(1, SPL_USDC, SOL_OTHER, 750_000_000n, 6),
      tokenBalance(2, SPL_USDC, SOL_ME, 250_000_000n, 6),
    ],
  }),
];
// ---- Base and Arbitrum One (issue 30): a swap on Base; a wrap and a WETH → USDC swap on Arbitrum ----
const ROUTER = '0x2626664c2603336e57b271c5c0b26f421741e481';
const BASE_USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const ARB_USDC = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
const ARB_WETH = '0x82af49447d8a07e3bd95bd0d56f35241523fbab1';
const L2_AT = Date.parse('2025-03-03T12:00:00Z') / 1000;
const wei = (eth: string) => {
  const [whole, fraction = ''] = eth.split('.');
  return BigInt(whole! + fraction.padEnd(18, '0'));
};
const l2Tx = (
  n: number,
  from: string,
  to: string,
  value: bigint,
  gasUsed: string,
  gasPrice: string,
): EtherscanNormalTx => ({
  hash: hash(0x100 + n),
  blockNumber: String(5_000 + n),
  timeStamp: String(L2_AT + n * 60),
  from,
  to,
  value: String(value),
  gasUsed,
  gasPrice,
  isError: '0',
});
const l2Token = (
  n: number,
  from: string,
  to: string,
  value: bigint,
  contractAddress: string,
  decimals: number,
  logIndex: number,
): EtherscanTokenTx => ({
  hash: hash(0x100 + n),
  blockNumber: String(5_000 + n),
  timeStamp: String(L2_AT + n * 60),
  from,
  to,
  value: String(value),
  contractAddress,
  tokenSymbol: 'TKN',
  tokenDecimal: String(decimals),
  logIndex: String(logIndex),
});

/** A stand-in exchange source, declared as the ccxt sources will be: linked with credentials. */
class TestExchangeConnector implements SourceConnector {
  verified: Record<string, string>[] = [];
  describe(): SourceDescription {
    return {
      summary: '`testex` (test)',
      synthetic: false,
      examples: {},
      options: {},
      linking: { platforms: ['testex'], accepts: ['credentials'] },
    };
  }
  checkCredentials(credentials: Readonly<Record<string, string>>): void {
    if (!credentials['apiKey']) throw new Error('unreachable in these tests');
  }
  async verifyCredentials(request: ConnectorRequest): Promise<void> {
    const apiKey = request.credentials?.['apiKey'];
    this.verified.push({ ...request.credentials });
    if (apiKey === 'refused-key') throw new SourceAuthorizationError('invalid key refused-key');
    if (apiKey === 'down-key') throw new SourceUnavailableError('exchange down');
  }
  async fetch(request: ConnectorRequest): Promise<ConnectorResult> {
    if (request.credentials?.['apiKey'] === 'expired-key') throw new SourceAuthorizationError();
    return {
      status: 'ready',
      mode: 'full',
      pages: singlePage([
        {
          transactionId: 'tx-1',
          symbol: 'BTC',
          direction: 'buy',
          amount: '0.1',
          priceUsd: '90000',
          feeUsd: '10',
          occurredAt: new Date('2025-01-05T00:00:00Z'),
          transferId: null,
        },
      ]),
      reportedBalances: null,
    };
  }
}

describe('partner link flow with the bitcoin, ethereum and solana sources (e2e)', () => {
  const esplora = new FakeEsplora();
  const chain = new FakeEthereum();
  const solana = new FakeSolanaRpc();
  const exchange = new TestExchangeConnector();
  let t: SuiteApp;
  let partner: string;
  let partnerB: string;
  let admin: string;
  /** The partners' tenants (the suite's own): `a` is partner's, `b` partnerB's. */
  let a: SuiteTenant;
  let b: SuiteTenant;
  let unregister: () => void;

  beforeAll(async () => {
    const [esploraUrl, chainUrl, solanaUrl] = await Promise.all([
      esplora.start(),
      chain.start(),
      solana.start(),
    ]);
    relays.esplora.to(esploraUrl);
    relays.ethereum.to(chainUrl);
    relays.solana.to(solanaUrl);
    solana.transactions = solanaHistory();
    solana.balances.set(SOL_ME, 1_499_995_000n);
    solana.tokenAccounts = [
      {
        pubkey: SOL_MY_USDC,
        owner: SOL_ME,
        mint: SPL_USDC,
        programId: TOKEN_PROGRAM,
        amount: 250_000_000n,
        decimals: 6,
        lamports: 2_039_280n,
      },
    ];
    solana.epoch = 760;
    esplora.setTransactions([coinbase, payment]);
    chain.normal = [normal(1, OTHER, me, 2n * 10n ** 18n), normal(2, me, OTHER, 5n * 10n ** 17n)];
    chain.tokens = [token(3, 250_000_000n, USDC, 6), token(4, 10n ** 21n, SPAM, 18)];
    chain.ethBalances.set(me, 1_499_580_000_000_000_000n);
    chain.tokenBalances.set(`${USDC}:${me}`, 250_000_000n);
    chain.tokenBalances.set(`${SPAM}:${me}`, 10n ** 21n);
    // Base: 2 ETH in; 1.5 ETH swapped for 4,500 USDC, gas 99,950 × 20 gwei + an L1 fee of
    // 0.000001 = 0.002 ETH. Chain balances: ETH 2 − 1.5 − 0.002 = 0.498, USDC 4,500.
    const base = chain.chain(8453);
    base.normal = [
      l2Tx(1, OTHER, me, wei('2'), '21000', '1000000000'),
      l2Tx(2, me, ROUTER, wei('1.5'), '99950', '20000000000'),
    ];
    base.l1Fees.set(hash(0x102), wei('0.000001'));
    base.tokens = [l2Token(2, ROUTER, me, 4_500_000_000n, BASE_USDC, 6, 41)];
    base.ethBalances.set(me, wei('0.498'));
    base.tokenBalances.set(`${BASE_USDC}:${me}`, 4_500_000_000n);
    // Arbitrum: 1 ETH in; 0.4 ETH wrapped; 0.4 WETH swapped for 1,200 USDC; gas 50,000 × 0.01 gwei
    // = 0.0000005 ETH twice. Chain balances: ETH 1 − 0.4 − 0.000001 = 0.599999, no WETH, USDC 1,200.
    const arbitrum = chain.chain(42161);
    arbitrum.normal = [
      l2Tx(1, OTHER, me, wei('1'), '21000', '10000000'),
      l2Tx(2, me, ARB_WETH, wei('0.4'), '50000', '10000000'),
      l2Tx(3, me, ROUTER, 0n, '50000', '10000000'),
    ];
    arbitrum.tokens = [
      l2Token(2, ARB_WETH, me, wei('0.4'), ARB_WETH, 18, 5),
      l2Token(3, me, ROUTER, wei('0.4'), ARB_WETH, 18, 8),
      l2Token(3, ROUTER, me, 1_200_000_000n, ARB_USDC, 6, 9),
    ];
    arbitrum.ethBalances.set(me, wei('0.599999'));
    arbitrum.tokenBalances.set(`${ARB_USDC}:${me}`, 1_200_000_000n);
    t = await startSuite(
      {
        ESPLORA_BASE_URL: relays.esplora.url,
        ETHERSCAN_BASE_URL: `${relays.ethereum.url}/api`,
        ETHERSCAN_API_KEY: FAKE_ETHERSCAN_KEY,
        ETHEREUM_RPC_URL: `${relays.ethereum.url}/rpc`,
        SOLANA_RPC_URL: relays.solana.url,
        BASE_RPC_URL: `${relays.ethereum.url}/rpc/8453`,
        ARBITRUM_RPC_URL: `${relays.ethereum.url}/rpc/42161`,
      },
      { clock: new ManualClock(new Date('2026-03-15T12:00:00.000Z')), tenant: true },
    );
    unregister = registerConnector(t, 'testex', exchange);
    a = t.tenant!;
    b = await t.newTenant();
    [partner, partnerB, admin] = await Promise.all([
      t.token(),
      t.token(b.clientId, b.secret),
      t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret),
    ]);
  });
  afterAll(async () => {
    unregister?.();
    await t?.close();
    await Promise.all([esplora.stop(), chain.stop(), solana.stop()]);
  });

  /** The problem inside a /v1/api error envelope. */
  const problem = (res: {
    body: { responseException: { exceptionMessage: { reason?: string; errors: Record<string, string[]> } } };
  }) => res.body.responseException.exceptionMessage;
  const link = (body: object, token = partner) =>
    t.http.post('/v1/api/accounts').set(bearer(token)).send(body);
  const get = (path: string, token = partner) => t.http.get(path).set(bearer(token));

  /** Reads the account through the partner list until its first refresh has landed. */
  async function untilSettled(accountId: string, token = partner): Promise<Record<string, unknown>> {
    for (let i = 0; i < 200; i++) {
      const res = await get('/v1/api/accounts?limit=200', token).expect(200);
      const account = (res.body.result.accounts as Record<string, unknown>[]).find(
        (a) => a.accountId === accountId,
      );
      if (!account) throw new Error(`account ${accountId} is not listed`);
      if (account.syncStatus !== 'syncing') return account;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`account ${accountId} is still syncing`);
  }

  const referenceChecksum = (accountId: string, transactions: unknown[]) =>
    JSON.parse(
      execFileSync(process.execPath, [SCRIPT, '-'], {
        input: JSON.stringify([{ accountId, transactions }]),
        encoding: 'utf8',
      }),
    );

  async function btcPriceOn(date: string): Promise<Decimal> {
    const prices = await t.app.get<MarketPricesPort>(MARKET_PRICES).pricesOnDate(['BTC'], date);
    return new Decimal(prices.get('BTC')!);
  }

  describe('a bitcoin zpub', () => {
    let accountId: string;

    it('links with 202, syncing, and a refresh already started', async () => {
      const res = await link({ platform: 'bitcoin', identity: 'hh-1/cold-zpub', xpub: ZPUB }).expect(202);
      expect(res.body).toMatchObject({ isError: false, statusCode: 202 });
      expect(res.body.result).toMatchObject({
        platform: 'bitcoin',
        identity: 'hh-1/cold-zpub',
        syncStatus: 'syncing',
        connectionStatus: 'connected',
        lastSyncedAt: null,
        address: null,
        chain: null,
      });
      accountId = res.body.result.accountId;
      const settled = await untilSettled(accountId);
      expect(settled).toMatchObject({ syncStatus: 'synced', balanceSource: 'source_reported' });
      // Discovery walked the receive and change chains past the gap limit.
      expect(esplora.requests).toContain(`/address/${CHANGE_0}/txs/chain`);
      expect(esplora.requests).toContain(`/address/${wallet.address(0, 20)}`);
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT source, source_options FROM account WHERE id = $1', [accountId]);
      expect(row).toEqual({ source: 'bitcoin', source_options: { xpub: ZPUB } });
    });

    it('reads the transactions: income, the payment to a friend, its network fee (the change is no disposal)', async () => {
      const res = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      const p1 = await btcPriceOn('2025-01-10');
      const p2 = await btcPriceOn('2025-02-10');
      const rows = (res.body.result.transactions as Record<string, string | null>[]).map((tx) => ({
        transactionId: tx.transactionId,
        direction: tx.direction,
        amount: tx.amount,
        price: tx.price === null ? null : new Decimal(tx.price).toString(),
        timestamp: tx.timestamp,
      }));
      expect(rows).toEqual(
        expect.arrayContaining([
          {
            transactionId: `${coinbase.txid}:income`,
            direction: 'income',
            amount: '0.5',
            price: p1.toString(),
            timestamp: INCOME_AT,
          },
          {
            // A payment to outside names its chain transaction (it pairs with an own account's
            // receipt of it; unpaired it is a withdrawal).
            transactionId: `${payment.txid}:withdrawal`,
            direction: 'transfer_out',
            amount: '0.2',
            price: null,
            timestamp: PAID_AT,
          },
          {
            transactionId: `${payment.txid}:fee`,
            direction: 'fee',
            amount: '0.0001',
            price: p2.toString(),
            timestamp: PAID_AT,
          },
        ]),
      );
      expect(rows).toHaveLength(3);
    });

    it('reads the balance: 0.2999 BTC, basis from the income, the fee realized', async () => {
      const res = await get(`/v1/api/account/${accountId}/balances`).expect(200);
      const p1 = await btcPriceOn('2025-01-10');
      const p2 = await btcPriceOn('2025-02-10');
      const btc = (res.body.result.balances as Record<string, string>[]).find((b) => b.symbol === 'BTC')!;
      expect(new Decimal(btc.balance).toString()).toBe('0.2999');
      expect(new Decimal(btc.costBasis).toFixed(2)).toBe(p1.times('0.2999').toFixed(2));
      expect(new Decimal(btc.realizedGainLoss).toFixed(2)).toBe(p2.minus(p1).times('0.0001').toFixed(2));
    });

    it('reads the 2025 gains: the fee is the one disposal; the mining reward is ordinary income', async () => {
      const p1 = await btcPriceOn('2025-01-10');
      const p2 = await btcPriceOn('2025-02-10');
      const res = await get(`/taip/gains-report?tax_year=2025&account_id=${accountId}`).expect(200);
      const report = res.body.result ?? res.body;
      expect(new Decimal(report.exact.proceeds_usd).toString()).toBe(p2.times('0.0001').toString());
      expect(new Decimal(report.exact.cost_basis_usd).toString()).toBe(p1.times('0.0001').toString());
      expect(new Decimal(report.exact.net_gains_usd).toString()).toBe(
        p2.minus(p1).times('0.0001').toString(),
      );
      expect(new Decimal(report.ordinary_income.replace(/[$,]/g, '')).toFixed(2)).toBe(
        p1.times('0.5').toFixed(2),
      );
    });

    it('reads a checksum equal to the reference script over the exported rows', async () => {
      const transactions = (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result
        .transactions;
      const res = await get('/v1/api/checksum?identity=hh-1%2Fcold-zpub').expect(200);
      expect(res.body.result.rowCount).toBe(3);
      expect(referenceChecksum(accountId, transactions)).toEqual({
        checksum: res.body.result.checksum,
        rowCount: 3,
      });
    });

    it('links a single bitcoin address too (checksum checked by the domain parser)', async () => {
      const res = await link({
        platform: 'bitcoin',
        identity: 'hh-1/btc-address',
        address: BTC_ADDRESS,
      }).expect(202);
      expect(res.body.result).toMatchObject({
        address: BTC_ADDRESS,
        chain: 'bitcoin',
        syncStatus: 'syncing',
      });
      expect(await untilSettled(res.body.result.accountId)).toMatchObject({ syncStatus: 'synced' });
    });
  });

  describe('an Ethereum address', () => {
    let accountId: string;

    it('links with 202 and syncs', async () => {
      const res = await link({ platform: 'ethereum', identity: 'hh-1/metamask', address: ME }).expect(202);
      expect(res.body.result).toMatchObject({ address: ME, chain: 'ethereum', syncStatus: 'syncing' });
      accountId = res.body.result.accountId;
      expect(await untilSettled(accountId)).toMatchObject({
        syncStatus: 'synced',
        balanceSource: 'source_reported',
      });
    });

    it('reads ETH, gas as a fee, USDC, and the unknown token kept under its contract symbol', async () => {
      const res = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      const rows = (res.body.result.transactions as Record<string, string | null>[]).map((tx) => [
        tx.direction,
        tx.symbol,
        tx.amount,
      ]);
      expect(rows).toEqual(
        expect.arrayContaining([
          // Native ETH moves name their transaction (transfer legs); tokens stay deposits.
          ['transfer_in', 'ETH', '2'],
          ['transfer_out', 'ETH', '0.5'],
          ['fee', 'ETH', '0.00042'],
          ['deposit', 'USDC', '250'],
          ['deposit', 'ERCDEADBEEFDEADBEEFD', '1000'],
        ]),
      );
      expect(rows).toHaveLength(5);
      const balances = (await get(`/v1/api/account/${accountId}/balances`).expect(200)).body.result
        .balances as Record<string, string>[];
      const quantity = (symbol: string) =>
        new Decimal(balances.find((b) => b.symbol === symbol)!.balance).toString();
      expect(quantity('ETH')).toBe('1.49958');
      expect(quantity('USDC')).toBe('250');
      expect(quantity('ERCDEADBEEFDEADBEEFD')).toBe('1000');
    });

    it('has a checksum over its five rows equal to the reference script', async () => {
      const transactions = (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result
        .transactions;
      const res = await get('/v1/api/checksum?identity=hh-1%2Fmetamask').expect(200);
      expect(referenceChecksum(accountId, transactions)).toEqual({
        checksum: res.body.result.checksum,
        rowCount: 5,
      });
    });

    it('its gains report runs (the deposits have no known basis: the gas disposal is flagged)', async () => {
      const res = await get(`/taip/gains-report?tax_year=2025&account_id=${accountId}`).expect(200);
      const report = res.body.result ?? res.body;
      expect(report.account_id).toBe(accountId);
      expect(report.tax_year).toBe(2025);
    });
  });

  describe('a Solana address', () => {
    let accountId: string;

    it('links with 202 and syncs; the ledger’s balances equal the chain’s', async () => {
      const res = await link({ platform: 'solana', identity: 'hh-1/phantom', address: SOL_ME }).expect(202);
      expect(res.body.result).toMatchObject({ address: SOL_ME, chain: 'solana', syncStatus: 'syncing' });
      accountId = res.body.result.accountId;
      expect(await untilSettled(accountId)).toMatchObject({
        syncStatus: 'synced',
        balanceSource: 'source_reported',
      });
      // The USDC receipt names only the token account: it came through that account's signatures.
      expect(
        solana.requests.filter((r) => r.method === 'getSignaturesForAddress').map((r) => r.params[0]),
      ).toEqual([SOL_ME, SOL_MY_USDC]);
    });

    it('reads SOL moves as transfers, the fee priced, USDC by mint and the rent the sender paid', async () => {
      const res = await get(`/v1/api/account/${accountId}/transactions`).expect(200);
      const rows = (res.body.result.transactions as Record<string, string | null>[]).map((tx) => [
        tx.direction,
        tx.symbol,
        tx.amount,
        tx.price === null ? null : 'priced',
      ]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ['transfer_in', 'SOL', '2', null],
          ['transfer_out', 'SOL', '0.5', null],
          ['fee', 'SOL', '0.000005', 'priced'],
          ['transfer_in', 'SOL', '0.00203928', null],
          ['transfer_in', 'USDC', '250', null],
        ]),
      );
      expect(rows).toHaveLength(5);
      const balances = (await get(`/v1/api/account/${accountId}/balances`).expect(200)).body.result
        .balances as Record<string, string>[];
      const quantity = (symbol: string) =>
        new Decimal(balances.find((b) => b.symbol === symbol)!.balance).toString();
      // 2 − 0.5 − 0.000005 + 0.00203928 = 1.50203428 SOL = 1,499,995,000 + 2,039,280 lamports.
      expect(quantity('SOL')).toBe('1.50203428');
      expect(quantity('USDC')).toBe('250');
    });

    it('has a checksum over its five rows equal to the reference script', async () => {
      const transactions = (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result
        .transactions;
      const res = await get('/v1/api/checksum?identity=hh-1%2Fphantom').expect(200);
      expect(referenceChecksum(accountId, transactions)).toEqual({
        checksum: res.body.result.checksum,
        rowCount: 5,
      });
    });

    it('its 2025 gains are the fee alone; its lots are what arrived, of unknown basis', async () => {
      const sol = new Decimal(
        (await t.app.get<MarketPricesPort>(MARKET_PRICES).pricesOnDate(['SOL'], '2025-03-01')).get('SOL')!,
      );
      const report = (await get(`/taip/gains-report?tax_year=2025&account_id=${accountId}`).expect(200)).body;
      // The one disposal: 0.000005 SOL of fee at the day's price (the 0.5 SOL sent is a transfer
      // out, not a sale); the SOL came in from another address, so its basis is unknown.
      expect(new Decimal(report.exact.proceeds_usd).toString()).toBe(sol.times('0.000005').toString());
      expect(report.form_8949).toBe('needs_review');
      const lots = (await get(`/taip/lots?account_id=${accountId}`).expect(200)).body.lots as Record<
        string,
        string | boolean
      >[];
      const held = new Map<string, Decimal>();
      for (const lot of lots) {
        expect(lot.basis_known).toBe(false);
        held.set(
          lot.asset as string,
          (held.get(lot.asset as string) ?? new Decimal(0)).plus(lot.quantity as string),
        );
      }
      // 2 − 0.5 − 0.000005 + 0.00203928 SOL, and the 250 USDC.
      expect(Object.fromEntries([...held].map(([asset, q]) => [asset, q.toString()]))).toEqual({
        SOL: '1.50203428',
        USDC: '250',
      });
    });
  });

  describe('a Base address and an Arbitrum address (issue 30: EVM networks, swaps, wraps)', () => {
    /** Enough significant digits for a unit price derived to 20 decimals (decimal.js keeps 20 by default). */
    const Exact = Decimal.clone({ precision: 60 });
    const derived = (value: Decimal, amount: string) =>
      new Exact(value).div(amount).toDecimalPlaces(20, Decimal.ROUND_HALF_UP);
    const priceOn = async (symbol: string, date: string) =>
      new Decimal(
        (await t.app.get<MarketPricesPort>(MARKET_PRICES).pricesOnDate([symbol], date)).get(symbol)!,
      );
    const rowsOf = async (accountId: string) =>
      (
        (await get(`/v1/api/account/${accountId}/transactions`).expect(200)).body.result
          .transactions as Record<string, string | null>[]
      ).map((tx) => [
        tx.direction,
        tx.symbol,
        tx.amount,
        tx.price === null ? null : new Exact(tx.price).toString(),
      ]);
    const balancesOf = async (accountId: string) =>
      (await get(`/v1/api/account/${accountId}/balances`).expect(200)).body.result;
    let baseId: string;
    let arbitrumId: string;

    it('links both over REST (the ethereum source, chain = platform) and syncs them from their chains', async () => {
      const base = await link({ platform: 'base', identity: 'hh-1/base', address: ME }).expect(202);
      const arbitrum = await link({ platform: 'arbitrum', identity: 'hh-1/arbitrum', address: ME }).expect(
        202,
      );
      expect(base.body.result).toMatchObject({ platform: 'base', chain: 'base', address: ME });
      expect(arbitrum.body.result).toMatchObject({ platform: 'arbitrum', chain: 'arbitrum', address: ME });
      baseId = base.body.result.accountId;
      arbitrumId = arbitrum.body.result.accountId;
      for (const id of [baseId, arbitrumId])
        expect(await untilSettled(id)).toMatchObject({
          syncStatus: 'synced',
          balanceSource: 'source_reported',
        });
      const [row] = await t.app.get(DataSource).query('SELECT source FROM account WHERE id = $1', [baseId]);
      expect(row).toEqual({ source: 'ethereum' });
    });

    it('Base: the swap is a sell of 1.5 ETH and a buy of 4,500 USDC at V = 1.5 × the day’s ETH price; gas 0.002 ETH with its L1 fee', async () => {
      const eth = await priceOn('ETH', '2025-03-03');
      const value = eth.times('1.5');
      expect(await rowsOf(baseId)).toEqual([
        ['transfer_in', 'ETH', '2', null],
        ['sell', 'ETH', '1.5', eth.toString()],
        ['fee', 'ETH', '0.002', eth.toString()],
        ['buy', 'USDC', '4500', derived(value, '4500').toString()],
      ]);
      const result = await balancesOf(baseId);
      const usdc = (result.balances as Record<string, string>[]).find((b) => b.symbol === 'USDC')!;
      const ethBalance = (result.balances as Record<string, string>[]).find((b) => b.symbol === 'ETH')!;
      expect(new Decimal(ethBalance.balance).toString()).toBe('0.498');
      expect(new Decimal(usdc.balance).toString()).toBe('4500');
      // The USDC lot's basis is the trade's value (to the cent as served).
      expect(new Decimal(usdc.costBasis).toFixed(2)).toBe(value.toFixed(2));
      // The chain agrees with the history, the L1 fee included: no review.
      expect(result.review).toBeNull();
      // The checksum covers the four rows, as the reference script computes it.
      const transactions = (await get(`/v1/api/account/${baseId}/transactions`).expect(200)).body.result
        .transactions;
      const res = await get('/v1/api/checksum?identity=hh-1%2Fbase').expect(200);
      expect(referenceChecksum(baseId, transactions)).toEqual({
        checksum: res.body.result.checksum,
        rowCount: 4,
      });
    });

    it('Base: the 2025 gains are the swap and the gas out of 2 ETH of unknown basis; the lots left are 0.498 ETH and 4,500 USDC at the swap’s value', async () => {
      const eth = await priceOn('ETH', '2025-03-03');
      const report = (await get(`/taip/gains-report?tax_year=2025&account_id=${baseId}`).expect(200)).body;
      // Disposals: 1.5 ETH swapped and 0.002 ETH of gas (L1 fee included) = 1.502 ETH at the day's
      // price; the 2 ETH came in from another address, so their basis is unknown (review).
      expect(new Decimal(report.exact.proceeds_usd).toString()).toBe(eth.times('1.502').toString());
      expect(report.form_8949).toBe('needs_review');
      const lots = (await get(`/taip/lots?account_id=${baseId}`).expect(200)).body.lots as Record<
        string,
        string | boolean
      >[];
      expect(
        lots
          .map((lot) => [
            lot.asset,
            new Decimal(lot.quantity as string).toString(),
            lot.basis_known,
            // To the cent: the ledger keeps the buy's unit price, V / 4,500 to 20 decimals
            // (a repeating decimal), so the lot's exact basis is V within 10^-16.
            lot.basis_known ? new Decimal(lot.cost_basis_usd as string).toFixed(2) : null,
          ])
          .sort(),
      ).toEqual(
        [
          ['ETH', '0.498', false, null],
          // The USDC lot's basis is the trade's value, V = 1.5 × the day's ETH price.
          ['USDC', '4500', true, eth.times('1.5').toFixed(2)],
        ].sort(),
      );
    });

    it('Arbitrum: the wrap is a conversion pair (wrap:<hash>), and WETH → USDC is valued from USDC (WETH has no stored price)', async () => {
      const eth = await priceOn('ETH', '2025-03-03');
      const usdcPrice = await priceOn('USDC', '2025-03-03');
      const value = usdcPrice.times(1200);
      expect(await rowsOf(arbitrumId)).toEqual([
        ['transfer_in', 'ETH', '1', null],
        ['transfer_out', 'ETH', '0.4', null],
        ['fee', 'ETH', '0.0000005', eth.toString()],
        ['transfer_in', 'WETH', '0.4', null],
        ['fee', 'ETH', '0.0000005', eth.toString()],
        ['sell', 'WETH', '0.4', derived(value, '0.4').toString()],
        ['buy', 'USDC', '1200', usdcPrice.toString()],
      ]);
      const transactions = (await get(`/v1/api/account/${arbitrumId}/transactions`).expect(200)).body.result
        .transactions as Record<string, string | null>[];
      // The wrap's two legs share wrap:<hash>; the swap's legs have none; the receipt pairs by chain id.
      expect(transactions.map((tx) => tx.transferId)).toEqual([
        `chain:${hash(0x101).slice(2)}`,
        `wrap:${hash(0x102)}`,
        null,
        `wrap:${hash(0x102)}`,
        null,
        null,
        null,
      ]);
      const result = await balancesOf(arbitrumId);
      const quantity = (symbol: string) =>
        (result.balances as Record<string, string>[]).find((b) => b.symbol === symbol)?.balance;
      expect(new Decimal(quantity('ETH')!).toString()).toBe('0.599999');
      expect(new Decimal(quantity('USDC')!).toString()).toBe('1200');
      expect(quantity('WETH') === undefined || new Decimal(quantity('WETH')!).isZero()).toBe(true);
      expect(result.review).toBeNull();
      // The checksum covers the seven rows, as the reference script computes it.
      const res = await get('/v1/api/checksum?identity=hh-1%2Farbitrum').expect(200);
      expect(referenceChecksum(arbitrumId, transactions)).toEqual({
        checksum: res.body.result.checksum,
        rowCount: 7,
      });
    });

    it('Arbitrum: the 2025 gains are the WETH sale (basis carried from ETH through the wrap, unknown) and the gas; the lots left', async () => {
      const eth = await priceOn('ETH', '2025-03-03');
      const usdcPrice = await priceOn('USDC', '2025-03-03');
      const value = usdcPrice.times(1200);
      const report = (await get(`/taip/gains-report?tax_year=2025&account_id=${arbitrumId}`).expect(200))
        .body;
      // Disposals: 0.4 WETH sold at V = 1,200 × USDC's price, and 2 × 0.0000005 ETH of gas.
      expect(new Decimal(report.exact.proceeds_usd).toFixed(2)).toBe(
        value.plus(eth.times('0.000001')).toFixed(2),
      );
      expect(report.form_8949).toBe('needs_review');
      const lots = (await get(`/taip/lots?account_id=${arbitrumId}`).expect(200)).body.lots as Record<
        string,
        string | boolean
      >[];
      const summary = new Map<string, { quantity: Decimal; known: boolean[]; basis: Decimal }>();
      for (const lot of lots) {
        const entry = summary.get(lot.asset as string) ?? {
          quantity: new Decimal(0),
          known: [],
          basis: new Decimal(0),
        };
        entry.quantity = entry.quantity.plus(lot.quantity as string);
        entry.known.push(lot.basis_known as boolean);
        if (lot.basis_known) entry.basis = entry.basis.plus(lot.cost_basis_usd as string);
        summary.set(lot.asset as string, entry);
      }
      // 1 − 0.4 wrapped − 0.000001 gas ETH of unknown basis; 1,200 USDC bought at its own price.
      expect(summary.get('ETH')).toMatchObject({ known: [false] });
      expect(summary.get('ETH')!.quantity.toString()).toBe('0.599999');
      expect(summary.get('USDC')!.quantity.toString()).toBe('1200');
      expect(summary.get('USDC')!.basis.toString()).toBe(value.toString());
      expect(summary.has('WETH')).toBe(false);
    });
  });

  describe('an exchange linked with credentials (a test source declaring linking)', () => {
    let accountId: string;

    it('checks the credentials with the source, stores them encrypted, never returns them', async () => {
      const credentials = { apiKey: 'good-key', apiSecret: 'very-secret-value' };
      const res = await link({ platform: 'testex', identity: 'hh-2/testex', credentials }).expect(202);
      expect(JSON.stringify(res.body)).not.toMatch(/very-secret-value|good-key/);
      accountId = res.body.result.accountId;
      expect(exchange.verified).toContainEqual(credentials);
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT credentials_encrypted FROM account WHERE id = $1', [accountId]);
      expect(row.credentials_encrypted).not.toMatch(/very-secret-value/);
      expect(await t.app.get(CredentialsCipher).decrypt(accountId, row.credentials_encrypted)).toEqual(
        credentials,
      );
      expect(await untilSettled(accountId)).toMatchObject({ syncStatus: 'synced' });
    });

    it('refused credentials: 422 naming credentials, nothing stored, the key not echoed', async () => {
      const res = await link({
        platform: 'testex',
        identity: 'hh-2/refused',
        credentials: { apiKey: 'refused-key', apiSecret: 's' },
      }).expect(422);
      expect(problem(res).reason).toBe('credentials_refused');
      expect(Object.keys(problem(res).errors)).toEqual(['credentials']);
      expect(JSON.stringify(res.body)).not.toMatch(/refused-key/);
      await get('/v1/api/account/identity/hh-2%2Frefused').expect(404);
    });

    it('the source unreachable: 503 with Retry-After, nothing stored', async () => {
      const res = await link({
        platform: 'testex',
        identity: 'hh-2/down',
        credentials: { apiKey: 'down-key', apiSecret: 's' },
      }).expect(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(problem(res).reason).toBe('source_unavailable');
      await get('/v1/api/account/identity/hh-2%2Fdown').expect(404);
    });

    it('reconnects: reconnect_required cleared, new credentials stored, a refresh started', async () => {
      // The key expires: the next refresh puts the account in reconnect_required.
      const expired = await link({
        platform: 'testex',
        identity: 'hh-2/expiring',
        credentials: { apiKey: 'expired-key', apiSecret: 's' },
      }).expect(202);
      const id = expired.body.result.accountId as string;
      expect(await untilSettled(id)).toMatchObject({
        syncStatus: 'reconnect_required',
        connectionStatus: 'disconnected',
      });

      await t.http
        .put(`/v1/api/accounts/${id}/credentials`)
        .set(bearer(partner))
        .send({ credentials: { apiKey: 'refused-key', apiSecret: 's' } })
        .expect(422);
      const res = await t.http
        .put(`/v1/api/accounts/${id}/credentials`)
        .set(bearer(partner))
        .send({ credentials: { apiKey: 'fresh-key', apiSecret: 'new-secret' } })
        .expect(202);
      expect(res.body.result).toMatchObject({ syncStatus: 'syncing', connectionStatus: 'connected' });
      expect(JSON.stringify(res.body)).not.toMatch(/fresh-key|new-secret/);
      expect(await untilSettled(id)).toMatchObject({ syncStatus: 'synced', connectionStatus: 'connected' });
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT credentials_encrypted, last_error FROM account WHERE id = $1', [id]);
      expect(await t.app.get(CredentialsCipher).decrypt(id, row.credentials_encrypted)).toEqual({
        apiKey: 'fresh-key',
        apiSecret: 'new-secret',
      });
      expect(row.last_error).toBeNull();
    });

    it('reconnect errors: missing credentials 400, a watch-only account 400, another tenant 404', async () => {
      const put = (id: string, body: object, token = partner) =>
        t.http.put(`/v1/api/accounts/${id}/credentials`).set(bearer(token)).send(body);
      const missing = await put(accountId, {}).expect(400);
      expect(Object.keys(problem(missing).errors)).toContain('credentials');
      const wallet = (await get('/v1/api/account/identity/hh-1%2Fmetamask').expect(200)).body.result;
      const watchOnly = await put(wallet.accountId, { credentials: { apiKey: 'k' } }).expect(400);
      expect(Object.keys(problem(watchOnly).errors)).toEqual(['credentials']);
      await put(accountId, { credentials: { apiKey: 'good-key' } }, partnerB).expect(404);
      await put('00000000-0000-4000-8000-000000000000', { credentials: { apiKey: 'good-key' } }).expect(404);
      await put('not-a-uuid', { credentials: { apiKey: 'good-key' } }).expect(400);
    });
  });

  describe('POST /v1/api/accounts errors', () => {
    it.each([
      ['an xpub that does not parse', { platform: 'bitcoin', xpub: `${ZPUB.slice(0, -1)}t` }, 'xpub'],
      ['a private extended key', { platform: 'bitcoin', xpub: `zprv${ZPUB.slice(4)}` }, 'xpub'],
      ['an xpub that is not base58', { platform: 'bitcoin', xpub: 'zpub-not-a-key!' }, 'xpub'],
      [
        'a bitcoin address with a bad checksum',
        { platform: 'bitcoin', address: `${BTC_ADDRESS.slice(0, -1)}a` },
        'address',
      ],
      [
        'an ethereum address with a bad EIP-55 checksum',
        { platform: 'ethereum', address: ME.replace('EfFD', 'efFD') },
        'address',
      ],
      ['an ethereum address that is too short', { platform: 'ethereum', address: '0x1234' }, 'address'],
      ['an xpub on ethereum', { platform: 'ethereum', xpub: ZPUB }, 'xpub'],
      [
        'a solana address of 33 bytes',
        { platform: 'solana', address: base58.encode(new Uint8Array(33).fill(7)) },
        'address',
      ],
      ['an ethereum address on solana', { platform: 'solana', address: ME }, 'address'],
      ['an xpub on solana', { platform: 'solana', xpub: ZPUB }, 'xpub'],
      ['credentials on bitcoin', { platform: 'bitcoin', credentials: { apiKey: 'k' } }, 'credentials'],
      ['address and xpub together', { platform: 'bitcoin', address: BTC_ADDRESS, xpub: ZPUB }, 'xpub'],
      ['nothing to watch', { platform: 'bitcoin' }, 'address'],
      ['missing credentials', { platform: 'testex' }, 'credentials'],
      ['an unknown platform', { platform: 'nasdaq', address: BTC_ADDRESS }, 'platform'],
      ['the sandbox (not linkable)', { platform: 'sandbox', credentials: { apiKey: 'k' } }, 'platform'],
      ['no platform', { address: BTC_ADDRESS }, 'platform'],
      ['malformed credentials', { platform: 'testex', credentials: { apiKey: 5 } }, 'credentials'],
    ])('%s: 400 naming %s', async (_case, body, field) => {
      const res = await link({ identity: `errors/${field}`, ...body }).expect(400);
      expect(Object.keys(problem(res).errors)).toContain(field);
      expect(JSON.stringify(res.body)).not.toMatch(/very-secret/);
    });

    it.each([
      ['spaces', '   '],
      ['a lone zero-width space', '\u200B'],
      ['a leading U+202E', '\u202Ecod.exe'],
      ['an isolate in the middle', 'hh-1/\u2067wallet'],
      ['a no-break space and a BOM', '\u00A0\uFEFF'],
    ])(
      'an identity of %s: 400 naming identity, on the partner link and the admin create (issue 27 item 16)',
      async (_case, identity) => {
        const res = await link({ platform: 'bitcoin', identity, address: BTC_ADDRESS });
        expect([res.status, Object.keys(res.body.responseException?.exceptionMessage.errors ?? {})]).toEqual([
          400,
          ['identity'],
        ]);
        const created = await t.http.post('/admin/accounts').set(bearer(admin)).send({
          tenant: b.slug,
          platform: 'bitcoin',
          identity,
          source: 'bitcoin',
          address: BTC_ADDRESS,
        });
        expect([created.status, Object.keys(created.body.errors ?? {})]).toEqual([400, ['identity']]);
      },
    );

    it('lists the linkable platforms on an unknown one', async () => {
      const res = await link({ platform: 'nasdaq', identity: 'x', address: BTC_ADDRESS }).expect(400);
      expect(problem(res).errors.platform[0]).toMatch(
        /arbitrum, base, binanceus, bitcoin, bitstamp, coinbase, ethereum, gemini, kraken, okx, optimism, polygon, solana, testex/,
      );
    });

    it('a duplicate identity: 409 (the other tenant may use it)', async () => {
      const res = await link({ platform: 'ethereum', identity: 'hh-1/metamask', address: ME }).expect(409);
      expect(Object.keys(problem(res).errors)).toEqual(['identity']);
      const other = await link(
        { platform: 'ethereum', identity: 'hh-1/metamask', address: ME },
        partnerB,
      ).expect(202);
      await untilSettled(other.body.result.accountId, partnerB);
    });

    it('the admin scope is refused on the partner routes (403), and no token is 401', async () => {
      await link({ platform: 'bitcoin', identity: 'adm', xpub: ZPUB }, admin).expect(403);
      await t.http
        .put('/v1/api/accounts/00000000-0000-4000-8000-000000000000/credentials')
        .set(bearer(admin))
        .send({ credentials: { apiKey: 'k' } })
        .expect(403);
      await t.http
        .delete('/v1/api/accounts/00000000-0000-4000-8000-000000000000')
        .set(bearer(admin))
        .expect(403);
      await t.http.post('/v1/api/accounts').send({}).expect(401);
    });

    it('Idempotency-Key: a retry gets the first answer and links nothing twice', async () => {
      const body = { platform: 'bitcoin', identity: 'hh-3/idem', address: BTC_ADDRESS };
      const first = await link(body).set('Idempotency-Key', 'link-hh-3').expect(202);
      const again = await link(body).set('Idempotency-Key', 'link-hh-3').expect(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.result.accountId).toBe(first.body.result.accountId);
      await untilSettled(first.body.result.accountId);
      const deleted = await t.http
        .delete(`/v1/api/accounts/${first.body.result.accountId}`)
        .set(bearer(partner))
        .set('Idempotency-Key', 'unlink-hh-3')
        .expect(204);
      expect(deleted.body).toEqual({});
      const replayed = await t.http
        .delete(`/v1/api/accounts/${first.body.result.accountId}`)
        .set(bearer(partner))
        .set('Idempotency-Key', 'unlink-hh-3')
        .expect(204);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
    });
  });

  describe('DELETE /v1/api/accounts/{id}', () => {
    it('another tenant gets 404 and the account stays', async () => {
      const { accountId } = (await get('/v1/api/account/identity/hh-1%2Fbtc-address').expect(200)).body
        .result;
      await t.http.delete(`/v1/api/accounts/${accountId}`).set(bearer(partnerB)).expect(404);
      await get(`/v1/api/account/${accountId}/transactions`).expect(200);
    });

    it('unlinks: credentials, transactions and balances go; reads answer 404', async () => {
      const { accountId } = (await get('/v1/api/account/identity/hh-2%2Ftestex').expect(200)).body.result;
      await t.http.delete(`/v1/api/accounts/${accountId}`).set(bearer(partner)).expect(204);
      await get(`/v1/api/account/${accountId}/transactions`).expect(404);
      await get(`/v1/api/account/${accountId}/balances`).expect(404);
      await get('/v1/api/account/identity/hh-2%2Ftestex').expect(404);
      const count = async (table: string) =>
        Number(
          (
            await t.app
              .get(DataSource)
              .query(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1`, [accountId])
          )[0].n,
        );
      expect(await count('transaction')).toBe(0);
      expect(await count('balance_snapshot')).toBe(0);
      expect(
        (await t.app.get(DataSource).query('SELECT id FROM account WHERE id = $1', [accountId])).length,
      ).toBe(0);
      await t.http.delete(`/v1/api/accounts/${accountId}`).set(bearer(partner)).expect(404);
      // The identity is free again.
      await link({
        platform: 'testex',
        identity: 'hh-2/testex',
        credentials: { apiKey: 'good-key', apiSecret: 's' },
      }).expect(202);
    });

    it('a malformed id is 400', async () => {
      await t.http.delete('/v1/api/accounts/not-a-uuid').set(bearer(partner)).expect(400);
    });
  });

  describe('the admin API', () => {
    it('links a bitcoin xpub for a tenant (validated by the domain parser)', async () => {
      const res = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: b.slug, platform: 'bitcoin', identity: 'b/zpub', source: 'bitcoin', xpub: ZPUB })
        .expect(201);
      expect(res.body).toMatchObject({ source: 'bitcoin', syncStatus: 'syncing', address: null });
      const refreshed = await t.http
        .post(`/admin/accounts/${res.body.accountId}/refresh?tenant=${b.slug}`)
        .set(bearer(admin))
        .expect(200);
      expect(refreshed.body).toMatchObject({ status: 'refreshed', inserted: 3 });
      const bad = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({
          tenant: b.slug,
          platform: 'bitcoin',
          identity: 'b/bad',
          source: 'bitcoin',
          xpub: `xprv${ZPUB.slice(4)}`,
        })
        .expect(400);
      expect(Object.keys(bad.body.errors)).toEqual(['xpub']);
      const none = await t.http
        .post('/admin/accounts')
        .set(bearer(admin))
        .send({ tenant: b.slug, platform: 'bitcoin', identity: 'b/none', source: 'bitcoin' })
        .expect(400);
      expect(Object.keys(none.body.errors)).toEqual(['address']);
    });

    it('reconnects an account of any tenant; another tenant named: 404', async () => {
      const { accountId } = (await get('/v1/api/account/identity/hh-2%2Fexpiring').expect(200)).body.result;
      const res = await t.http
        .put(`/admin/accounts/${accountId}/credentials?tenant=${a.slug}`)
        .set(bearer(admin))
        .send({ credentials: { apiKey: 'admin-key', apiSecret: 'x' } })
        .expect(200);
      expect(res.body).toMatchObject({ tenant: a.slug, hasCredentials: true, syncStatus: 'syncing' });
      expect(JSON.stringify(res.body)).not.toMatch(/admin-key/);
      await untilSettled(accountId);
      await t.http
        .put(`/admin/accounts/${accountId}/credentials?tenant=${b.slug}`)
        .set(bearer(admin))
        .send({ credentials: { apiKey: 'admin-key' } })
        .expect(404);
      await t.http
        .put(`/admin/accounts/${accountId}/credentials?tenant=${a.slug}`)
        .set(bearer(partner))
        .send({ credentials: { apiKey: 'admin-key' } })
        .expect(403);
    });
  });
});
