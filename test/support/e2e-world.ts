/**
 * One application per e2e FILE, shared by the suites the file imports (test/e2e/README.md).
 *
 * Jest gives every test file a module registry of its own, so this module's state is the file's:
 * `useE2eWorld()` (called once by a `test/e2e/*.e2e-spec.ts` file) starts the app before the
 * file's first suite and closes it after the last; each suite (`test/e2e/<area>/*.cases.ts`) gets
 * a handle on it with `startSuite()`, in the suite's own `beforeAll`, where it used to call
 * `startTestApp()`. Suites of one file run one after another, never at once.
 *
 * What a suite owns:
 * - its clock: the app's clock delegates to the suite's `ManualClock` while the suite runs (the
 *   file's clock otherwise: real time from `startAt`), so a suite may move time without moving
 *   another's;
 * - its tenant, when it asks for one (`{ tenant: true }`): a partner tenant and client of its own,
 *   created through the services, so what it writes no other suite sees. `handle.token()` is then
 *   that client's token, and `handle.tenant.slug` the tenant to name in admin requests;
 * - nothing else: configuration is the file's. A suite asking for overrides the file's app was not
 *   started with fails at once, naming them (start the file with those overrides, or move the
 *   suite to a file whose overrides agree).
 *
 * The sandbox seed (tenants `sandbox`, `sandbox-b`, `operator`, their clients, fixtures and market
 * data) runs only when the file asks for it (`sandbox: true`, the default): suites that read sandbox
 * fixtures need it; files without it get an operator tenant and admin client of their own
 * (`world.admin`).
 *
 * No suite may start a second app in a world's file: passport keeps one `jwt` strategy per process
 * (module registry), so the last app started verifies every app's bearer tokens, with its own keys
 * and database, and after it closes the shared app answers 401 to every token.
 */
import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { Clock, ManualClock } from '../../src/common/clock/clock.js';
import { ClientsService, TenantsService } from '../../src/modules/tenancy/index.js';
import { SANDBOX, startTestApp, type TestApp } from './test-app.js';

/** Real time, moved to start at `start` (the system clock when there is none). */
export class ShiftedClock extends Clock {
  private readonly offsetMs: number;

  constructor(start?: Date) {
    super();
    this.offsetMs = start ? start.getTime() - Date.now() : 0;
  }

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** The app's clock: the running suite's clock, or the file's (`ShiftedClock`) between suites. */
export class SuiteClock extends Clock {
  private base: Clock = new Clock();
  private target: Clock = this.base;

  override now(): Date {
    return this.target.now();
  }

  /**
   * The file's clock. With `start`, it stands still at `start` while the app starts (the sandbox
   * seed stamps its fixtures with that instant, as a suite's `ManualClock` did when each file had
   * its own app), then runs on from there: call `run()` once the app is up.
   */
  startAt(start?: Date): void {
    this.base = start ? new ManualClock(start) : new Clock();
    this.target = this.base;
    this.start = start;
  }

  run(): void {
    if (this.start) this.base = this.target = new ShiftedClock(this.start);
  }

  private start?: Date;

  use(clock: Clock | undefined): void {
    this.target = clock ?? this.base;
  }
}

export interface WorldOptions {
  /** Seed the sandbox (fixtures, market data, sandbox clients). Default true. */
  sandbox?: boolean;
  /**
   * Configuration of the file's app (the suites' overrides must agree with these). A function is
   * called once, just before the app starts: for values known only then, such as the URLs of fake
   * servers the file starts for its suites (stop them in the file's own `afterAll`).
   */
  overrides?: Record<string, string> | (() => Promise<Record<string, string>>);
  /**
   * Where the app writes its log lines (JSON, one a line), from its first line on: for files whose
   * suites read the service's logs. Set `LOG_LEVEL` in `overrides` (tests run with `silent`).
   * Without it the app logs nothing.
   */
  logs?: Writable;
  /**
   * The instant the app starts at, and so seeds the sandbox at (its accounts' sync times, the
   * market history's last day); time runs on from there for suites without a clock of their own.
   * Suites with a `ManualClock` expect the fixtures seeded at their clock's start: group them in a
   * file that starts there. Default: now.
   */
  startAt?: Date;
}

export interface Credentials {
  clientId: string;
  secret: string;
}

export interface SuiteTenant extends Credentials {
  slug: string;
  id: string;
}

/** What `startTestApp()` returned, for one suite of a shared app. */
export interface SuiteApp extends TestApp {
  /** The suite's own tenant, when it asked for one. */
  tenant?: SuiteTenant;
  /** A client of the file's operator tenant: the sandbox admin, or the world's own. */
  admin: Credentials;
  /** Another partner tenant of the suite's own (for isolation checks without the sandbox). */
  newTenant(prefix?: string): Promise<SuiteTenant>;
  /**
   * Closes the file's app itself, for a test of what closing does: only in the file's last suite
   * (no suite after it gets an app). The file's own close afterwards does nothing more.
   */
  closeApp(): Promise<void>;
}

interface World {
  options: WorldOptions;
  app?: TestApp;
  clock: SuiteClock;
  admin?: Credentials;
  suites: number;
}

let world: World | undefined;

/** Registers the file's app: started before its first suite, closed after its last. */
export function useE2eWorld(options: WorldOptions = {}): void {
  const state = register(options);
  beforeAll(() => start(state));
  afterAll(async () => {
    await state.app?.close();
  });
}

/**
 * As `useE2eWorld`, but the app starts now, while the file loads (`await startE2eWorld(…)` at the
 * top level of the spec file, after its suites' imports): for a file that makes tests of what the
 * app serves (the fuzz suite's tests are the served document's operations). Suites registered
 * after it (a function the spec file calls with the app) run after the imported ones.
 */
export async function startE2eWorld(options: WorldOptions = {}): Promise<TestApp> {
  const state = register(options);
  await start(state);
  afterAll(async () => {
    await state.app?.close();
  });
  return state.app!;
}

function register(options: WorldOptions): World {
  if (world) throw new Error('useE2eWorld() once per test file');
  const state: World = { options: { sandbox: true, ...options }, clock: new SuiteClock(), suites: 0 };
  world = state;
  return state;
}

async function start(state: World): Promise<void> {
  const given = state.options.overrides;
  const overrides = {
    ...(state.options.sandbox ? {} : { SANDBOX: 'false' }),
    ...(typeof given === 'function' ? await given() : given),
  };
  state.clock.startAt(state.options.startAt);
  state.app = await startTestApp(overrides, { clock: state.clock, logs: state.options.logs });
  state.clock.run();
  state.admin = state.options.sandbox
    ? { ...SANDBOX.admin }
    : await createClient(state.app, await createTenant(state.app, 'e2e-operator', 'operator'), ['admin']);
}

/**
 * A suite's handle on the file's app, in place of `startTestApp(overrides, { clock })`.
 * `overrides` must be ones the file's app has; `close()` gives the clock back (the app stays up).
 */
export async function startSuite(
  overrides: Record<string, string> = {},
  options: { clock?: Clock; tenant?: boolean | string } = {},
): Promise<SuiteApp> {
  const state = world;
  if (!state?.app) throw new Error('startSuite() needs useE2eWorld() in the test file (test/e2e/README.md)');
  const app = state.app;
  const config = app.config as unknown as Record<string, unknown>;
  const differing = Object.entries(overrides).filter(([key, value]) => String(config[key]) !== value);
  if (differing.length)
    throw new Error(
      `this suite needs ${differing.map(([k, v]) => `${k}=${v}`).join(', ')}, which the file's app was not started with`,
    );
  state.suites += 1;
  state.clock.use(options.clock);
  const newTenant = async (prefix = 'e2e') => {
    const tenant = await createTenant(app, `${prefix}-${randomBytes(4).toString('hex')}`, 'partner');
    const client = await createClient(app, tenant, ['partner']);
    return { ...tenant, ...client };
  };
  const tenant = options.tenant
    ? await newTenant(typeof options.tenant === 'string' ? options.tenant : undefined)
    : undefined;
  let closed = false;
  return {
    ...app,
    tenant,
    admin: state.admin!,
    newTenant,
    token(clientId = tenant?.clientId ?? SANDBOX.partner.clientId, secret?: string) {
      const own = tenant && clientId === tenant.clientId;
      return app.token(clientId, secret ?? (own ? tenant.secret : SANDBOX.partner.secret));
    },
    async close() {
      if (closed) return;
      closed = true;
      state.clock.use(undefined);
    },
    closeApp: () => app.close(),
  };
}

async function createTenant(app: TestApp, slug: string, kind: 'partner' | 'operator') {
  const tenant = await app.app.get(TenantsService).createTenant(slug, `E2E ${slug}`, kind);
  return { slug: tenant.slug, id: tenant.id };
}

async function createClient(app: TestApp, tenant: { slug: string }, scopes: ('partner' | 'admin')[]) {
  const issued = await app.app.get(ClientsService).createClient(tenant.slug, scopes);
  return { clientId: issued.clientId, secret: issued.clientSecret };
}
