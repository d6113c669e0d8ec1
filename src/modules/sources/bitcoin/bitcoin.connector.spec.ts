/**
 * The bitcoin connector against a local fake Esplora: xpub discovery over the gap limit, paging,
 * the ledger legs and their prices, the reported balance, and the failures the refresh engine
 * must see as "source unavailable" (429, malformed body, timeout).
 */
import { createServer, type AddressInfo } from 'node:net';
import { parseExtendedPublicKey, type EsploraTransaction } from '../../../domain/chains/bitcoin/index.js';
import { FakeEsplora } from '../../../../test/fakes/esplora-fake-server.js';
import {
  SourceUnavailableError,
  type ConnectorRequest,
  type SourceTransaction,
} from '../connectors/source-connector.js';
import { BitcoinConnector } from './bitcoin.connector.js';
import { EsploraClient } from './esplora.client.js';

const ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const wallet = parseExtendedPublicKey(ZPUB);
const RECEIVE_0 = wallet.address(0, 0);
const RECEIVE_1 = wallet.address(0, 1);
const RECEIVE_3 = wallet.address(0, 3);
const CHANGE_0 = wallet.address(1, 0);
const EXCHANGE = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const FRIEND = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

let counter = 0;
function tx(
  height: number,
  time: string,
  inputs: [string, number][],
  outputs: [string, number][],
  fee: number,
): EsploraTransaction {
  counter += 1;
  return {
    txid: counter.toString(16).padStart(64, 'a'),
    vin: inputs.map(([address, value], i) => ({
      txid: 'b'.repeat(64),
      vout: i,
      prevout: { scriptpubkey_address: address, value },
    })),
    vout: outputs.map(([address, value]) => ({ scriptpubkey_address: address, value })),
    fee,
    status: { confirmed: true, block_height: height, block_time: Date.parse(time) / 1000 },
  };
}

const deposit = tx(
  800_000,
  '2024-03-01T10:00:00Z',
  [[EXCHANGE, 50_020_000]],
  [[RECEIVE_0, 50_000_000]],
  20_000,
);
const payment = tx(
  800_100,
  '2024-03-02T12:00:00Z',
  [[RECEIVE_0, 50_000_000]],
  [
    [FRIEND, 20_000_000],
    [CHANGE_0, 29_985_000],
  ],
  15_000,
);
const later = tx(801_000, '2024-04-01T00:00:00Z', [[EXCHANGE, 10_001_000]], [[RECEIVE_3, 10_000_000]], 1_000);
/** 30 small receipts at one address: more than one Esplora page (25). */
const dust = Array.from({ length: 30 }, (_, i) =>
  tx(
    802_000 + i,
    `2024-05-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
    [[EXCHANGE, 2_000]],
    [[RECEIVE_1, 1_000]],
    1_000,
  ),
);
const unconfirmed: EsploraTransaction = {
  ...tx(0, '2024-06-01T00:00:00Z', [[EXCHANGE, 9_000]], [[RECEIVE_3, 8_000]], 1_000),
  status: { confirmed: false },
};

const prices = {
  pricesOnDate: async (symbols: readonly string[], date: string) =>
    new Map(date >= '2024-01-01' ? [[symbols[0]!, date === '2024-03-02' ? '62000.25' : '60000']] : []),
};

/** A port nothing listens on: one the system just handed out and took back. */
const closedPort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });

describe('BitcoinConnector against a fake Esplora', () => {
  const esplora = new FakeEsplora();
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await esplora.start();
  });
  afterAll(() => esplora.stop());
  beforeEach(() => {
    esplora.setTransactions([deposit, payment, later, ...dust, unconfirmed]);
    esplora.requests.length = 0;
  });

  const connector = (requestTimeoutMs = 2_000) =>
    new BitcoinConnector(new EsploraClient({ baseUrl, requestTimeoutMs }), prices);
  const request = (
    options: { xpub?: string; address?: string },
    signal = new AbortController().signal,
  ): ConnectorRequest => ({
    account: {
      id: '00000000-0000-4000-8000-000000000001',
      tenantId: '00000000-0000-4000-8000-000000000002',
      platform: 'bitcoin',
      identity: 'btc-wallet',
      address: options.address ?? null,
      chain: 'bitcoin',
      createdOn: new Date('2024-01-01T00:00:00Z'),
      lastSyncedAt: null,
      sourceOptions: options.xpub ? { xpub: options.xpub } : null,
    },
    credentials: null,
    now: new Date('2024-07-01T00:00:00Z'),
    signal,
  });
  const collect = async (pages: AsyncIterable<readonly SourceTransaction[]>) => {
    const all: SourceTransaction[] = [];
    for await (const page of pages) all.push(...page);
    return all;
  };

  it('finds the used addresses of a zpub, reads every page, and maps the wallet’s history', async () => {
    const result = await connector().fetch(request({ xpub: ZPUB }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect(result.mode).toBe('full');
    const legs = await collect(result.pages);
    // Receipts from and payments to outside are transfer legs named by their chain txid: paired
    // with an exchange's leg of the same transaction they move lots, unpaired they are a
    // deposit/withdrawal (same amounts as before).
    expect(legs.slice(0, 4).map((l) => [l.direction, l.amount, l.priceUsd, l.transferId])).toEqual([
      ['transfer_in', '0.5', null, `chain:${deposit.txid}`],
      ['transfer_out', '0.2', null, `chain:${payment.txid}`], // the change back to CHANGE_0 is the wallet's own
      ['fee', '0.00015', '62000.25', null], // the day's stored price
      ['transfer_in', '0.1', null, `chain:${later.txid}`],
    ]);
    expect(legs[0]!.transactionId).toBe(`${deposit.txid}:deposit`);
    expect(legs.slice(4)).toHaveLength(30);
    expect(legs.slice(4).every((l) => l.direction === 'transfer_in' && l.amount === '0.00001')).toBe(true);
    expect(legs.every((l) => l.symbol === 'BTC' && l.feeUsd === null)).toBe(true);
    expect(new Set(legs.map((l) => l.transactionId)).size).toBe(legs.length);
    // Confirmed holdings: 0.5 − 0.2 − 0.00015 + 0.1 + 30 × 0.00001, as Esplora's own sums say.
    expect(result.reportedBalances).toEqual(new Map([['BTC', '0.40015']]));
    // Receive chain scanned to index 23 (20 unused after 3), change to 20 (20 unused after 0); RECEIVE_1 took two pages.
    const pages = esplora.requests.filter((p) => p.startsWith(`/address/${RECEIVE_1}/txs/chain`));
    expect(pages).toHaveLength(2);
  });

  it('watches a single address: coins it sent to the xpub’s change address count as withdrawn', async () => {
    const result = await connector().fetch(request({ address: RECEIVE_0 }));
    if (result.status !== 'ready') throw new Error('expected ready');
    expect((await collect(result.pages)).map((l) => [l.direction, l.amount])).toEqual([
      ['transfer_in', '0.5'],
      ['transfer_out', '0.49985'],
      ['fee', '0.00015'],
    ]);
    expect(result.reportedBalances).toEqual(new Map([['BTC', '0']]));
  });

  it.each([
    ['a 429', { path: /^\/address\/[^/]+$/, status: 429 }, /429/],
    ['a 503', { path: /txs\/chain/, status: 503 }, /503/],
    ['a malformed page', { path: /txs\/chain/, body: '[{"txid":"not-a-txid"}]' }, /malformed transaction/],
    ['a body that is not JSON', { path: /^\/address\/[^/]+$/, body: '<html>' }, /not JSON/],
    ['a request slower than the timeout', { path: /txs\/chain/, delayMs: 500 }, /timed out after 200 ms/],
  ])(
    'answers %s as source unavailable (the engine keeps the old data and retries)',
    async (_label, fault, message) => {
      esplora.fail(fault);
      await expect(connector(200).fetch(request({ address: RECEIVE_0 }))).rejects.toThrow(
        expect.objectContaining({
          name: SourceUnavailableError.name,
          message: expect.stringMatching(message),
        }),
      );
    },
  );

  it('says why Esplora could not be reached (the error code), without its address', async () => {
    const unreachable = new BitcoinConnector(
      new EsploraClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, requestTimeoutMs: 2_000 }),
      prices,
    );
    const failure = unreachable.fetch(request({ address: RECEIVE_0 }));
    await expect(failure).rejects.toThrow('Esplora could not be reached (ECONNREFUSED).');
    await expect(failure).rejects.not.toThrow(/127\.0\.0\.1/);
  });

  it('stops when the engine aborts', async () => {
    esplora.fail({ path: /txs\/chain/, delayMs: 1_000 });
    const controller = new AbortController();
    const fetching = connector(5_000).fetch(request({ address: RECEIVE_0 }, controller.signal));
    setTimeout(() => controller.abort(new Error('refresh timed out')), 50);
    await expect(fetching).rejects.toThrow('refresh timed out');
  });

  it('refuses to invent a price: a fee before the stored history fails the refresh with the date', async () => {
    esplora.setTransactions([
      tx(100, '2013-05-01T00:00:00Z', [[EXCHANGE, 2_000]], [[RECEIVE_0, 1_000]], 1_000),
      tx(101, '2013-05-02T00:00:00Z', [[RECEIVE_0, 1_000]], [[FRIEND, 500]], 500),
    ]);
    await expect(connector().fetch(request({ address: RECEIVE_0 }))).rejects.toThrow(
      /No stored BTC price on or before 2013-05-02/,
    );
  });

  it('keeps a valid extended public key as the account option and refuses others naming xpub', () => {
    const bitcoin = connector();
    expect(bitcoin.describe().linking).toEqual({ platforms: ['bitcoin'], accepts: ['address', 'xpub'] });
    expect(bitcoin.accountOptions({ xpub: ` ${ZPUB} ` })).toEqual({ xpub: ZPUB });
    expect(bitcoin.accountOptions({})).toBeNull();
    const refused = (xpub: string) => {
      try {
        bitcoin.accountOptions({ xpub });
      } catch (error) {
        return (error as { fieldErrors?: Record<string, string[]> }).fieldErrors;
      }
      throw new Error('accepted');
    };
    expect(refused(`zprv${ZPUB.slice(4)}`)).toEqual({ xpub: [expect.stringMatching(/PRIVATE key/)] });
    expect(refused(`${ZPUB.slice(0, -1)}t`)).toEqual({ xpub: [expect.stringMatching(/malformed/)] });
    expect(JSON.stringify(refused(`zprv${ZPUB.slice(4)}`))).not.toContain(ZPUB.slice(4));
  });
});
