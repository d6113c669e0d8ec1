/**
 * Boots the real application for e2e tests: in-memory PGlite by default; with DATABASE_URL, a
 * Postgres schema of its own per suite (dropped afterwards) so suites can run in parallel.
 */
import 'reflect-metadata';
import { appendFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import type { Clock } from '../../src/common/clock/clock.js';
import { ensurePGliteTemplate } from '../../src/database/pglite-template-maker.js';
import { createTestSchema, SANDBOX, usingPostgres } from './test-database.js';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  config: AppConfig;
  /** A fresh token for a sandbox client. */
  token(clientId?: string, secret?: string): Promise<string>;
  close(): Promise<void>;
}

export { createTestSchema, SANDBOX, usingPostgres } from './test-database.js';

/**
 * In-memory PGlite databases start from the source tree's template (`pglite-template/`, made by
 * the first test that needs it: ~2–4 s once, instead of creating a cluster and applying every
 * migration for each test app). Nothing to do on Postgres.
 */
export async function prepareEmbeddedDatabase(): Promise<void> {
  if (!usingPostgres()) await ensurePGliteTemplate();
}

export function testConfig(overrides: Record<string, string> = {}, schema?: string): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    DATA_DIR: 'memory',
    DATABASE_URL: process.env.DATABASE_URL,
    ...(schema ? { DATABASE_SCHEMA: schema } : {}),
    REDIS_URL: '',
    ...overrides,
  });
}

export async function startTestApp(
  overrides: Record<string, string> = {},
  options: { schema?: string; clock?: Clock; logs?: Writable } = {},
): Promise<TestApp> {
  countAppStart();
  const ownSchema = usingPostgres() && !options.schema ? await createTestSchema() : undefined;
  await prepareEmbeddedDatabase();
  const config = testConfig(overrides, options.schema ?? ownSchema?.schema);
  // Silent, unless the caller reads the app's log lines (`logs`, from its first line).
  const app = await createApp(
    config,
    options.logs
      ? { clock: options.clock, logDestination: options.logs }
      : { logs: false, clock: options.clock },
  );
  await app.init();
  const http = request(app.getHttpServer());
  let closing: Promise<void> | undefined;
  return {
    app,
    http,
    config,
    async token(clientId: string = SANDBOX.partner.clientId, secret: string = SANDBOX.partner.secret) {
      const response = await http.post('/v1/api/token').send({ clientId, clientSecret: secret });
      if (response.status !== 200)
        throw new Error(`token for ${clientId}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.result.accessToken as string;
    },
    close() {
      // Idempotent: a shared app (test/support/e2e-world.ts) may be closed by its file and a suite.
      closing ??= (async () => {
        await app.close();
        await ownSchema?.drop();
      })();
      return closing;
    },
  };
}

/**
 * With E2E_APP_STARTS_FILE set, every application start appends the test file's path to that file:
 * `sort | uniq -c` of it after a run gives the starts per file (test/e2e/README.md, the ledger).
 */
export function countAppStart(): void {
  const file = process.env.E2E_APP_STARTS_FILE;
  if (!file) return;
  const testPath = (
    globalThis as { expect?: { getState?: () => { testPath?: string } } }
  ).expect?.getState?.().testPath;
  appendFileSync(file, `${testPath ?? 'unknown'}\n`);
}
