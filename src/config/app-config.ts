/**
 * The one place that reads the environment. Everything else injects AppConfig.
 * Validated at start-up: a bad variable stops the process with a message naming it.
 */
import 'reflect-metadata';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidateIf,
  IsUrl,
} from 'class-validator';
import { EVM_CHAINS } from '../domain/chains/ethereum/evm-chains.js';

const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  return value;
};
const toNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : /^-?\d+(\.\d+)?$/.test(String(value))
      ? Number(value)
      : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** The job queue's schema when neither JOBS_SCHEMA nor DATABASE_SCHEMA is set (pglite-template.ts). */
export const DEFAULT_JOBS_SCHEMA = 'pgboss';

export class AppConfig {
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** PGlite files when DATABASE_URL is unset; the literal "memory" keeps the database in memory (tests). */
  @IsString()
  DATA_DIR = './data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  /** Postgres schema to use (tests isolate each suite in its own schema). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, { message: 'DATABASE_SCHEMA must be a lower-case SQL identifier' })
  DATABASE_SCHEMA?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** A query (or waiting for a connection) longer than this fails fast with 503. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  DATABASE_TIMEOUT_MS = 5000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /**
   * How long a rate-limit check waits for Redis before it is counted in memory (and Redis is
   * taken as unreachable until it answers again). Never more than a second (design §12).
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(1000)
  REDIS_TIMEOUT_MS = 250;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /**
   * `json`: one JSON object a line; `pretty`: coloured human-readable lines (pino-pretty); `auto`:
   * pretty when stdout is a terminal (and NODE_ENV is not test), JSON otherwise.
   */
  @IsIn(['auto', 'json', 'pretty'])
  LOG_FORMAT: 'auto' | 'json' | 'pretty' = 'auto';

  /** Seeds the sandbox tenants on an empty database. Forced off in production. */
  @Transform(toBool)
  @IsBoolean()
  SANDBOX = true;

  @IsString()
  JWT_ISSUER = 'https://crypto-asset-service.local';

  @IsString()
  JWT_AUDIENCE = 'crypto-asset-service-api';

  /**
   * Signing keys as JSON: [{"kid":"2026-04","privateKeyPem":"-----BEGIN PRIVATE KEY-----..."}].
   * The first signs; all verify (rotation). Required in production; generated and stored in the
   * database otherwise.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  JWT_PRIVATE_KEYS?: string;

  /** 32 bytes, base64: AES-256-GCM key for connector credentials. Required in production. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'ENCRYPTION_KEY must be 32 bytes in base64 (44 characters)' })
  ENCRYPTION_KEY?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE = 600;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  MARKET_RATE_LIMIT_PER_MINUTE = 120;

  /**
   * Failed credential verifications per source address and clientId per minute on the token
   * endpoints; beyond it that pair gets 429 until the minute is over. Correct secrets do not count.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_MINUTE = 60;

  /** Failed credential verifications per source address per minute, whatever the clientId (429 beyond). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_FAILURES_PER_IP_PER_MINUTE = 100;

  /**
   * Credential verifications (argon2id, ~19 MiB and tens of ms each) in progress at once on one
   * instance; a token request beyond it gets 503 with Retry-After: 1.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  TOKEN_VERIFICATIONS_MAX_CONCURRENT = 16;

  /**
   * Requests with a missing or invalid bearer token per source address per minute; beyond it that
   * address gets 429 (tokens this instance verified or issued before still work).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  BEARER_FAILURES_PER_MINUTE = 120;

  /**
   * Which peers may set the client address through X-Forwarded-For (Express's `trust proxy`):
   * empty/false (default, no proxy: the socket's address counts), a number of proxy hops, or a
   * comma-separated list of addresses, CIDR subnets and the names loopback, linklocal, uniquelocal.
   * Rate limits key on the resulting address, so trusting a proxy that is not there lets clients
   * choose their own counter.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  /** Prefix of rate-limit counter keys (lets several deployments or test runs share one Redis). */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, {
    message: 'RATE_LIMIT_PREFIX must be 1-64 characters of A-Z a-z 0-9 : _ -',
  })
  RATE_LIMIT_PREFIX = 'rate';

  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(86400)
  TOKEN_LIFETIME_SECONDS = 3600;

  /**
   * On SIGTERM, new requests (readiness included) get 503 with `Connection: close` at once, requests
   * already in flight finish, and the process waits this long before closing the listener (so a
   * load balancer notices readiness and stops routing here).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(120_000)
  SHUTDOWN_GRACE_MS = 0;

  /**
   * Scheduled refreshes and the job queue's workers (docs/jobs.md); tests turn them off and call
   * the services directly (or drain a queue).
   */
  @Transform(toBool)
  @IsBoolean()
  SCHEDULER_ENABLED = true;

  /**
   * The job queue (docs/jobs.md): how often an idle worker asks pg-boss for a job (pg-boss's
   * minimum is 500 ms). Workers run only when SCHEDULER_ENABLED is on; sending works either way.
   */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(600_000)
  JOBS_POLL_INTERVAL_MS = 2_000;

  /**
   * The schema pg-boss keeps its tables in (created on first use). Default: `pgboss`, or
   * `<DATABASE_SCHEMA>_jobs` when DATABASE_SCHEMA is set (each test suite's queue is its own).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z_][a-z0-9_]{0,50}$/, { message: 'JOBS_SCHEMA must be a lower-case SQL identifier' })
  JOBS_SCHEMA?: string;

  /**
   * How often pg-boss's supervisor (on SCHEDULER_ENABLED instances) fails the jobs that ran past
   * their expiry (a killed worker's) so they are retried, and applies retention.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600)
  JOBS_SUPERVISE_INTERVAL_SECONDS = 60;

  /** On shutdown, running jobs get this long to finish before the database closes under them. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  JOBS_SHUTDOWN_TIMEOUT_MS = 30_000;

  /**
   * Webhook delivery worker (docs/events.md): how often it fans out new events and sends due
   * deliveries. Runs when SCHEDULER_ENABLED is on.
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600_000)
  WEBHOOK_POLL_MS = 2_000;

  /** Time limit of one webhook HTTP call (connect to last byte of the answer). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** How long a worker holds a claimed delivery; a killed instance's claim lapses after it. */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(600_000)
  WEBHOOK_LEASE_MS = 60_000;

  /** How long a delivery is retried (exponential backoff with jitter) before it is `failed`. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24 * 14)
  WEBHOOK_RETRY_HOURS = 24;

  /** First retry delay; it doubles per attempt up to WEBHOOK_RETRY_MAX_DELAY_MS (jittered). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3_600_000)
  WEBHOOK_RETRY_BASE_MS = 5_000;

  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  WEBHOOK_RETRY_MAX_DELAY_MS = 3_600_000;

  /**
   * An endpoint is disabled after this many consecutive failed attempts, or when it has failed
   * without a single success for WEBHOOK_RETRY_HOURS.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  WEBHOOK_DISABLE_AFTER_FAILURES = 100;

  /** After a secret rotation, the old secret keeps signing alongside the new one this long. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(24 * 30)
  WEBHOOK_SECRET_OVERLAP_HOURS = 24;

  /**
   * Days the audit trail keeps an entry (docs/audit.md, "Retention"); a daily job prunes older
   * ones, keeping the chain verifiable. Default 2555 (7 years); SEC rule 204-2 asks for 5.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36_500)
  AUDIT_RETENTION_DAYS = 2555;

  /**
   * Partner reads are audited in batches: an entry waits at most this long in memory before it is
   * appended (with every other read of that moment, under one lock). 0 appends each read at once.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  AUDIT_READ_FLUSH_MS = 200;

  /**
   * Audited reads that may wait in memory for their append (docs/audit.md, "Backpressure"). Beyond
   * it a new audited read waits for room before it is answered, and after AUDIT_BACKLOG_WAIT_MS
   * (2 s) is refused with 503 and Retry-After: when appends fall behind (a saturated embedded
   * database, a database that is down) reads slow down instead of leaving entries to pile up.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(1_000_000)
  AUDIT_READ_BACKLOG = 20_000;

  /**
   * Per-source refresh schedule overrides (docs/sources.md, "Scheduling"), JSON:
   * `{"<source>": {"intervalMs"?, "maxConcurrent"?, "backoff"?: {"baseMs"?, "capMs"?, "jitter"?}}}`.
   * Checked at start-up (sources/refresh/source-schedule.ts).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  REFRESH_SCHEDULES?: string;

  @IsIn(['sandbox', 'coingecko'])
  MARKET_PROVIDER: 'sandbox' | 'coingecko' = 'sandbox';

  /**
   * Calls to the market provider per minute for prices of chain tokens outside the catalog (issue
   * 30 item 4), shared by every refresh of this process; CoinGecko's Demo plan allows 30.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  TOKEN_PRICE_CALLS_PER_MINUTE = 20;

  @ValidateIf((c: AppConfig) => c.COINGECKO_BASE_URL !== undefined)
  @IsUrl({ require_tld: false, require_protocol: true })
  @Transform(emptyToUndefined)
  COINGECKO_BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  COINGECKO_API_KEY?: string;

  /** Esplora REST API of the bitcoin source (Blockstream's or mempool.space's, or your own). */
  @IsUrl({ require_tld: false, require_protocol: true })
  ESPLORA_BASE_URL = 'https://blockstream.info/api';

  /** Etherscan-compatible account API of the ethereum source (v2 takes `chainid=1`). */
  @IsUrl({ require_tld: false, require_protocol: true })
  ETHERSCAN_BASE_URL = 'https://api.etherscan.io/v2/api';

  /** The operator's Etherscan API key (never an end client's; never logged). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  ETHERSCAN_API_KEY?: string;

  /**
   * JSON-RPC endpoints of the ethereum source, one per chain of its table
   * (src/domain/chains/ethereum/evm-chains.ts, docs/sources.md "EVM networks"): balances, and the
   * L1 data fees of Base and OP Mainnet. Defaults are the chains' public endpoints (rate-limited:
   * an operator with many accounts sets its own provider's URLs).
   */
  @IsUrl({ require_tld: false, require_protocol: true })
  ETHEREUM_RPC_URL = 'https://ethereum-rpc.publicnode.com';

  /** Solana JSON-RPC endpoint of the solana source (history, balances, staking rewards). */
  @IsUrl({ require_tld: false, require_protocol: true })
  SOLANA_RPC_URL = 'https://api.mainnet-beta.solana.com';

  @IsUrl({ require_tld: false, require_protocol: true })
  BASE_RPC_URL = 'https://mainnet.base.org';

  @IsUrl({ require_tld: false, require_protocol: true })
  ARBITRUM_RPC_URL = 'https://arb1.arbitrum.io/rpc';

  @IsUrl({ require_tld: false, require_protocol: true })
  OPTIMISM_RPC_URL = 'https://mainnet.optimism.io';

  @IsUrl({ require_tld: false, require_protocol: true })
  POLYGON_RPC_URL = 'https://polygon-rpc.com';

  /** The JSON-RPC endpoint of each EVM chain, by platform id (the keys above, by rpcUrlKey). */
  get evmRpcUrls(): Record<string, string> {
    return Object.fromEntries(
      EVM_CHAINS.map((chain) => [
        chain.platform,
        (this as unknown as Record<string, string | undefined>)[chain.rpcUrlKey] ?? chain.defaultRpcUrl,
      ]),
    );
  }

  /**
   * The exchange source's API hosts (docs/sources.md "Exchanges (ccxt)"): a JSON object of ccxt
   * exchange id → base URL, e.g. {"kraken":"http://127.0.0.1:8080"}, replacing the exchange's own
   * host in every API URL ccxt uses (the path is kept). For tests against a fake and for proxies.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  EXCHANGE_API_URLS?: string;

  /**
   * The "generic" exchange mapping: comma-separated ccxt exchange ids linkable as platforms
   * beyond the named six (coinbase, kraken, gemini, binanceus, bitstamp, okx), e.g. "kucoin,bitfinex".
   * Each must be an id of the installed ccxt (checked at start-up).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[a-z0-9]+(,[a-z0-9]+)*$/, {
    message:
      'EXCHANGE_GENERIC_IDS must be comma-separated lower-case ccxt exchange ids (e.g. kucoin,bitfinex)',
  })
  EXCHANGE_GENERIC_IDS?: string;

  /**
   * ccxt's `rateLimit` for every exchange, ms per request unit (ccxt's rate limiter stays on).
   * Unset: each exchange's own (Kraken: 1000). Lower it only where the account's limits allow.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(60_000)
  EXCHANGE_RATE_LIMIT_MS?: number;

  /** EXCHANGE_API_URLS as a map (validated by loadConfig); empty when unset. */
  get exchangeApiUrls(): Record<string, string> {
    return parseExchangeApiUrls(this.EXCHANGE_API_URLS) ?? {};
  }

  /** EXCHANGE_GENERIC_IDS as a list; empty when unset. */
  get exchangeGenericIds(): string[] {
    return this.EXCHANGE_GENERIC_IDS ? this.EXCHANGE_GENERIC_IDS.split(',') : [];
  }

  /**
   * Benchmark CAGR (a fraction) that /roi/projection's benchmark_diff compares with. Default 0.10:
   * US large-cap equities, S&P 500 total return, nominal, long run (docs/simulation.md).
   */
  @Transform(toNumber)
  @IsNumber(
    { allowNaN: false, allowInfinity: false },
    { message: 'ROI_BENCHMARK_CAGR must be a number (a fraction, e.g. 0.1)' },
  )
  @Min(-0.99)
  @Max(10)
  ROI_BENCHMARK_CAGR = 0.1;

  /**
   * Worker threads that run /qsim/simulate (docs/simulation.md §3). Default: one less than the
   * machine's cores, at least 1, so the request thread keeps a core for everything else.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  SIMULATION_WORKERS = Math.max(1, availableParallelism() - 1);

  /** Simulations that may wait for a busy worker; beyond workers + queue, 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  SIMULATION_QUEUE = 4;

  /** Simulations one client may have running or waiting at once; beyond, 429 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  SIMULATION_PER_CLIENT = 2;

  /**
   * Worker threads of the compute pool (issue 28; docs/reports.md "Heavy work"): the cost-basis
   * engine behind the gains report, Form 8949, Form 1099-DA reconciliation, lots, harvesting
   * candidates and report snapshots. Default: one less than the machine's cores, at least 1.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  COMPUTE_WORKERS = Math.max(1, availableParallelism() - 1);

  /**
   * Heavy requests (docs/reports.md "Heavy work") running at once on this instance, all tenants
   * together: each holds its slot from reading the ledger to the answer. Others wait in the fair
   * queue.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  HEAVY_WORK_SLOTS = 4;

  /** Heavy requests one tenant may have running at once; its others wait their turn. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  HEAVY_WORK_PER_TENANT = 2;

  /** Heavy requests one tenant may have waiting; beyond, 429 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  HEAVY_WORK_TENANT_QUEUE = 8;

  /** Heavy requests waiting on this instance, all tenants together; beyond, 503 with Retry-After. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100_000)
  HEAVY_WORK_QUEUE = 64;

  /**
   * Work budget of one simulation: assets × horizon_years at most this (each asset-year is 10,000
   * paths × 12 monthly steps); beyond, 400 naming horizon_years. At least 50, so a portfolio of
   * the 50 assets allowed can always be simulated over a year.
   */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(2500)
  SIMULATION_MAX_ASSET_YEARS = 600;

  /**
   * OpenTelemetry tracing (docs/observability.md): spans are exported over OTLP/HTTP to this base
   * URL (`/v1/traces` is appended) or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, the full URL. Neither
   * set: no tracing code is loaded at all.
   */
  @ValidateIf((c: AppConfig) => c.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Transform(emptyToUndefined)
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @ValidateIf((c: AppConfig) => c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Transform(emptyToUndefined)
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `service.name` of the exported spans. */
  @Matches(/^\S{1,100}$/, { message: 'OTEL_SERVICE_NAME must be 1-100 characters without spaces' })
  OTEL_SERVICE_NAME = 'crypto-asset-service';

  /** The standard OpenTelemetry off switch: true keeps tracing off even with an endpoint set. */
  @Transform(toBool)
  @IsBoolean()
  OTEL_SDK_DISABLED = false;

  /** Where spans go, or undefined when tracing is off (no endpoint, or OTEL_SDK_DISABLED). */
  get otlpTracesUrl(): string | undefined {
    if (this.OTEL_SDK_DISABLED) return undefined;
    if (this.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return this.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    if (!this.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
    return `${this.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  }

  /** TRUST_PROXY as Express's `trust proxy` setting (validated by loadConfig). */
  get trustProxy(): false | number | string[] {
    return parseTrustProxy(this.TRUST_PROXY) ?? false;
  }

  /** The schema pg-boss keeps its tables in (JOBS_SCHEMA). */
  get jobsSchema(): string {
    return this.JOBS_SCHEMA ?? (this.DATABASE_SCHEMA ? `${this.DATABASE_SCHEMA}_jobs` : DEFAULT_JOBS_SCHEMA);
  }

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }

  get sandboxEnabled(): boolean {
    return this.SANDBOX && !this.isProduction;
  }

  get usesEmbeddedDatabase(): boolean {
    return this.DATABASE_URL === undefined;
  }

  /** The format of the log lines on stdout, given whether stdout is a terminal. */
  logFormat(stdoutIsTerminal: boolean): 'json' | 'pretty' {
    if (this.LOG_FORMAT !== 'auto') return this.LOG_FORMAT;
    return stdoutIsTerminal && this.NODE_ENV !== 'test' ? 'pretty' : 'json';
  }
}

/** EXCHANGE_API_URLS as a map of ccxt id → http(s) base URL; undefined when malformed. */
function parseExchangeApiUrls(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined || value.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out: Record<string, string> = {};
  for (const [id, url] of Object.entries(parsed)) {
    if (!/^[a-z0-9]+$/.test(id) || typeof url !== 'string') return undefined;
    try {
      if (!['http:', 'https:'].includes(new URL(url).protocol)) return undefined;
    } catch {
      return undefined;
    }
    out[id] = url;
  }
  return out;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Express's forms of `trust proxy`; undefined when the text is none of them. */
function parseTrustProxy(value: string | undefined): false | number | string[] | undefined {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (/^\d{1,3}$/.test(text)) return Number(text) === 0 ? false : Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyEntry) ? entries : undefined;
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigValidationError';
  }
}

const KNOWN_KEYS = Object.keys(new AppConfig());

/** Builds and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const relevant: Record<string, string> = {};
  for (const key of [
    ...KNOWN_KEYS,
    'DATABASE_URL',
    'DATABASE_SCHEMA',
    'REDIS_URL',
    'JWT_PRIVATE_KEYS',
    'ENCRYPTION_KEY',
    'COINGECKO_BASE_URL',
    'COINGECKO_API_KEY',
    'ETHERSCAN_API_KEY',
    'EXCHANGE_API_URLS',
    'EXCHANGE_GENERIC_IDS',
    'EXCHANGE_RATE_LIMIT_MS',
    'TRUST_PROXY',
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  ]) {
    const value = env[key];
    if (value !== undefined) relevant[key] = value;
  }
  const config = plainToInstance(AppConfig, relevant);
  const problems = validateSync(config, { skipMissingProperties: false }).flatMap((error) =>
    Object.values(error.constraints ?? {}).map((message) => `${error.property}: ${message}`),
  );
  if (config.isProduction) {
    if (!config.DATABASE_URL) problems.push('DATABASE_URL: required when NODE_ENV=production');
    if (!config.JWT_PRIVATE_KEYS) problems.push('JWT_PRIVATE_KEYS: required when NODE_ENV=production');
    if (!config.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY: required when NODE_ENV=production');
  }
  if (parseTrustProxy(config.TRUST_PROXY) === undefined) {
    problems.push(
      'TRUST_PROXY: must be empty, false, a number of proxy hops, or a comma-separated list of addresses, CIDR subnets, loopback, linklocal or uniquelocal',
    );
  }
  if (parseExchangeApiUrls(config.EXCHANGE_API_URLS) === undefined) {
    problems.push(
      'EXCHANGE_API_URLS: must be a JSON object of lower-case ccxt exchange id to http(s) base URL, e.g. {"kraken":"http://127.0.0.1:8080"}',
    );
  }
  if (config.JWT_PRIVATE_KEYS) {
    try {
      const keys: unknown = JSON.parse(config.JWT_PRIVATE_KEYS);
      if (
        !Array.isArray(keys) ||
        keys.length === 0 ||
        !keys.every((k) => typeof k?.kid === 'string' && typeof k?.privateKeyPem === 'string')
      ) {
        problems.push('JWT_PRIVATE_KEYS: must be a JSON array of {kid, privateKeyPem}');
      }
    } catch {
      problems.push('JWT_PRIVATE_KEYS: must be valid JSON');
    }
  }
  if (problems.length > 0) throw new ConfigValidationError(problems);
  return config;
}
