/**
 * The cached balances fast path (CachedBalancesFrontRoute): a request answerable from memory is
 * answered before Nest's route pipeline, with exactly the response the route gives; everything
 * else goes down the route. These tests tell the two paths apart by whether the envelope
 * interceptor ran, and compare what a caller sees on each.
 */
import { jest } from '@jest/globals';
import {
  ForbiddenException,
  Injectable,
  Logger,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants.js';
import type { ApplicationConfig } from '@nestjs/core';
import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request, { type Response } from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createApp } from '../src/app.factory.js';
import { ManualClock } from '../src/common/clock/clock.js';
import { EnvelopeInterceptor } from '../src/common/interceptors/envelope.interceptor.js';
import { LedgerController as AccountsController } from '../src/modules/account-data/index.js';
import { CachedBalancesRoute, type FastPathHttpAdapter } from '../src/modules/account-data/testing.js';
import { ClientsService, TenantsService } from '../src/modules/tenancy/index.js';
import { csvOf, simpleHistory } from './factories/accounts.factory.js';
import { createTestSchema, testConfig, usingPostgres } from './support/test-app.js';
import { holdReadCacheTime } from './support/read-cache-time.js';

class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.lines.push(JSON.parse(line));
    done();
  }
}

/** Headers that differ between any two requests (time, id, the decreasing counter). */
const VARYING = new Set(['date', 'x-request-id', 'ratelimit-remaining']);
const stable = (res: Response) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VARYING.has(name)));

const tokenOf = async (http: TestAgent, clientId: string, clientSecret: string) =>
  (await http.post('/v1/api/token').send({ clientId, clientSecret }).expect(200)).body.result
    .accessToken as string;

/**
 * What the tests read, on an application without the sandbox (its seed, market history
 * included, is most of an application's start): an operator tenant with an admin client, partner
 * tenant `fast-path` with a client and an account whose history the operator imported, and
 * another partner tenant `fast-path-b` with a client.
 */
async function ownFixtures(app: NestExpressApplication, http: TestAgent) {
  const [tenants, clients] = [app.get(TenantsService), app.get(ClientsService)];
  await tenants.createTenant('fast-path-ops', 'Fast path operator', 'operator');
  await tenants.createTenant('fast-path', 'Fast path partner', 'partner');
  await tenants.createTenant('fast-path-b', 'Fast path other partner', 'partner');
  const operator = await clients.createClient('fast-path-ops', ['admin']);
  const partner = await clients.createClient('fast-path', ['partner']);
  const other = await clients.createClient('fast-path-b', ['partner']);
  const admin = await tokenOf(http, operator.clientId, operator.clientSecret);
  const linked = await http
    .post('/admin/accounts')
    .set('Authorization', `Bearer ${admin}`)
    .send({ tenant: 'fast-path', platform: 'kraken', identity: 'fast-path-trading', source: 'csv' })
    .expect(201);
  const accountId = linked.body.accountId as string;
  await http
    .post(`/admin/accounts/${accountId}/import?tenant=fast-path`)
    .set('Authorization', `Bearer ${admin}`)
    .set('Content-Type', 'text/csv')
    .send(csvOf(simpleHistory('fast-path')))
    .expect(200);
  return {
    accountId,
    partner: { clientId: partner.clientId, secret: partner.clientSecret },
    other: { clientId: other.clientId, secret: other.clientSecret },
  };
}

describe('cached balances fast path (e2e)', () => {
  const clock = new ManualClock(new Date());
  let accountId: string;
  let path: string;
  let own: Awaited<ReturnType<typeof ownFixtures>>;
  const logs = new LogCapture();
  let app: NestExpressApplication;
  let http: TestAgent;
  let dropSchema: (() => Promise<void>) | undefined;
  let token: string;
  const intercepted = jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');

  const tokenFor = (clientId: string, clientSecret: string) => tokenOf(http, clientId, clientSecret);

  /** GET (or HEAD) the balances; `route` says whether Nest's route pipeline answered it. */
  const balances = async (bearer: string, suffix = '', method: 'get' | 'head' = 'get') => {
    intercepted.mockClear();
    const res = await http[method](`${path}${suffix}`).set('Authorization', `Bearer ${bearer}`);
    return { res, route: intercepted.mock.calls.length > 0 };
  };

  beforeAll(async () => {
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    dropSchema = schema?.drop;
    app = await createApp(
      testConfig({ LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '40', SANDBOX: 'false' }, schema?.schema),
      { clock, logDestination: logs },
    );
    await app.init();
    http = request(app.getHttpServer());
    own = await ownFixtures(app, http);
    accountId = own.accountId;
    path = `/v1/api/account/${accountId}/balances`;
    token = await tokenFor(own.partner.clientId, own.partner.secret);
    // Every test here expects a read to find the entry the read before it left, however slow the machine.
    holdReadCacheTime(app);
  });
  afterAll(async () => {
    intercepted.mockRestore();
    await app.close();
    await dropSchema?.();
  });

  it('runs every guard and interceptor the route has, the same guard instances', () => {
    const config = (app as unknown as { config: ApplicationConfig }).config;
    const names = (items: object[]) => items.map((item) => item.constructor.name);
    const requestScoped = <T>(wrappers: { instance: T }[]) =>
      wrappers.map((wrapper) => wrapper.instance as object);
    // The fast path checks the token as JwtAuthGuard's memory test does, then runs the other two.
    expect(names([...config.getGlobalGuards(), ...requestScoped(config.getGlobalRequestGuards())])).toEqual([
      'JwtAuthGuard',
      'ScopesGuard',
      'RateLimitGuard',
    ]);
    // Global interceptors: only the two the fast path knows (cached-balances.route.ts): Idempotency-Key
    // acts on writes, and the audit of reads, which the fast path records itself (docs/audit.md).
    const globalInterceptors = [
      ...config.getGlobalInterceptors(),
      ...requestScoped(config.getGlobalRequestInterceptors()),
    ];
    expect(names(globalInterceptors)).toEqual(['IdempotencyInterceptor', 'AuditInterceptor']);
    const handler = AccountsController.prototype.balances;
    for (const target of [handler, AccountsController]) {
      expect(Reflect.getMetadata(GUARDS_METADATA, target) ?? []).toEqual([]);
    }
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []).toEqual([]);
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, AccountsController)).toEqual([EnvelopeInterceptor]);
    // The fast path found these through the route's metadata and Nest's discovery APIs: the very
    // instances the route runs (an app.useGlobalGuards() guard it could not see would fail this).
    const plan = app.get(CachedBalancesRoute).plan();
    expect(plan.on).toBe(true);
    const guards = plan.on ? plan.guards : [];
    expect(guards).toHaveLength(3);
    config.getGlobalGuards().forEach((guard, i) => expect(guards[i]).toBe(guard));
  });

  it('answers a cached read itself, with the status, headers and body the route gives', async () => {
    const first = await balances(token);
    const second = await balances(token);
    expect(first.route).toBe(true); // nothing cached yet: the route loads the balances
    expect(second.route).toBe(false);
    expect(first.res.status).toBe(200);
    expect(second.res.status).toBe(200);
    expect(second.res.text).toBe(first.res.text);
    expect(stable(second.res)).toEqual(stable(first.res));
    expect(second.res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-status': 'crypto-asset-service; hit',
      'ratelimit-limit': '40',
    });
    expect(Number(second.res.headers['ratelimit-remaining'])).toBe(
      Number(first.res.headers['ratelimit-remaining']) - 1,
    );
    expect(second.res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.res.body).toMatchObject({ isError: false, message: 'OK', statusCode: 200 });
    expect(second.res.body.result.accountId).toBe(accountId);
  });

  it('computes cacheAgeSeconds at each request, not when the balances were cached', async () => {
    const before = (await balances(token)).res.body.result.cacheAgeSeconds as number;
    clock.set(new Date(clock.now().getTime() + 7_000));
    const after = await balances(token);
    expect(after.route).toBe(false);
    expect(after.res.body.result.cacheAgeSeconds).toBe(before + 7);
  });

  it('answers HEAD like the route: the same headers, no body', async () => {
    const get = await balances(token);
    const head = await balances(token, '', 'head');
    expect(head.route).toBe(false);
    expect(head.res.status).toBe(200);
    expect(head.res.text ?? '').toBe('');
    expect(stable(head.res)).toEqual(stable(get.res));
  });

  it('writes the request line with its id, client and tenant', async () => {
    const res = await http
      .get(path)
      .set('Authorization', `Bearer ${token}`)
      .set('X-Request-Id', 'fast-path-line')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('fast-path-line');
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs.lines.find((line) => line.reqId === 'fast-path-line')).toMatchObject({
      msg: 'request completed',
      req: { id: 'fast-path-line', method: 'GET', url: path },
      res: { statusCode: 200 },
      clientId: own.partner.clientId,
    });
  });

  it('leaves requests with a query string to the route, which validates them', async () => {
    await balances(token);
    const withQuery = await balances(token, '?forceRefresh=false');
    expect(withQuery.route).toBe(true);
    expect(withQuery.res.status).toBe(200);
    const invalid = await balances(token, '?forceRefresh=maybe');
    expect(invalid.res.status).toBe(400);
    const unknown = await balances(token, '?extra=1');
    expect(unknown.res.status).toBe(400);
  });

  it('leaves missing and unknown tokens to the route: 401', async () => {
    await balances(token);
    await http.get(path).expect(401);
    const tampered = await balances(`${token.slice(0, -4)}AAAA`);
    expect(tampered.res.status).toBe(401);
    expect(tampered.res.body).toMatchObject({ isError: true, statusCode: 401, result: null });
  });

  it('refuses a token whose client was disabled after it was cached', async () => {
    const clients = app.get(ClientsService);
    const issued = await clients.createClient('fast-path', ['partner'], 'fast-path-disable');
    const own = await tokenFor('fast-path-disable', issued.clientSecret);
    await balances(own);
    expect((await balances(own)).route).toBe(false);
    await clients.setDisabled('fast-path-disable', true);
    expect((await balances(own)).res.status).toBe(401);
  });

  it('runs the route’s scope guard: a token without `partner` gets the route’s 403', async () => {
    const clients = app.get(ClientsService);
    const issued = await clients.createClient('fast-path-ops', ['admin'], 'fast-path-admin-only');
    const adminOnly = await tokenFor('fast-path-admin-only', issued.clientSecret);
    const route = await balances(adminOnly, '?forceRefresh=false'); // verifies the token
    await balances(token); // this tenant's balances are cached
    const fast = await balances(adminOnly); // a verified token and a cache hit: the fast path
    expect(route.res.status).toBe(403);
    expect(fast.res.status).toBe(403);
    expect(fast.route).toBe(false);
    expect(fast.res.body).toEqual({
      ...route.res.body,
      responseException: {
        exceptionMessage: {
          ...route.res.body.responseException.exceptionMessage,
          traceId: fast.res.headers['x-request-id'],
        },
      },
    });
  });

  it('never answers another tenant from this tenant’s cache: 404 from the route', async () => {
    await balances(token);
    const other = await tokenFor(own.other.clientId, own.other.secret);
    const res = await balances(other);
    expect(res.res.status).toBe(404);
  });

  it('leaves an id the route would reject to the route: 400 naming the parameter', async () => {
    const res = await http
      .get('/v1/api/account/not-a-uuid/balances')
      .set('Authorization', `Bearer ${token}`)
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('accountId');
  });

  it('counts against the client’s rate limit like the route, and answers 429 as the route does', async () => {
    const clients = app.get(ClientsService);
    const issued = await clients.createClient('fast-path', ['partner'], 'fast-path-limited');
    const limited = await tokenFor('fast-path-limited', issued.clientSecret);
    await balances(token);
    const seen: { status: number; route: boolean; remaining: string | undefined }[] = [];
    for (let i = 0; i < 40; i++) {
      const { res, route } = await balances(limited);
      seen.push({ status: res.status, route, remaining: res.headers['ratelimit-remaining'] });
    }
    // The first read verified the token on the route; the others were answered from memory
    // while the cache entry lived (one second). All 40 counted, on either path.
    expect(seen.every((s) => s.status === 200)).toBe(true);
    expect(seen.filter((s) => !s.route).length).toBeGreaterThan(0);
    expect(seen.map((s) => Number(s.remaining))).toEqual([...Array(40).keys()].reverse());
    const fast = await balances(limited);
    const route = await balances(limited, '?forceRefresh=false');
    expect(fast.res.status).toBe(429);
    expect(route.res.status).toBe(429);
    expect(fast.res.headers['retry-after']).toBeDefined();
    expect(Object.keys(fast.res.body)).toEqual(Object.keys(route.res.body));
    expect(fast.res.body.responseException.exceptionMessage.status).toBe(429);
  });

  it('leaves a request with a body, or with a percent-encoded path, to the application', async () => {
    // The read cache keeps an entry one second: fill it now, not in the test before (a loaded
    // host took longer than that between the two in CI's PostgreSQL pass).
    await balances(token);
    expect((await balances(token)).route).toBe(false); // cached: answered by the fast path
    intercepted.mockClear();
    const withBody = await http
      .get(path)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"a":1}');
    expect(withBody.status).toBe(200);
    expect(intercepted).toHaveBeenCalledTimes(1);
    intercepted.mockClear();
    const malformedBody = await http
      .get(path)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send('{"a":');
    expect(malformedBody.status).toBe(400); // the body parser's answer, as on the route
    const first = accountId.charCodeAt(0).toString(16);
    const encoded = await http
      .get(`/v1/api/account/%${first}${accountId.slice(1)}/balances`)
      .set('Authorization', `Bearer ${token}`);
    expect(encoded.status).toBe(200);
    expect(encoded.text).toBe(withBody.text);
    expect(intercepted).toHaveBeenCalledTimes(1);
  });

  // Last: it leaves the application closing.
  it('while the application closes, leaves every request to it: 503 with Connection: close', async () => {
    await balances(token); // the cache entry lives one second: filled here
    expect((await balances(token)).route).toBe(false);
    (app.getHttpAdapter() as unknown as FastPathHttpAdapter).beforeClose(); // what app.close() does first
    const closing = await balances(token);
    expect(closing.route).toBe(false);
    expect(closing.res.status).toBe(503);
    expect(closing.res.headers.connection).toBe('close');
    expect(closing.res.text).toBe('Service Unavailable');
  });
});

/** A guard a later change might add to the route: refuses requests that carry `X-Refuse`. */
@Injectable()
class RefuseOnHeaderGuard implements CanActivate {
  static readonly seen: { handler: unknown; instance: unknown }[] = [];

  canActivate(context: ExecutionContext): boolean {
    RefuseOnHeaderGuard.seen.push({ handler: context.getHandler(), instance: this });
    if (context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers['x-refuse']) {
      throw new ForbiddenException('Refused by the added guard');
    }
    return true;
  }
}

/** An interceptor the fast path cannot reproduce. */
@Injectable()
class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle();
  }
}

describe('cached balances fast path, when the route changes (e2e)', () => {
  const handler = AccountsController.prototype.balances;
  // Spied here, not when the file loads: the first block restores its own spy of the same method.
  let intercepted: ReturnType<typeof jest.spyOn>;
  beforeAll(() => {
    intercepted = jest.spyOn(EnvelopeInterceptor.prototype, 'intercept');
  });

  /** An application whose balances route has `key` metadata `value` added (no sandbox), and a partner token. */
  const appWith = async (key: string, value: unknown[]) => {
    Reflect.defineMetadata(key, value, handler);
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    const app = await createApp(testConfig({ LOG_LEVEL: 'info', SANDBOX: 'false' }, schema?.schema), {
      logs: false,
    });
    await app.init();
    holdReadCacheTime(app); // the second read finds the first's entry, however slow the machine
    const http = request(app.getHttpServer());
    const own = await ownFixtures(app, http);
    const token = await tokenOf(http, own.partner.clientId, own.partner.secret);
    const path = `/v1/api/account/${own.accountId}/balances`;
    const get = async (headers: Record<string, string> = {}) => {
      intercepted.mockClear();
      const res = await http.get(path).set({ Authorization: `Bearer ${token}`, ...headers });
      return { res, route: intercepted.mock.calls.length > 0 };
    };
    const close = async () => {
      Reflect.deleteMetadata(key, handler);
      await app.close();
      await schema?.drop();
    };
    return { get, close };
  };

  afterAll(() => intercepted.mockRestore());

  it('runs a guard added to the route, the instance the route runs', async () => {
    RefuseOnHeaderGuard.seen.length = 0;
    const { get, close } = await appWith(GUARDS_METADATA, [RefuseOnHeaderGuard]);
    try {
      const first = await get();
      const fast = await get();
      const refusedFast = await get({ 'X-Refuse': '1' });
      expect([first.route, fast.route, refusedFast.route]).toEqual([true, false, false]);
      expect([first.res.status, fast.res.status, refusedFast.res.status]).toEqual([200, 200, 403]);
      expect(RefuseOnHeaderGuard.seen).toHaveLength(3);
      expect(new Set(RefuseOnHeaderGuard.seen.map((seen) => seen.instance)).size).toBe(1);
      expect(RefuseOnHeaderGuard.seen.every((seen) => seen.handler === handler)).toBe(true);
    } finally {
      await close();
    }
  });

  it('switches itself off, and says why once, when the route gains an interceptor it cannot run', async () => {
    // Logger's calls, not the log lines: Nest's static logger is whichever application set it last.
    const warned = jest.spyOn(Logger.prototype, 'warn');
    const { get, close } = await appWith(INTERCEPTORS_METADATA, [PassThroughInterceptor]);
    try {
      const answers = [await get(), await get(), await get()];
      expect(answers.map((answer) => answer.route)).toEqual([true, true, true]);
      expect(answers.map((answer) => answer.res.status)).toEqual([200, 200, 200]);
      expect(answers[2]!.res.text).toBe(answers[1]!.res.text);
      const off = warned.mock.calls.filter(([message]) => String(message).includes('fast path off'));
      expect(off).toHaveLength(1);
      expect(off[0]![0]).toBe(
        "Cached balances fast path off: the route's interceptors are not exactly [EnvelopeInterceptor]; every request takes the route.",
      );
    } finally {
      warned.mockRestore();
      await close();
    }
  });
});
