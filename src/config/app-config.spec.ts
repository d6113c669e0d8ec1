import { ConfigValidationError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('has safe embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      SANDBOX: true,
      RATE_LIMIT_PER_MINUTE: 600,
      MARKET_RATE_LIMIT_PER_MINUTE: 120,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.usesEmbeddedDatabase).toBe(true);
    expect(config.sandboxEnabled).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SANDBOX: 'maybe' }, 'SANDBOX'],
    [{ ENCRYPTION_KEY: 'short' }, 'ENCRYPTION_KEY'],
    [{ JWT_PRIVATE_KEYS: 'not json' }, 'JWT_PRIVATE_KEYS'],
    [{ BASE_RPC_URL: 'mainnet.base.org' }, 'BASE_RPC_URL'],
  ])('names the bad variable: %j', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigValidationError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}:`));
  });

  it('refuses production without a database, JWT keys and an encryption key', () => {
    try {
      loadConfig({ NODE_ENV: 'production' });
      throw new Error('expected a ConfigValidationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      const problems = (error as ConfigValidationError).problems.join('\n');
      expect(problems).toMatch(/DATABASE_URL: required/);
      expect(problems).toMatch(/JWT_PRIVATE_KEYS: required/);
      expect(problems).toMatch(/ENCRYPTION_KEY: required/);
    }
  });

  it('never enables the sandbox in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      SANDBOX: 'true',
      DATABASE_URL: 'postgres://db/x',
      JWT_PRIVATE_KEYS: JSON.stringify([{ kid: 'k1', privateKeyPem: '-----BEGIN PRIVATE KEY-----' }]),
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    expect(config.sandboxEnabled).toBe(false);
  });

  it('has a JSON-RPC endpoint per EVM chain, each overridable (issue 30 item 2)', () => {
    expect(loadConfig({}).evmRpcUrls).toEqual({
      ethereum: 'https://ethereum-rpc.publicnode.com',
      base: 'https://mainnet.base.org',
      arbitrum: 'https://arb1.arbitrum.io/rpc',
      optimism: 'https://mainnet.optimism.io',
      polygon: 'https://polygon-rpc.com',
    });
    expect(
      loadConfig({
        POLYGON_RPC_URL: 'https://polygon.example/v1/key',
        ETHEREUM_RPC_URL: 'http://127.0.0.1:8545',
      }).evmRpcUrls,
    ).toMatchObject({ polygon: 'https://polygon.example/v1/key', ethereum: 'http://127.0.0.1:8545' });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  describe('tracing (OTEL_*)', () => {
    it('is off without an OTLP endpoint', () => {
      expect(loadConfig({}).otlpTracesUrl).toBeUndefined();
      expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).otlpTracesUrl).toBeUndefined();
    });

    it.each([
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'http://collector:4318/v1/traces'],
      [
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/base/' },
        'https://otel.example.com/base/v1/traces',
      ],
      [
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
        },
        'http://traces:9999/custom',
      ],
    ])('sends spans to the standard OTLP/HTTP traces URL: %j', (env, url) => {
      expect(loadConfig(env).otlpTracesUrl).toBe(url);
    });

    it('stays off with OTEL_SDK_DISABLED=true, endpoint or not', () => {
      expect(
        loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })
          .otlpTracesUrl,
      ).toBeUndefined();
    });

    it.each([
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://x/v1/traces' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'],
      [{ OTEL_SDK_DISABLED: 'maybe' }, 'OTEL_SDK_DISABLED'],
      [{ OTEL_SERVICE_NAME: 'two words' }, 'OTEL_SERVICE_NAME'],
    ])('names the bad variable: %j', (env, variable) => {
      expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}:`));
    });
  });
  describe('exchange source settings', () => {
    it('reads EXCHANGE_API_URLS, EXCHANGE_GENERIC_IDS and EXCHANGE_RATE_LIMIT_MS; empty when unset', () => {
      const config = loadConfig({
        EXCHANGE_API_URLS: '{"kraken":"http://127.0.0.1:8080","binanceus":"https://proxy.example.com/b"}',
        EXCHANGE_GENERIC_IDS: 'kucoin,bitfinex',
        EXCHANGE_RATE_LIMIT_MS: '250',
      });
      expect(config.exchangeApiUrls).toEqual({
        kraken: 'http://127.0.0.1:8080',
        binanceus: 'https://proxy.example.com/b',
      });
      expect(config.exchangeGenericIds).toEqual(['kucoin', 'bitfinex']);
      expect(config.EXCHANGE_RATE_LIMIT_MS).toBe(250);
      const none = loadConfig({});
      expect(none.exchangeApiUrls).toEqual({});
      expect(none.exchangeGenericIds).toEqual([]);
      expect(none.EXCHANGE_RATE_LIMIT_MS).toBeUndefined();
    });

    it.each([
      [{ EXCHANGE_API_URLS: 'not json' }, 'EXCHANGE_API_URLS'],
      [{ EXCHANGE_API_URLS: '["http://x"]' }, 'EXCHANGE_API_URLS'],
      [{ EXCHANGE_API_URLS: '{"Kraken":"http://x"}' }, 'EXCHANGE_API_URLS'],
      [{ EXCHANGE_API_URLS: '{"kraken":"ftp://x"}' }, 'EXCHANGE_API_URLS'],
      [{ EXCHANGE_API_URLS: '{"kraken":5}' }, 'EXCHANGE_API_URLS'],
      [{ EXCHANGE_GENERIC_IDS: 'kucoin, bitfinex' }, 'EXCHANGE_GENERIC_IDS'],
      [{ EXCHANGE_RATE_LIMIT_MS: '0' }, 'EXCHANGE_RATE_LIMIT_MS'],
    ])('names the bad variable: %j', (env, variable) => {
      expect(() => loadConfig(env)).toThrow(new RegExp(`${variable}`));
    });
  });
});

// From test/token-limits.e2e-spec.ts: the parsing alone (no application needed).
describe('TRUST_PROXY configuration', () => {
  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7,::1', ['10.0.0.0/8', '192.168.1.7', '::1']],
  ])('accepts %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes', '10.0.0.0/33', '300.1.1.1', '-1', 'loopback,,'])(
    'rejects %j naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});
