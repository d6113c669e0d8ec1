/**
 * The one place that reads the environment. Everything else injects AppConfig.
 * Validated at start-up: a bad variable stops the process with a message naming it.
 */
import 'reflect-metadata';
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

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

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

  @Transform(toInt)
  @IsInt()
  @Min(1)
  TOKEN_RATE_LIMIT_PER_MINUTE = 60;

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

  /** Scheduled refresh jobs; tests turn them off and call the services directly. */
  @Transform(toBool)
  @IsBoolean()
  SCHEDULER_ENABLED = true;

  @IsIn(['sandbox', 'coingecko'])
  MARKET_PROVIDER: 'sandbox' | 'coingecko' = 'sandbox';

  @ValidateIf((c: AppConfig) => c.COINGECKO_BASE_URL !== undefined)
  @IsUrl({ require_tld: false, require_protocol: true })
  @Transform(emptyToUndefined)
  COINGECKO_BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  COINGECKO_API_KEY?: string;

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

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }

  get sandboxEnabled(): boolean {
    return this.SANDBOX && !this.isProduction;
  }

  get usesEmbeddedDatabase(): boolean {
    return this.DATABASE_URL === undefined;
  }
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
