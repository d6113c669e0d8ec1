/**
 * Two instances on one database (issue 6, item 4): two in-process apps share one Postgres schema
 * and one manual clock. Each registers a counting connector for the same source (one counter,
 * shared by the test); the scheduler's unit of work (RefreshService.refreshDueAccounts, what
 * AccountsScheduler calls every minute) runs on both instances at once, several times per due
 * period, and the account's connector runs exactly once per period. Forced refreshes racing on
 * both instances run the connector once (the other answers `busy`). The market job
 * (MarketRefreshService.refreshIfDue, what MarketScheduler calls) run concurrently on both
 * instances calls its provider once per due period.
 *
 * Postgres only: PGlite is an embedded, single-process database; two instances cannot share it.
 */
import { jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { ManualClock } from '../src/common/clock/clock.js';
import { ConnectorRegistry } from '../src/modules/sources/index.js';
import type { ConnectorResult, SourceConnector, SourceTransaction } from '../src/modules/sources/index.js';
import { REFRESH_BATCH_SIZE } from '../src/modules/sources/index.js';
import { RefreshService, STALE_AFTER_MS } from '../src/modules/sources/index.js';
import { MarketRefreshService } from '../src/modules/market/index.js';
import {
  MARKET_REFRESH_JOB,
  MARKET_DATA_PROVIDER,
  type MarketDataProvider,
} from '../src/modules/market/testing.js';
import { bearer, simpleHistory } from './factories/accounts.factory.js';
import { createTestSchema, SANDBOX, startTestApp, usingPostgres, type TestApp } from './support/test-app.js';

// PGlite lives inside one process: only a Postgres server can be shared by two instances.
const describeWithPostgres = usingPostgres() ? describe : describe.skip;

const START = new Date('2026-03-15T12:00:00.000Z');
const SOURCE = 'counting';
const PERIODS = 3;
/** Concurrent scheduler calls per instance and round. */
const CALLS_PER_INSTANCE = 3;

/** Shared by the connectors of both instances. */
interface Counter {
  calls: number;
  active: number;
  maxActive: number;
}

/** Counts calls across instances; each call takes a moment so racing calls would overlap. */
class CountingConnector implements SourceConnector {
  gate: Promise<void> | null = null;
  onEnter: () => void = () => undefined;

  constructor(
    private readonly counter: Counter,
    private readonly history: readonly SourceTransaction[],
  ) {}

  async fetch(): Promise<ConnectorResult> {
    this.counter.calls += 1;
    this.counter.active += 1;
    this.counter.maxActive = Math.max(this.counter.maxActive, this.counter.active);
    this.onEnter();
    try {
      await (this.gate ?? new Promise((r) => setTimeout(r, 100)));
    } finally {
      this.counter.active -= 1;
    }
    const history = this.history;
    return {
      status: 'ready',
      mode: 'full',
      pages: (async function* () {
        yield history;
      })(),
      reportedBalances: null,
    };
  }
}

describeWithPostgres('two instances on one database (e2e, Postgres)', () => {
  let schema: Awaited<ReturnType<typeof createTestSchema>>;
  let a: TestApp;
  let b: TestApp;
  let clock: ManualClock;
  let admin: string;
  const counter: Counter = { calls: 0, active: 0, maxActive: 0 };
  const connectors: CountingConnector[] = [];
  let accountId: string;

  beforeAll(async () => {
    schema = await createTestSchema();
    clock = new ManualClock(START);
    // One after the other: the second finds the schema migrated and the sandbox seeded.
    a = await startTestApp({}, { schema: schema.schema, clock });
    b = await startTestApp({}, { schema: schema.schema, clock });
    const history = simpleHistory(SOURCE);
    for (const app of [a, b]) {
      const connector = new CountingConnector(counter, history);
      connectors.push(connector);
      app.app.get(ConnectorRegistry).register(SOURCE, connector);
    }
    admin = await a.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    const created = await a.http
      .post('/admin/accounts')
      .set(bearer(admin))
      .send({
        tenant: 'sandbox',
        platform: 'kraken',
        identity: `two-instances-${Date.now()}`,
        source: SOURCE,
      });
    expect(created.status).toBe(201);
    accountId = created.body.accountId;
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  /** Both instances run the scheduler's unit of work, concurrently, until nothing is due. */
  async function schedulerRounds(): Promise<void> {
    const refreshers = [a, b].map((app) => app.app.get(RefreshService));
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all(
        refreshers.flatMap((refresher) =>
          Array.from({ length: CALLS_PER_INSTANCE }, () => refresher.refreshDueAccounts(REFRESH_BATCH_SIZE)),
        ),
      );
      if (results.every((outcomes) => outcomes.length === 0)) return;
    }
    throw new Error('accounts still due after 10 rounds');
  }

  const accountState = async () =>
    (await b.http.get(`/admin/accounts/${accountId}?tenant=sandbox`).set(bearer(admin)).expect(200)).body;

  it('scheduled refresh on both instances at once: the connector runs once per due period', async () => {
    for (let period = 0; period < PERIODS; period++) {
      const before = counter.calls;
      await schedulerRounds();
      expect(counter.calls - before).toBe(1);
      expect(await accountState()).toMatchObject({
        syncStatus: 'synced',
        lastSyncedAt: clock.now().toISOString(),
        nextRefreshAt: new Date(clock.now().getTime() + STALE_AFTER_MS).toISOString(),
      });
      // Not due again yet: more scheduler runs on both instances do nothing.
      clock.advanceMs(STALE_AFTER_MS / 2);
      await schedulerRounds();
      expect(counter.calls - before).toBe(1);
      clock.advanceMs(STALE_AFTER_MS / 2 + 60_000);
    }
    expect(counter.maxActive).toBe(1);
  });

  it('forced refreshes racing on both instances: one runs the connector, the other answers busy', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    for (const connector of connectors) {
      connector.gate = gate;
      connector.onEnter = entered;
    }
    try {
      const before = counter.calls;
      const refresh = (app: TestApp) =>
        app.http
          .post(`/admin/accounts/${accountId}/refresh?tenant=sandbox`)
          .set(bearer(admin))
          .then((r) => r);
      const first = refresh(a);
      const second = refresh(b);
      await inside;
      // The connector is held inside one instance: the other request comes back on its own, busy.
      let timer: NodeJS.Timeout | undefined;
      const firstBack = await Promise.race([
        first,
        second,
        new Promise<null>((r) => (timer = setTimeout(() => r(null), 10_000))),
      ]).finally(() => clearTimeout(timer));
      expect(firstBack?.body).toMatchObject({ status: 'busy' });
      release();
      const statuses = (await Promise.all([first, second])).map((r) => [r.status, r.body.status]);
      expect(statuses.sort()).toEqual([
        [200, 'busy'],
        [200, 'refreshed'],
      ]);
      expect(counter.calls - before).toBe(1);
      expect(counter.maxActive).toBe(1);
    } finally {
      release();
      for (const connector of connectors) {
        connector.gate = null;
        connector.onEnter = () => undefined;
      }
    }
  });

  it('market refresh on both instances at once: the provider runs once per due period', async () => {
    const spies = [a, b].map((app) =>
      jest.spyOn(app.app.get<MarketDataProvider>(MARKET_DATA_PROVIDER), 'quotes'),
    );
    const providerCalls = () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    const refreshers = [a, b].map((app) => app.app.get(MarketRefreshService));
    const db = a.app.get(DataSource);
    try {
      for (let period = 0; period < PERIODS; period++) {
        // The interval is measured on the database clock: move the last success back instead.
        await db.query(
          `UPDATE market_refresh_job SET last_succeeded_at = now() - interval '1 hour' WHERE name = $1`,
          [MARKET_REFRESH_JOB],
        );
        const before = providerCalls();
        const outcomes = await Promise.all(
          refreshers.flatMap((refresher) =>
            Array.from({ length: CALLS_PER_INSTANCE }, () => refresher.refreshIfDue()),
          ),
        );
        const ran = outcomes.filter((o) => o.status !== 'skipped');
        expect(ran).toHaveLength(1);
        expect(ran[0].status).toBe('refreshed');
        expect(providerCalls() - before).toBe(1);
        // Just refreshed: nobody runs it again.
        const again = await Promise.all(refreshers.map((refresher) => refresher.refreshIfDue()));
        expect(again.map((o) => o.status)).toEqual(['skipped', 'skipped']);
        expect(providerCalls() - before).toBe(1);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
