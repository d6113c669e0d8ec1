/**
 * Redis unreachable (issue 27 item 12, design §12): the rate limits and failure counters carry on
 * in memory, each check answered within a second, with one warning when Redis goes away (and one
 * line when it is back), never a wait, a 500 or ioredis' raw "Unhandled error event". Real
 * ioredis against real sockets: a closed port (refused) and a server that accepts and never
 * answers (hangs); with REDIS_URL, a real Redis behind a proxy that stalls and heals.
 */
import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { getStorageToken, type ThrottlerStorage } from '@nestjs/throttler';
import { FailureCounter } from '../../src/common/guards/failure-counter.js';
import { RateLimitModule } from '../../src/common/guards/rate-limit.module.js';
import { RedisLink } from '../../src/common/guards/redis-link.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { MetricsRegistry, RateLimitGauges } from '../../src/modules/metrics/testing.js';
import { freePort } from '../support/process.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { testConfig } from '../support/test-app.js';

const MINUTE_MS = 60_000;
const LIMIT = 3;

async function limitsWith(redisUrl: string): Promise<TestingModule> {
  const module = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot(
        testConfig({ REDIS_URL: redisUrl, RATE_LIMIT_PREFIX: `t${randomBytes(4).toString('hex')}` }),
      ),
      RateLimitModule,
    ],
  }).compile();
  await module.init();
  return module;
}

/** Lines the limits log about Redis (Nest's Logger; the service writes them through pino). */
function redisLines() {
  const warnings: unknown[][] = [];
  const infos: unknown[][] = [];
  const about = (args: unknown[]) => JSON.stringify(args).includes('Redis');
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation((...args: unknown[]) => {
    if (about(args)) warnings.push(args);
  });
  const log = jest.spyOn(Logger.prototype, 'log').mockImplementation((...args: unknown[]) => {
    if (about(args)) infos.push(args);
  });
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  return {
    warnings,
    infos,
    rawIoredisLines: () =>
      consoleError.mock.calls.filter((call) => String(call[0]).includes('[ioredis] Unhandled error event')),
    restore() {
      warn.mockRestore();
      log.mockRestore();
      consoleError.mockRestore();
    },
  };
}

/** The rate-limit series of /metrics, as the metrics module renders them for this link. */
async function rateLimitSeries(module: TestingModule): Promise<string> {
  const metrics = new MetricsRegistry();
  new RateLimitGauges(metrics, module.get(RedisLink));
  return (await metrics.render())
    .split('\n')
    .filter((line) => /^cas_(redis|rate_limit)/.test(line))
    .join('\n');
}

/** `count` hits on one key: each answered within a second, the limit applied as in memory. */
async function burst(storage: ThrottlerStorage, key: string, count: number) {
  const answers = [];
  for (let i = 0; i < count; i++) {
    const startedAt = performance.now();
    const record = await storage.increment(key, MINUTE_MS, LIMIT, MINUTE_MS, 'default');
    answers.push({
      ms: performance.now() - startedAt,
      totalHits: record.totalHits,
      isBlocked: record.isBlocked,
    });
  }
  return answers;
}

describe('rate limits while Redis is unreachable (service)', () => {
  const hanging = new TcpProxy('127.0.0.1', 9); // accepts, never answers: it never forwards
  beforeAll(async () => {
    await hanging.start();
    hanging.blackhole();
  });
  afterAll(() => hanging.stop());

  it.each([
    ['refuses connections (a closed port)', async () => `redis://127.0.0.1:${await freePort()}`],
    ['accepts and never answers', async () => `redis://127.0.0.1:${hanging.port}`],
  ])(
    'Redis that %s: every check answers within a second from memory, limits hold, one warning',
    async (_name, url) => {
      const lines = redisLines();
      const module = await limitsWith(await url());
      try {
        const storage = module.get<ThrottlerStorage>(getStorageToken());
        const answers = await burst(storage, 'client:a', LIMIT + 2);
        expect(answers.map(({ totalHits, isBlocked }) => ({ totalHits, isBlocked }))).toEqual([
          { totalHits: 1, isBlocked: false },
          { totalHits: 2, isBlocked: false },
          { totalHits: 3, isBlocked: false },
          { totalHits: 4, isBlocked: true },
          { totalHits: 5, isBlocked: true },
        ]);
        for (const { ms } of answers) expect(ms).toBeLessThan(1_000);

        // The failure counter (token endpoints, bearer guard) counts in memory too: not fail-open.
        const failures = module.get(FailureCounter);
        const key = 'bearer-failures:ip:192.0.2.1';
        const startedAt = performance.now();
        for (let i = 0; i < LIMIT; i++) await failures.recordFailure(key, MINUTE_MS);
        expect(await failures.blockedFor(key, LIMIT)).toBeGreaterThan(0);
        expect(performance.now() - startedAt).toBeLessThan(1_000);

        await new Promise((resolve) => setTimeout(resolve, 1_500)); // reconnect attempts go on
        expect(lines.warnings).toHaveLength(1);
        expect(String(lines.warnings[0]![1])).toMatch(
          /^Redis is unreachable \(.+\): rate limits and failure counters are kept in this instance's memory until it answers again\.$/,
        );
        expect(lines.rawIoredisLines()).toEqual([]);

        // What readiness reads (health.controller.ts, rateLimitsReadiness): in memory, unreachable.
        const link = module.get(RedisLink);
        expect([link.store, link.available]).toEqual(['memory', false]);

        // The metric: Redis down, and every operation above counted in memory.
        const metrics = await rateLimitSeries(module);
        expect(metrics).toContain('cas_redis_up 0');
        expect(metrics).toContain('cas_rate_limit_memory_fallbacks_total 9'); // 5 hits, 3 failures, 1 usage
      } finally {
        await module.close();
        lines.restore();
      }
    },
    30_000,
  );
});

const describeWithRedis = process.env.REDIS_URL ? describe : describe.skip;

describeWithRedis('rate limits when Redis stops answering and comes back (service, REDIS_URL)', () => {
  it('counts in Redis, in memory within the timeout once it stalls, and in Redis again once it answers', async () => {
    const target = new URL(process.env.REDIS_URL!);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 6379));
    await proxy.start();
    const lines = redisLines();
    const module = await limitsWith(`redis://127.0.0.1:${proxy.port}`);
    try {
      const storage = module.get<ThrottlerStorage>(getStorageToken());
      const link = module.get(RedisLink);
      expect(link.available).toBe(true);
      expect((await burst(storage, 'client:b', 2)).map((a) => a.totalHits)).toEqual([1, 2]);
      expect(link.fallbacks).toBe(0);

      // A partition: the open connection stops moving bytes, nothing is closed or refused.
      proxy.stall();
      const during = await burst(storage, 'client:b', 3);
      // The first waits at most REDIS_TIMEOUT_MS (250 ms); the others are answered from memory at once.
      expect(during[0]!.ms).toBeLessThan(1_000);
      for (const answer of during.slice(1)) expect(answer.ms).toBeLessThan(50);
      expect(during.map((a) => [a.totalHits, a.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, false],
      ]); // memory's own window: it never saw Redis' two hits
      expect(link.available).toBe(false);
      expect(lines.warnings).toHaveLength(1);
      expect(await rateLimitSeries(module)).toContain('cas_redis_up 0');

      // The partition heals with the old connection frozen for good (a failover behind the same
      // address): only the probe can tell; it moves to a fresh connection.
      await proxy.heal({ stalled: 'keep' });
      const deadline = Date.now() + 10_000;
      while (!link.available && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(link.available).toBe(true);
      expect(lines.infos).toHaveLength(1);
      expect(String(lines.infos[0]![0])).toBe(
        'Redis answers again: rate limits and failure counters are kept in Redis again.',
      );
      const fallbacks = link.fallbacks;
      const after = await burst(storage, 'client:b', 2);
      expect(after.map((a) => [a.totalHits, a.isBlocked])).toEqual([
        [3, false],
        [4, true],
      ]); // Redis' window again, from where it was
      expect(link.fallbacks).toBe(fallbacks);
      expect(await rateLimitSeries(module)).toContain('cas_redis_up 1');
      expect(lines.warnings).toHaveLength(1);
      expect(lines.rawIoredisLines()).toEqual([]);
    } finally {
      await module.close();
      await proxy.stop();
      lines.restore();
    }
  }, 30_000);

  it('a command that "times out" only because the event loop was held leaves Redis in use', async () => {
    const lines = redisLines();
    const module = await limitsWith(process.env.REDIS_URL!);
    try {
      const storage = module.get<ThrottlerStorage>(getStorageToken());
      const link = module.get(RedisLink);
      expect(link.available).toBe(true);
      const hit = storage.increment('client:c', MINUTE_MS, LIMIT, MINUTE_MS, 'default');
      // Held from a check-phase callback: on the next turn the command's timer runs before the
      // socket, where Redis' answer has been waiting, is read.
      await new Promise<void>((resolve) =>
        setImmediate(() => {
          const until = performance.now() + 1_000; // 4 × REDIS_TIMEOUT_MS
          while (performance.now() < until) {
            // a request computing
          }
          resolve();
        }),
      );
      await hit;
      expect(link.available).toBe(true);
      expect(lines.warnings).toEqual([]);
      expect((await burst(storage, 'client:c', 1))[0]!.ms).toBeLessThan(250); // Redis, at once
    } finally {
      await module.close();
      lines.restore();
    }
  });
});
