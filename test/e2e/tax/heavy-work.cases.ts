/**
 * Heavy work's admission through HTTP (issue 28 item 2; docs/reports.md "Heavy work"): a tenant
 * past its queue share gets 429, anyone past the instance's queue 503, both problem+json with
 * Retry-After; a tenant's request beyond its running cap waits its turn while another tenant's
 * goes through; slots come back and the same requests then answer 200.
 *
 * On the file's app with the default limits: the slots are taken by holding them directly in
 * HeavyWorkAdmission (work that ends when the test says), so no timing decides the outcome.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'supertest';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { AppConfig } from '../../../src/config/app-config.js';
import { HeavyWorkAdmission } from '../../../src/modules/compute/index.js';
import { HEAVY_WORK_RETRY_AFTER_SECONDS } from '../../../src/modules/compute/testing.js';
import { bearer } from '../../factories/accounts.factory.js';
import { SANDBOX } from '../../support/test-app.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';

const START = new Date('2026-03-15T12:00:00.000Z');
const GAINS = '/taip/gains-report?tax_year=2025';

describe('heavy work admission: per-tenant fair queue, 429 and 503 (e2e)', () => {
  let t: SuiteApp;
  let partner: string;
  let sandboxPartner: string;
  let admission: HeavyWorkAdmission;
  let config: AppConfig;
  /** Work held in the admission until `releaseAll`. */
  let held: Promise<unknown>[] = [];
  let releaseHeld: () => void = () => undefined;

  beforeAll(async () => {
    t = await startSuite({}, { clock: new ManualClock(START), tenant: 'heavy' });
    partner = await t.token();
    sandboxPartner = await t.token(SANDBOX.partner.clientId, SANDBOX.partner.secret);
    admission = t.app.get(HeavyWorkAdmission);
    config = t.app.get(AppConfig);
  });
  afterAll(async () => {
    releaseHeld();
    await Promise.allSettled(held);
    await t.close();
  });

  /** Holds `count` requests of `tenantId` in the admission (running or waiting) until `releaseAll`. */
  const hold = (tenantId: string, count: number) => {
    const gate = new Promise<void>((resolve) => {
      const previous = releaseHeld;
      releaseHeld = () => {
        previous();
        resolve();
      };
    });
    for (let i = 0; i < count; i++) held.push(admission.run(tenantId, () => gate));
  };
  const releaseAll = async () => {
    releaseHeld();
    await Promise.all(held);
    held = [];
    releaseHeld = () => undefined;
  };
  /** Every slot given back, nobody waiting. */
  const idle = () => expect([admission.inFlight, admission.queued]).toEqual([0, 0]);
  const gains = (token: string) => t.http.get(GAINS).set(bearer(token));

  it('answers 429 with Retry-After past the tenant’s queue share; another tenant goes on meanwhile', async () => {
    hold(t.tenant!.id, config.HEAVY_WORK_PER_TENANT + config.HEAVY_WORK_TENANT_QUEUE);
    expect(admission.queued).toBe(config.HEAVY_WORK_TENANT_QUEUE);
    expectBusy(await gains(partner), 429, 'too_many_heavy_requests');
    await gains(sandboxPartner).expect(200);
    await releaseAll();
    idle();
    await gains(partner).expect(200);
  });

  it('answers 503 with Retry-After past the instance’s queue, whoever asks', async () => {
    // Every slot taken, and the instance's queue full of tenants each within its own share.
    const perHolder = config.HEAVY_WORK_TENANT_QUEUE;
    const holders = Math.ceil(config.HEAVY_WORK_QUEUE / perHolder) + 1;
    for (let i = 0; i < config.HEAVY_WORK_SLOTS; i++) hold(`slot-holder-${i}`, 1);
    let waiting = config.HEAVY_WORK_QUEUE;
    for (let i = 0; i < holders && waiting > 0; i++) {
      const count = Math.min(perHolder, waiting);
      hold(`queue-holder-${i}`, count);
      waiting -= count;
    }
    expect(admission.queued).toBe(config.HEAVY_WORK_QUEUE);
    expectBusy(await gains(partner), 503, 'heavy_work_busy');
    expectBusy(await t.http.get('/taip/lots').set(bearer(partner)), 503, 'heavy_work_busy', '/taip/lots');
    await releaseAll();
    idle();
    await gains(partner).expect(200);
  });

  it('lets a request past the tenant’s running cap wait its turn, and answers it when a slot frees', async () => {
    hold(t.tenant!.id, config.HEAVY_WORK_PER_TENANT);
    let answered: Response | null = null;
    const queued = gains(partner).then((res) => (answered = res));
    while (admission.queued < 1) await sleep(5);
    await gains(sandboxPartner).expect(200); // not behind the other tenant's queue
    expect(answered).toBeNull();
    await releaseAll();
    expect((await queued).status).toBe(200);
    idle();
  });
});

function expectBusy(res: Response, status: number, reason: string, path = '/taip/gains-report'): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
  expect(res.headers['retry-after']).toBe(String(HEAVY_WORK_RETRY_AFTER_SECONDS));
  expect(res.body).toMatchObject({ status, reason, instance: path });
  expect(res.body.detail).toMatch(new RegExp(`retry after ${HEAVY_WORK_RETRY_AFTER_SECONDS} seconds`));
}
