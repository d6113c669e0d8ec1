/**
 * The job queue's admin view (docs/jobs.md): GET /admin/queues, GET /admin/queues/{name}/jobs,
 * POST /admin/queues/{name}/jobs/{id}/retry, over HTTP on the real application (PGlite, or
 * Postgres with DATABASE_URL). SCHEDULER_ENABLED is off: the test runs a queue's ready jobs itself
 * (JobQueue.drain), so nothing waits on polling. Also: a scheduled refresh of a sandbox account
 * goes end to end through its source's queue.
 */
import { DataSource } from 'typeorm';
import { ManualClock } from '../../../src/common/clock/clock.js';
import { JobQueue, deadLetterOf } from '../../../src/modules/jobs/index.js';
import { RefreshScheduler } from '../../../src/modules/sources/index.js';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { SANDBOX } from '../../support/test-app.js';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const QUEUE = 'test.always-fails';
const MISSING = '00000000-0000-4000-8000-000000000000';
/**
 * The app's time while this suite runs: a minute after the file's app seeded the sandbox (at
 * 2026-03-15T12:00Z), so only the account this suite makes due is due (real time, months later,
 * would make every account due).
 */
const clock = new ManualClock(new Date('2026-03-15T12:01:00.000Z'));

describe('admin API: job queue (e2e)', () => {
  let t: SuiteApp;
  let admin: string;
  let partner: string;
  let queue: JobQueue;
  let failedId: string;

  beforeAll(async () => {
    t = await startSuite({}, { clock });
    admin = await t.token(SANDBOX.admin.clientId, SANDBOX.admin.secret);
    partner = await t.token();
    queue = t.app.get(JobQueue);
    await queue.define({
      name: QUEUE,
      policy: 'standard',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 60,
      deleteAfterSeconds: 3600,
      deadLetter: true,
    });
    await queue.work(QUEUE, { concurrency: 1 }, async () => {
      throw new Error('the source said no');
    });
    failedId = (await queue.send(QUEUE, { credentials: 'sekrit' }))!;
    expect(await queue.drain(QUEUE)).toBe(1);
  });

  afterAll(() => t?.close());

  it.each([
    ['get', '/admin/queues'],
    ['get', `/admin/queues/${QUEUE}/jobs`],
    ['post', `/admin/queues/${QUEUE}/jobs/${MISSING}/retry`],
  ] as const)('%s %s: partner token 403, no token 401', async (method, path) => {
    const refused = await t.http[method](path).set(bearer(partner)).send({}).expect(403);
    expect(refused.body.detail).toBe('This operation needs the scope: admin.');
    await t.http[method](path).send({}).expect(401);
  });

  it('GET /admin/queues: each queue with its policy, counts by state and dead letter queue', async () => {
    const res = await t.http.get('/admin/queues').set(bearer(admin)).expect(200);
    const view = (res.body.queues as { name: string }[]).find((q) => q.name === QUEUE);
    expect(view).toEqual({
      name: QUEUE,
      policy: 'standard',
      retryLimit: 0,
      retryDelaySeconds: 0,
      retryBackoff: false,
      expireInSeconds: 60,
      counts: { created: 0, retry: 0, active: 0, completed: 0, cancelled: 0, failed: 1 },
      deadLetterQueue: deadLetterOf(QUEUE),
      deadLetterCount: 1,
    });
    const dead = (res.body.queues as { name: string; deadLetterQueue: unknown }[]).find(
      (q) => q.name === deadLetterOf(QUEUE),
    );
    expect(dead?.deadLetterQueue).toBeNull();
  });

  it('GET /admin/queues/{name}/jobs: failed jobs with their last error, never their data; cursor pages', async () => {
    const res = await t.http.get(`/admin/queues/${QUEUE}/jobs?state=failed`).set(bearer(admin)).expect(200);
    expect(res.body.jobs).toEqual([
      expect.objectContaining({
        id: failedId,
        state: 'failed',
        retryCount: 0,
        retryLimit: 0,
        lastError: 'the source said no',
        sourceQueue: null,
      }),
    ]);
    expect(res.body.nextCursor).toBeNull();
    expect(JSON.stringify(res.body)).not.toContain('sekrit');
    // Two more jobs: pages of one.
    await queue.send(QUEUE, {}, { startAfter: 3600 });
    await queue.send(QUEUE, {}, { startAfter: 3600 });
    const first = await t.http.get(`/admin/queues/${QUEUE}/jobs?limit=1`).set(bearer(admin)).expect(200);
    expect(first.body.jobs).toHaveLength(1);
    const seen = [first.body.jobs[0].id];
    let cursor = first.body.nextCursor as string | null;
    while (cursor) {
      const page = await t.http
        .get(`/admin/queues/${QUEUE}/jobs`)
        .query({ limit: 1, cursor })
        .set(bearer(admin))
        .expect(200);
      seen.push(...page.body.jobs.map((j: { id: string }) => j.id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    // A cursor of one queue is refused on another.
    const other = await t.http
      .get(`/admin/queues/${deadLetterOf(QUEUE)}/jobs`)
      .query({ cursor: first.body.nextCursor })
      .set(bearer(admin))
      .expect(400);
    expect(JSON.stringify(other.body)).toContain('cursor');
  });

  it("exports each queue's backlog as metrics: waiting jobs, the oldest due one's wait, dead letters", async () => {
    const text = (await t.http.get('/metrics').set(bearer(admin)).expect(200)).text;
    const value = (name: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{queue="${QUEUE}"}`));
      return line === undefined ? undefined : Number(line.split(' ').pop());
    };
    // The failed job is in the dead letter queue; two jobs wait, neither due for an hour.
    expect(value('cas_job_queue_dead_letters')).toBe(1);
    expect(value('cas_job_queue_waiting')).toBe(2);
    expect(value('cas_job_queue_oldest_waiting_seconds')).toBe(0);
    // A dead letter queue is no queue of its own in these series.
    expect(text).not.toContain(`queue="${deadLetterOf(QUEUE)}"`);
  });

  it('POST …/retry re-queues a dead-lettered job onto its queue, and a failed one in place; 409 otherwise', async () => {
    const dead = await t.http
      .get(`/admin/queues/${deadLetterOf(QUEUE)}/jobs`)
      .set(bearer(admin))
      .expect(200);
    expect(dead.body.jobs).toHaveLength(1);
    expect(dead.body.jobs[0].sourceQueue).toBe(QUEUE);
    await t.http
      .post(`/admin/queues/${deadLetterOf(QUEUE)}/jobs/${dead.body.jobs[0].id}/retry`)
      .set(bearer(admin))
      .expect(200);
    const after = await t.http.get('/admin/queues').set(bearer(admin)).expect(200);
    const view = after.body.queues.find((q: { name: string }) => q.name === QUEUE);
    expect(view.deadLetterCount).toBe(0);

    const retried = await t.http
      .post(`/admin/queues/${QUEUE}/jobs/${failedId}/retry`)
      .set(bearer(admin))
      .expect(200);
    expect(retried.body).toMatchObject({ id: failedId, state: 'retry' });
    // Now waiting for its retry: not failed, so nothing to re-queue.
    await t.http.post(`/admin/queues/${QUEUE}/jobs/${failedId}/retry`).set(bearer(admin)).expect(409);
  });

  it('404 for an unknown queue or job', async () => {
    await t.http.get('/admin/queues/no.such.queue/jobs').set(bearer(admin)).expect(404);
    await t.http.post(`/admin/queues/no.such.queue/jobs/${MISSING}/retry`).set(bearer(admin)).expect(404);
    await t.http.post(`/admin/queues/${QUEUE}/jobs/${MISSING}/retry`).set(bearer(admin)).expect(404);
  });

  it.each([
    [`/admin/queues/${QUEUE}/jobs?state=lost`, 'state'],
    [`/admin/queues/${QUEUE}/jobs?limit=0`, 'limit'],
    [`/admin/queues/${QUEUE}/jobs?limit=many`, 'limit'],
    [`/admin/queues/${QUEUE}/jobs?cursor=forged.cursor`, 'cursor'],
    ['/admin/queues/Bad%20Name/jobs', 'name'],
  ])('400 naming the field: GET %s', async (path, field) => {
    const res = await t.http.get(path).set(bearer(admin)).expect(400);
    expect(JSON.stringify(res.body.errors ?? res.body)).toContain(field);
  });

  it('400 naming the field: POST retry with a malformed id', async () => {
    const res = await t.http
      .post(`/admin/queues/${QUEUE}/jobs/not-a-uuid/retry`)
      .set(bearer(admin))
      .expect(400);
    expect(JSON.stringify(res.body.errors ?? res.body)).toContain('id');
  });

  it('a scheduled refresh of a sandbox account runs end to end through its source’s queue', async () => {
    const dataSource = t.app.get(DataSource);
    const [account] = await dataSource.query(
      `SELECT id, last_synced_at FROM account
       WHERE source = 'sandbox' AND sync_status = 'synced' AND last_error IS NULL ORDER BY id LIMIT 1`,
    );
    // Due before any other account.
    await dataSource.query(
      `UPDATE account SET next_refresh_at = '2000-01-01T00:00:00Z', last_refresh_attempt_at = NULL WHERE id = $1`,
      [account.id],
    );
    const scheduler = t.app.get(RefreshScheduler);
    expect(await scheduler.enqueueDueAccounts()).toBeGreaterThanOrEqual(1);
    const queueName = await scheduler.queueOf('sandbox');
    expect(queueName).toBe('refresh.account.sandbox');
    expect(await queue.drain(queueName)).toBeGreaterThanOrEqual(1);
    const [after] = await dataSource.query(
      'SELECT sync_status, last_synced_at, next_refresh_at, refresh_lease_owner FROM account WHERE id = $1',
      [account.id],
    );
    expect(after.sync_status).toBe('synced');
    expect(new Date(after.last_synced_at).getTime()).toBeGreaterThan(
      account.last_synced_at ? new Date(account.last_synced_at).getTime() : 0,
    );
    expect(new Date(after.next_refresh_at).getTime()).toBeGreaterThan(clock.now().getTime());
    expect(after.refresh_lease_owner).toBeNull();
    const view = (await t.http.get('/admin/queues').set(bearer(admin)).expect(200)).body.queues.find(
      (q: { name: string }) => q.name === queueName,
    );
    expect(view.counts.completed).toBeGreaterThanOrEqual(1);
  });
});
