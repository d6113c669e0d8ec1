/**
 * The SDK against the built service (CI's SDK step starts it: scripts/sdk-ci.mjs): pagination over
 * lists longer than a page, the Form 8949 CSV as text, an Idempotency-Key that makes a retried write
 * execute once, a real 429 retried after its Retry-After, and a webhook delivered, verified and
 * listed. Reads BASE_URL, CLIENT_ID, CLIENT_SECRET; the service runs with WEBHOOK_POLL_MS and
 * JOBS_POLL_INTERVAL_MS low (deliveries in under a second) and TOKEN_VERIFICATIONS_MAX_CONCURRENT=4.
 *
 *     node --test dist/test/e2e/service.e2e.js
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import {
  ApiError,
  createServiceClient,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
  type AccountEventType,
  type ServiceClientOptions,
} from '../../src/index.js';

// The test's only configuration, from the CI step.
// eslint-disable-next-line no-restricted-syntax -- a test program reads its own environment
const env = process.env;
const credentials: ServiceClientOptions = {
  baseUrl: env.BASE_URL ?? 'http://localhost:3000',
  clientId: env.CLIENT_ID ?? 'sandbox-client',
  clientSecret: env.CLIENT_SECRET ?? 'sandbox-secret',
};
const api = createServiceClient(credentials);

describe('SDK against the built service', () => {
  it('iterates every account one per page: the same accounts, in the same order, as one big page', async () => {
    const onePage = await unwrap(api.GET('/v1/api/accounts', { params: { query: { limit: 200 } } }));
    assert.ok(onePage.accounts.length > 1 && onePage.nextCursor === null);
    let pages = 0;
    const ids: string[] = [];
    for await (const page of api.paginate('/v1/api/accounts', { query: { limit: 1 } }).pages()) {
      pages++;
      ids.push(...page.accounts.map((a) => a.accountId));
    }
    assert.equal(pages, onePage.accounts.length);
    assert.deepEqual(
      ids,
      onePage.accounts.map((a) => a.accountId),
    );
  });

  it('iterates an account’s transactions over several pages, each once', async () => {
    const accounts = await api.accounts.list().toArray();
    const counts = await Promise.all(
      accounts.map(async (a) => {
        const page = await unwrap(
          api.GET('/v1/api/account/{accountId}/transactions', {
            params: { path: { accountId: a.accountId }, query: { limit: 1000 } },
          }),
        ).catch(() => undefined);
        return { account: a, all: page?.nextCursor === null ? page.transactions : undefined };
      }),
    );
    const busiest = counts
      .filter((c) => c.all !== undefined)
      .sort((a, b) => b.all!.length - a.all!.length)[0]!;
    const limit = Math.ceil(busiest.all!.length / 4);
    assert.ok(limit >= 1 && busiest.all!.length > limit * 3, `${busiest.all!.length} transactions`);
    const ids: string[] = [];
    for await (const tx of api.accounts.transactions(busiest.account.accountId, { limit }))
      ids.push(tx.transactionId);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      ids,
      busiest.all!.map((t) => t.transactionId),
    );
  });

  it('returns the Form 8949 CSV as text, one row per line of the JSON report', async () => {
    const query = { tax_year: 2024 };
    const report = await unwrap(api.GET('/taip/form-8949', { params: { query } }));
    assert.ok(typeof report !== 'string' && report.lines.length > 0);
    const call = api.GET('/taip/form-8949', { params: { query: { ...query, format: 'csv' } } });
    const csv = await unwrap(call);
    assert.equal(typeof csv, 'string');
    assert.match((await call).response.headers.get('content-type') ?? '', /^text\/csv/);
    const rows = (csv as string).trimEnd().split('\n');
    assert.match(rows[0]!, /^Part,Box,\(a\) Description of property/);
    const lineRows = rows.filter((row) => /^(I|II),[A-L],/.test(row) && !/total/i.test(row));
    assert.equal(lineRows.length, report.lines.length);
  });

  it('sends an Idempotency-Key on a write: a retry after a lost answer creates one portfolio, not two', async () => {
    const sent: { method: string; path: string; key: string | null }[] = [];
    let dropped = false;
    const flaky = createServiceClient({
      ...credentials,
      retries: { baseDelayMs: 10 },
      // The first POST reaches the service, then its answer is "lost" (a connection reset).
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push({
          method: request.method,
          path: new URL(request.url).pathname,
          key: request.headers.get('idempotency-key'),
        });
        const response = await fetch(request);
        if (request.method === 'POST' && !dropped && new URL(request.url).pathname === '/api/portfolios') {
          dropped = true;
          throw new TypeError('fetch failed (the answer was lost)');
        }
        return response;
      },
    });
    const before = await unwrap(flaky.GET('/api/portfolios'));
    const name = `SDK idempotency ${Date.now()}`;
    const created = await flaky.POST('/api/portfolios', {
      body: { name, allocations: { BTC: 60, ETH: 40 } } as never,
    });
    assert.equal(created.response.status, 201);
    assert.equal(created.response.headers.get('idempotent-replayed'), 'true');
    const posts = sent.filter((s) => s.method === 'POST' && s.path === '/api/portfolios');
    assert.equal(posts.length, 2);
    assert.match(posts[0]!.key ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(posts[1]!.key, posts[0]!.key);
    assert.equal(sent.find((s) => s.method === 'GET')!.key, null);
    const afterwards = await unwrap(flaky.GET('/api/portfolios'));
    assert.equal(afterwards.length, before.length + 1);
    assert.equal(afterwards.filter((p) => p.name === name).length, 1);
    const id = (created.data as { id: string }).id;
    await unwrap(flaky.DELETE('/api/portfolios/{id}', { params: { path: { id } } }));
  });

  it('delivers a webhook whose Standard Webhooks signature verifies, and lists the delivery', async () => {
    const received: { body: string; headers: IncomingHttpHeaders }[] = [];
    let arrived: () => void = () => {};
    const delivered = new Promise<void>((resolve) => (arrived = resolve));
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
        res.writeHead(204).end();
        arrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    after(() => {
      receiver.closeAllConnections(); // the service's sender keeps its connection alive
      receiver.close();
    });
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    const eventTypes: AccountEventType[] = ['account.synced', 'balances.updated'];
    const endpoint = await unwrap(api.POST('/v1/api/webhooks', { body: { url, eventTypes } }));
    try {
      assert.match(endpoint.secret, /^whsec_/);
      await unwrap(api.POST('/v1/api/webhooks/{id}/test', { params: { path: { id: endpoint.id } } }));
      await Promise.race([
        delivered,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no delivery within 20 s')), 20_000)),
      ]);
      const { body, headers } = received[0]!;
      const event = verifyWebhook(body, headers, endpoint.secret);
      assert.equal(event.type, 'webhook.test');
      if (event.type === 'webhook.test') assert.equal(event.data.endpointId, endpoint.id);
      assert.throws(
        () => verifyWebhook(body.replace('"data"', '"dat\\u0061"'), headers, endpoint.secret),
        WebhookVerificationError,
      );
      const other = await unwrap(
        api.POST('/v1/api/webhooks/{id}/rotate-secret', { params: { path: { id: endpoint.id } } }),
      );
      assert.throws(() => verifyWebhook(body, headers, other.secret), WebhookVerificationError);
      assert.equal(verifyWebhook(body, headers, [other.secret, endpoint.secret]).type, 'webhook.test');

      const deliveries = await api.webhooks.deliveries(endpoint.id, { limit: 1 }).toArray();
      assert.ok(
        deliveries.some((d) => d.eventType === 'webhook.test' && d.eventId === headers['webhook-id']),
      );
    } finally {
      await unwrap(api.DELETE('/v1/api/webhooks/{id}', { params: { path: { id: endpoint.id } } }));
    }
  });

  // Last: the wrong secret marks this address as failing for a minute.
  it('retries a real 429 after its Retry-After: a second token request while the address’s share is in use', async () => {
    const wrong = createServiceClient({ ...credentials, clientSecret: 'not-the-secret', retries: false });
    await assert.rejects(
      wrong.tokens.refresh(),
      (error) => error instanceof ApiError && error.status === 401,
    );
    // An address that failed may hold a quarter of the verification slots (1 of 4): the second of
    // two concurrent requests is refused with 429 and Retry-After: 1, and the SDK waits and retries.
    const retries: { status?: number; delayMs: number }[] = [];
    const clients = [1, 2].map(() =>
      createServiceClient({ ...credentials, retries: { onRetry: (r) => retries.push(r) } }),
    );
    const started = Date.now();
    const tokens = await Promise.all(clients.map((c) => c.tokens.refresh()));
    assert.ok(tokens.every((t) => t.accessToken.length > 0));
    assert.deepEqual(
      retries.map(({ status, delayMs }) => ({ status, delayMs })),
      [{ status: 429, delayMs: 1000 }],
    );
    assert.ok(Date.now() - started >= 1000);
  });
});
