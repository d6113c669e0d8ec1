import type { SourceDescription } from '../connectors/source-connector.js';

/**
 * The exchanges this service names and tests, by platform id, with the ccxt exchange class that
 * serves each and the credentials it needs (ccxt's `requiredCredentials` of that class, checked
 * by exchange.connector.spec.ts). `coinbase` is ccxt's `coinbase` class: Coinbase Advanced Trade (CDP API
 * keys), which also reads the retail account's history.
 */
export const NAMED_EXCHANGES: Readonly<Record<string, { ccxtId: string; credentials: readonly string[] }>> = {
  coinbase: { ccxtId: 'coinbase', credentials: ['apiKey', 'secret'] },
  kraken: { ccxtId: 'kraken', credentials: ['apiKey', 'secret'] },
  gemini: { ccxtId: 'gemini', credentials: ['apiKey', 'secret'] },
  binanceus: { ccxtId: 'binanceus', credentials: ['apiKey', 'secret'] },
  bitstamp: { ccxtId: 'bitstamp', credentials: ['apiKey', 'secret'] },
  okx: { ccxtId: 'okx', credentials: ['apiKey', 'secret', 'password'] },
};

/** Every credential field ccxt knows, and the names partners may send for them. */
export const CREDENTIAL_ALIASES: Readonly<Record<string, string>> = {
  apiKey: 'apiKey',
  secret: 'secret',
  apiSecret: 'secret',
  password: 'password',
  passphrase: 'password',
  uid: 'uid',
};

/**
 * The `exchange` source: a centralized exchange account read with its read-only API key through
 * ccxt (docs/sources.md "Exchanges (ccxt)"). The platforms listed here are the named ones; the
 * connector adds the generic ones of EXCHANGE_GENERIC_IDS.
 */
export const EXCHANGE_SOURCE: SourceDescription = {
  summary:
    '`exchange` (an exchange account by read-only API key through ccxt: coinbase, kraken, gemini, binanceus, bitstamp, okx, and the ccxt ids of EXCHANGE_GENERIC_IDS)',
  synthetic: false,
  options: {},
  linking: { platforms: Object.keys(NAMED_EXCHANGES), accepts: ['credentials'] },
  examples: {
    exchange: {
      summary:
        'Exchange: an account by its read-only API key (Kraken here; okx also takes a password). Put the client’s keys in: they are checked with the exchange before the account is linked.',
      body: {
        platform: 'kraken',
        source: 'exchange',
        credentials: { apiKey: 'your-read-only-api-key', secret: 'your-api-secret' },
      },
    },
  },
};
