/**
 * Service tier: prices for what the chains bring (issue 30 item 4). The market module's
 * TokenPricesService and MarketPricesService on a real database, against the CoinGecko fake's
 * contract and market_chart endpoints; a manual clock.
 */
import { ManualClock } from '../../src/common/clock/clock.js';
import type { ChainTokenRef } from '../../src/common/ports/market-prices.port.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { MarketModule } from '../../src/modules/market/index.js';
import {
  CallBudget,
  ChainTokenEntity,
  ChainTokenPriceEntity,
  CoinGeckoMarketProvider,
  MarketPricesService,
  MarketRepository,
  SandboxMarketProvider,
  TokenPricesService,
  UNPRICEABLE_RETRY_MS,
} from '../../src/modules/market/testing.js';
import {
  CoinGeckoFakeServer,
  FAKE_COINS,
  fakeDailyPrice,
  type FakeCoin,
} from '../fakes/coingecko-fake-server.js';
import { FixedMarketPrices } from '../fakes/fixed-market-prices.js';
import { startServiceModule, type ServiceModule } from '../support/service-module.js';

const NOW = new Date('2026-04-01T12:00:00Z');
const YESTERDAY = '2026-03-31';

/** Aerodrome on Base: a token outside the market catalog (its real contract). */
const AERO: FakeCoin = {
  id: 'aerodrome-finance',
  symbol: 'aero',
  name: 'Aerodrome Finance',
  price: 0.5,
  marketCap: 400_000_000,
  volume: 20_000_000,
  rank: 150,
  circulating: 800_000_000,
  total: 1_500_000_000,
  max: null,
  platforms: { base: '0x940181a94A35A4569E4529A3CDfB74e38FD98631' },
};
/** dogwifhat on Solana, by mint (case matters for mints). */
const WIF: FakeCoin = {
  ...AERO,
  id: 'dogwifcoin',
  symbol: 'wif',
  name: 'dogwifhat',
  price: 2.5,
  rank: 90,
  platforms: { solana: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm' },
};

const aero: ChainTokenRef = {
  symbol: 'ERC940181A94A35A45',
  platform: 'base',
  contract: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
};
const wif: ChainTokenRef = {
  symbol: 'SPLEKPQGSJTJMFQKZ',
  platform: 'solana',
  contract: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm',
};
const unknown: ChainTokenRef = {
  symbol: 'ERC1111111111111111',
  platform: 'base',
  contract: '0x1111111111111111111111111111111111111111',
};

/** The fake's price of a coin on a UTC day before its "now" (2026-04-01), as decimal text. */
const priceOn = (coin: FakeCoin, date: string) =>
  String(fakeDailyPrice(coin, 1 + (Date.parse('2026-04-01') - Date.parse(date)) / 86_400_000));

describe('chain token prices (service tier)', () => {
  const fake = new CoinGeckoFakeServer([...FAKE_COINS, AERO, WIF]);
  let s: ServiceModule;
  let clock: ManualClock;
  let tokens: TokenPricesService;
  let prices: MarketPricesService;
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = await fake.start();
    clock = new ManualClock(NOW);
    s = await startServiceModule({
      imports: [MarketModule],
      clock,
      prices: new FixedMarketPrices({}),
      env: {
        MARKET_PROVIDER: 'coingecko',
        COINGECKO_BASE_URL: baseUrl,
        TOKEN_PRICE_CALLS_PER_MINUTE: '1000',
      },
    });
    tokens = s.get(TokenPricesService);
    prices = s.get(MarketPricesService);
    // USDC as the market refresh stores a catalog asset: an asset row and its snapshot.
    await s.dataSource.query(
      `INSERT INTO asset (id, coingecko_id, symbol, name, source) VALUES (8, 'usd-coin', 'USDC', 'USDC', 'coingecko')`,
    );
    await s.dataSource.query(
      `INSERT INTO market_snapshot (asset_id, price_usd, provider_updated_at, as_of, source)
       VALUES (8, '1.0001', $1, $1, 'coingecko')`,
      [NOW],
    );
  });

  afterAll(async () => {
    await s?.close();
    await fake.stop();
  });

  beforeEach(() => {
    clock.set(NOW);
    fake.requests.length = 0;
    fake.clearFailures();
  });

  it('a catalog symbol is the catalog’s: the provider is not asked', async () => {
    const usdcOnBase = {
      symbol: 'USDC',
      platform: 'base',
      contract: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    };
    expect(await tokens.ensure([usdcOnBase], '2026-01-01', YESTERDAY)).toEqual(
      new Map([['USDC', 'catalog']]),
    );
    expect(fake.requests).toEqual([]);
  });

  it('a listed token is looked up by platform and contract, its daily prices stored and served by date and as the latest', async () => {
    const states = await prices.ensureTokenPrices([aero, wif], '2026-03-01', YESTERDAY);
    expect(states).toEqual(
      new Map([
        [aero.symbol, 'priced'],
        [wif.symbol, 'priced'],
      ]),
    );
    expect(fake.requests.map((r) => r.path)).toEqual([
      `/coins/base/contract/${aero.contract}`,
      '/coins/aerodrome-finance/market_chart',
      `/coins/solana/contract/${wif.contract}`,
      '/coins/dogwifcoin/market_chart',
    ]);
    // 2026-03-01 to 2026-03-31, counted back from 2026-04-01: 31 days and one more.
    expect(fake.requests[1].query).toMatchObject({ vs_currency: 'usd', days: '32', interval: 'daily' });

    const rows = await s.dataSource.getRepository(ChainTokenPriceEntity).countBy({ symbol: aero.symbol });
    expect(rows).toBe(31);
    expect(await prices.pricesOnDate([aero.symbol, wif.symbol, 'USDC'], '2026-03-15')).toEqual(
      new Map([
        [aero.symbol, priceOn(AERO, '2026-03-15')],
        [wif.symbol, priceOn(WIF, '2026-03-15')],
      ]),
    );
    // Before the first stored day there is no price; after the last, the last one.
    expect(await prices.pricesOnDate([aero.symbol], '2026-02-28')).toEqual(new Map());
    expect((await prices.pricesOnDate([aero.symbol], '2026-06-01')).get(aero.symbol)).toBe(
      priceOn(AERO, YESTERDAY),
    );
    const latest = await prices.latestPricesUsd([aero.symbol.toLowerCase(), 'USDC']);
    expect(latest.get(aero.symbol)).toEqual({
      priceUsd: priceOn(AERO, YESTERDAY),
      asOf: new Date('2026-03-31T23:59:59.999Z'),
    });
    expect(latest.get('USDC')?.priceUsd).toBe('1.0001');
    const row = await s.dataSource.getRepository(ChainTokenEntity).findOneByOrFail({ symbol: aero.symbol });
    expect(row).toMatchObject({
      platform: 'base',
      coingeckoId: 'aerodrome-finance',
      status: 'priced',
      pricedFrom: '2026-03-01',
      pricedTo: YESTERDAY,
    });
  });

  it('a covered range asks nothing; a later day asks only for the history, not the contract again', async () => {
    await tokens.ensure([aero], '2026-03-01', YESTERDAY);
    expect(await tokens.ensure([aero], '2026-03-10', '2026-03-20')).toEqual(
      new Map([[aero.symbol, 'priced']]),
    );
    expect(fake.requests).toEqual([]);

    clock.set(new Date('2026-04-02T12:00:00Z'));
    fake.now = new Date('2026-04-02T12:00:00Z');
    try {
      expect(await tokens.ensure([aero], '2026-03-01', '2026-04-01')).toEqual(
        new Map([[aero.symbol, 'priced']]),
      );
      expect(fake.requests.map((r) => r.path)).toEqual(['/coins/aerodrome-finance/market_chart']);
      const row = await s.dataSource.getRepository(ChainTokenEntity).findOneByOrFail({ symbol: aero.symbol });
      expect(row.pricedTo).toBe('2026-04-01');
    } finally {
      fake.now = NOW;
    }
  });

  it('a contract the provider does not list is unpriceable, kept a week before it is asked again', async () => {
    expect(await tokens.ensure([unknown], '2026-03-01', YESTERDAY)).toEqual(
      new Map([[unknown.symbol, 'unpriceable']]),
    );
    expect(fake.requests.map((r) => r.path)).toEqual([`/coins/base/contract/${unknown.contract}`]);
    expect(await prices.pricesOnDate([unknown.symbol], YESTERDAY)).toEqual(new Map());

    fake.requests.length = 0;
    clock.set(new Date(NOW.getTime() + UNPRICEABLE_RETRY_MS - 1));
    expect(await tokens.ensure([unknown], '2026-03-01', YESTERDAY)).toEqual(
      new Map([[unknown.symbol, 'unpriceable']]),
    );
    expect(fake.requests).toEqual([]);

    clock.set(new Date(NOW.getTime() + UNPRICEABLE_RETRY_MS));
    await tokens.ensure([unknown], '2026-03-01', YESTERDAY);
    expect(fake.requests).toHaveLength(1);
  });

  it('a provider failure defers the token (nothing stored, nothing thrown); the next refresh prices it', async () => {
    const other: ChainTokenRef = { ...aero, symbol: 'ERCAEROAGAIN', platform: 'base' };
    // `x-should-retry: false` spares the test the SDK's backoff; the failure is the same to us.
    fake.fail(/\/market_chart$/, 500, { headers: { 'x-should-retry': 'false' } });
    expect(await tokens.ensure([other], '2026-03-01', YESTERDAY)).toEqual(
      new Map([[other.symbol, 'deferred']]),
    );
    expect(await s.dataSource.getRepository(ChainTokenEntity).countBy({ symbol: other.symbol })).toBe(0);

    fake.clearFailures();
    expect(await tokens.ensure([other], '2026-03-01', YESTERDAY)).toEqual(
      new Map([[other.symbol, 'priced']]),
    );
  });

  it('the call budget per minute defers what does not fit, and frees up as the minute passes', async () => {
    const budgeted = new TokenPricesService(
      s.dataSource.getRepository(ChainTokenEntity),
      s.dataSource.getRepository(ChainTokenPriceEntity),
      s.get(MarketRepository),
      new CoinGeckoMarketProvider({ baseUrl: baseUrl, maxRetries: 0 }),
      clock,
      { TOKEN_PRICE_CALLS_PER_MINUTE: 3 } as AppConfig,
    );
    const a = { ...unknown, symbol: 'ERCBUDGETA', contract: '0x2222222222222222222222222222222222222222' };
    const b = { ...unknown, symbol: 'ERCBUDGETB', contract: '0x3333333333333333333333333333333333333333' };
    // Each unknown token costs two calls at most (contract, history); 3 a minute fit one.
    expect(await budgeted.ensure([a, b], '2026-03-01', YESTERDAY)).toEqual(
      new Map([
        [a.symbol, 'unpriceable'],
        [b.symbol, 'deferred'],
      ]),
    );
    clock.advanceMs(60_000);
    expect((await budgeted.ensure([b], '2026-03-01', YESTERDAY)).get(b.symbol)).toBe('unpriceable');
  });

  it('a provider that serves no tokens (the sandbox) leaves them unpriceable, with no row kept', async () => {
    const sandbox = new TokenPricesService(
      s.dataSource.getRepository(ChainTokenEntity),
      s.dataSource.getRepository(ChainTokenPriceEntity),
      s.get(MarketRepository),
      new SandboxMarketProvider(),
      clock,
      { TOKEN_PRICE_CALLS_PER_MINUTE: 20 } as AppConfig,
    );
    const fresh = { ...aero, symbol: 'ERCSANDBOXONLY' };
    expect(await sandbox.ensure([fresh], '2026-03-01', YESTERDAY)).toEqual(
      new Map([[fresh.symbol, 'unpriceable']]),
    );
    expect(await s.dataSource.getRepository(ChainTokenEntity).countBy({ symbol: fresh.symbol })).toBe(0);
  });
});

describe('CallBudget', () => {
  it('counts calls in a sliding minute', () => {
    let now = 0;
    const budget = new CallBudget(3, () => now);
    expect(budget.take(2)).toBe(true);
    now = 30_000;
    expect(budget.take(2)).toBe(false);
    expect(budget.take(1)).toBe(true);
    now = 59_999;
    expect(budget.take(1)).toBe(false);
    now = 60_000; // the first two calls leave the window
    expect(budget.take(2)).toBe(true);
    expect(budget.take(1)).toBe(false);
  });
});
