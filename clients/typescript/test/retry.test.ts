/** Retries, backoff, Retry-After and the Idempotency-Key on writes, with a fake fetch and clock. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createServiceClient,
  parseRetryAfter,
  unwrap,
  withRetries,
  type RetryOptions,
} from '../src/index.js';
import { BASE, clientOptions, envelope, fakeService, json } from './fake-service.js';

const NOW = Date.UTC(2026, 3, 1, 12, 0, 0);

/** A fetch answering the statuses in turn (the last one repeated), and what it was sent. */
function sequence(...answers: (() => Response)[]) {
  const bodies: string[] = [];
  let calls = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    bodies.push(await request.text());
    return answers[Math.min(calls++, answers.length - 1)]!();
  };
  return { fetch: fetch as typeof globalThis.fetch, bodies, calls: () => calls };
}

function retrying(fetch: typeof globalThis.fetch, options: RetryOptions = {}) {
  const sleeps: number[] = [];
  const retried = withRetries(fetch, {
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    now: () => NOW,
    ...options,
  });
  return { retried, sleeps };
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(code === 200 ? 'ok' : 'busy', { status: code, headers });

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    assert.equal(parseRetryAfter('3', NOW), 3000);
    assert.equal(parseRetryAfter(' 0 ', NOW), 0);
    assert.equal(parseRetryAfter(new Date(NOW + 7000).toUTCString(), NOW), 7000);
    assert.equal(parseRetryAfter(new Date(NOW - 7000).toUTCString(), NOW), 0);
    assert.equal(parseRetryAfter('-1', NOW), undefined);
    assert.equal(parseRetryAfter('1.5', NOW), undefined);
    assert.equal(parseRetryAfter('soon', NOW), undefined);
    assert.equal(parseRetryAfter(null, NOW), undefined);
  });
});

describe('withRetries', () => {
  it('waits the Retry-After seconds of a 503, then returns the success', async () => {
    const fake = sequence(status(503, { 'retry-after': '2' }), status(200));
    const { retried, sleeps } = retrying(fake.fetch);
    const response = await retried(new Request(`${BASE}/x`));
    assert.equal(response.status, 200);
    assert.deepEqual(sleeps, [2000]);
    assert.equal(fake.calls(), 2);
  });

  it('waits until the HTTP date of a 429', async () => {
    const fake = sequence(status(429, { 'retry-after': new Date(NOW + 4000).toUTCString() }), status(200));
    const { retried, sleeps } = retrying(fake.fetch);
    assert.equal((await retried(new Request(`${BASE}/x`))).status, 200);
    assert.deepEqual(sleeps, [4000]);
  });

  it('backs off exponentially with jitter when there is no Retry-After, and stops at maxAttempts', async () => {
    const fake = sequence(status(429));
    const { retried, sleeps } = retrying(fake.fetch, { maxAttempts: 4, baseDelayMs: 100, random: () => 1 });
    const response = await retried(new Request(`${BASE}/x`));
    assert.equal(response.status, 429); // the last answer, as it came
    assert.equal(fake.calls(), 4);
    assert.deepEqual(sleeps, [100, 200, 400]);
    const low = retrying(sequence(status(503)).fetch, { baseDelayMs: 100, random: () => 0 });
    await low.retried(new Request(`${BASE}/x`));
    assert.deepEqual(low.sleeps, [50, 100]); // jitter: 50 % at least
  });

  it('caps the backoff at maxDelayMs', async () => {
    const { retried, sleeps } = retrying(sequence(status(503, {})).fetch, {
      maxAttempts: 6,
      baseDelayMs: 1000,
      maxDelayMs: 3000,
      random: () => 1,
    });
    await retried(new Request(`${BASE}/x`));
    assert.deepEqual(sleeps, [1000, 2000, 3000, 3000, 3000]);
  });

  it('returns at once when Retry-After is longer than maxRetryAfterMs', async () => {
    const fake = sequence(status(429, { 'retry-after': '120' }), status(200));
    const { retried, sleeps } = retrying(fake.fetch);
    const response = await retried(new Request(`${BASE}/x`));
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '120');
    assert.deepEqual(sleeps, []);
  });

  it('retries a 409 only when it says when (Retry-After), and never a 500 or a 4xx', async () => {
    const busy = sequence(status(409, { 'retry-after': '1' }), status(200));
    assert.equal((await retrying(busy.fetch).retried(new Request(`${BASE}/x`))).status, 200);
    for (const code of [409, 500, 400, 404, 422]) {
      const fake = sequence(status(code), status(200));
      assert.equal((await retrying(fake.fetch).retried(new Request(`${BASE}/x`))).status, code);
      assert.equal(fake.calls(), 1);
    }
  });

  it('sends the same body on every attempt', async () => {
    const fake = sequence(
      status(503, { 'retry-after': '0' }),
      status(503, { 'retry-after': '0' }),
      status(200),
    );
    const { retried } = retrying(fake.fetch);
    await retried(new Request(`${BASE}/x`, { method: 'POST', body: '{"name":"a"}' }));
    assert.deepEqual(fake.bodies, ['{"name":"a"}', '{"name":"a"}', '{"name":"a"}']);
  });

  it('repeats a network failure of a read or of a keyed write, not of a write without a key', async () => {
    const failing = () => {
      let calls = 0;
      const fetch = async () => {
        if (calls++ === 0) throw new TypeError('fetch failed');
        return new Response('ok');
      };
      return { fetch: fetch as typeof globalThis.fetch, calls: () => calls };
    };
    const read = failing();
    assert.equal((await retrying(read.fetch).retried(new Request(`${BASE}/x`))).status, 200);
    const keyed = failing();
    const keyedRequest = new Request(`${BASE}/x`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k' },
      body: '{}',
    });
    assert.equal((await retrying(keyed.fetch).retried(keyedRequest)).status, 200);
    const unkeyed = failing();
    await assert.rejects(
      retrying(unkeyed.fetch).retried(new Request(`${BASE}/x`, { method: 'POST', body: '{}' })),
      /fetch failed/,
    );
    assert.equal(unkeyed.calls(), 1);
  });

  it('with maxAttempts 1 sends once', async () => {
    const fake = sequence(status(503, { 'retry-after': '1' }));
    assert.equal(
      (await retrying(fake.fetch, { maxAttempts: 1 }).retried(new Request(`${BASE}/x`))).status,
      503,
    );
    assert.equal(fake.calls(), 1);
  });

  it('waits for real with the default sleep, and an abort ends the wait', async () => {
    const fake = sequence(status(503, { 'retry-after': '0' }), status(200));
    const started = Date.now();
    assert.equal((await withRetries(fake.fetch)(new Request(`${BASE}/x`))).status, 200);
    assert.ok(Date.now() - started < 1000);
    const controller = new AbortController();
    const slow = withRetries(sequence(status(503, { 'retry-after': '30' })).fetch);
    const pending = slow(new Request(`${BASE}/x`, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await assert.rejects(pending, /stop/);
  });
});

describe('client: retries and Idempotency-Key', () => {
  it('sends one Idempotency-Key on a write, the same on each retry, and the retry succeeds', async () => {
    const { fetch, seen } = fakeService((_, index) =>
      index === 0
        ? json(503, { title: 'busy', status: 503 }, { 'retry-after': '1' })
        : envelope({ accountId: 'a1' }),
    );
    const sleeps: number[] = [];
    const api = createServiceClient(clientOptions(fetch, sleeps));
    const result = await unwrap(
      api.POST('/v1/api/accounts', {
        body: { platform: 'bitcoin', address: 'bc1q', identity: 'h/1' } as never,
      }),
    );
    assert.deepEqual(result, { accountId: 'a1' });
    assert.equal(seen.length, 2);
    const key = seen[0]!.headers.get('idempotency-key');
    assert.match(key ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(seen[1]!.headers.get('idempotency-key'), key);
    assert.equal(seen[1]!.headers.get('authorization'), 'Bearer t1');
    assert.deepEqual(sleeps, [1000]);
  });

  it('gives each call its own key, none to reads, keeps a key the caller sets, and can be turned off', async () => {
    const { fetch, seen } = fakeService(() => envelope({}));
    const api = createServiceClient(clientOptions(fetch));
    await api.POST('/v1/api/webhooks/{id}/test', { params: { path: { id: 'e1' } } });
    await api.POST('/v1/api/webhooks/{id}/test', { params: { path: { id: 'e1' } } });
    await api.GET('/v1/api/accounts');
    await api.DELETE('/v1/api/accounts/{accountId}', {
      params: { path: { accountId: 'a1' }, header: { 'Idempotency-Key': 'mine' } },
    });
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    assert.notEqual(keys[0], keys[1]);
    assert.ok(keys[0] && keys[1]);
    assert.equal(keys[2], null);
    assert.equal(keys[3], 'mine');

    const off = fakeService(() => envelope({}));
    await createServiceClient({ ...clientOptions(off.fetch), idempotencyKeys: false }).POST(
      '/v1/api/webhooks/{id}/test',
      { params: { path: { id: 'e1' } } },
    );
    assert.equal(off.seen[0]!.headers.get('idempotency-key'), null);
  });

  it('does not retry when retries is false', async () => {
    const { fetch, seen } = fakeService(() =>
      json(503, { title: 'busy', status: 503 }, { 'retry-after': '1' }),
    );
    const api = createServiceClient({ ...clientOptions(fetch), retries: false });
    const { response } = await api.GET('/v1/api/accounts');
    assert.equal(response.status, 503);
    assert.equal(seen.length, 1);
  });
});
