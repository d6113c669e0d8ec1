/** Text answers (the Form 8949 CSV) are strings, not a JSON parse error; binary ones say what to do. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, createServiceClient, unwrap } from '../src/index.js';
import { clientOptions, envelope, fakeService } from './fake-service.js';

const CSV = 'Description of property,Date acquired\n"0.5 BTC",01/02/2024\n';

describe('text and CSV answers', () => {
  it('returns the Form 8949 CSV as text through unwrap, with its headers', async () => {
    const { fetch } = fakeService(
      () =>
        new Response(CSV, {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-length': String(CSV.length) },
        }),
    );
    const api = createServiceClient(clientOptions(fetch));
    const call = api.GET('/taip/form-8949', { params: { query: { tax_year: 2025, format: 'csv' } } });
    assert.equal((await call).response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(await unwrap(call), CSV);
  });

  it('returns NDJSON and an empty text as text', async () => {
    for (const [type, body] of [
      ['application/x-ndjson', '{"a":1}\n{"a":2}\n'],
      ['text/plain', ''],
    ] as const) {
      const { fetch } = fakeService(() => new Response(body, { headers: { 'content-type': type } }));
      const { data } = await createServiceClient(clientOptions(fetch)).GET('/v1/api/accounts');
      assert.equal(data, body);
    }
  });

  it('leaves JSON, parseAs and errors as openapi-fetch has them', async () => {
    const { fetch } = fakeService((seen) =>
      seen.url.pathname === '/v1/api/accounts'
        ? envelope({ accounts: [], nextCursor: null })
        : new Response('shutting down', { status: 503, headers: { 'content-type': 'text/plain' } }),
    );
    const api = createServiceClient({ ...clientOptions(fetch), retries: false });
    assert.deepEqual(await unwrap(api.GET('/v1/api/accounts')), { accounts: [], nextCursor: null });
    const text = await api.GET('/v1/api/accounts', { parseAs: 'text' });
    assert.equal(typeof text.data, 'string');
    const error = await unwrap(api.GET('/portfolio/summary')).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.body, 'shutting down');
  });

  it('asks for parseAs on a binary answer instead of a SyntaxError, and reads it with parseAs blob', async () => {
    const pdf = () =>
      new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
        headers: { 'content-type': 'application/pdf' },
      });
    const { fetch } = fakeService(pdf);
    const api = createServiceClient(clientOptions(fetch));
    await assert.rejects(
      api.GET('/taip/form-8949', { params: { query: { tax_year: 2025 } } }),
      /parseAs 'blob'/,
    );
    const { data } = await api.GET('/taip/form-8949', {
      params: { query: { tax_year: 2025 } },
      parseAs: 'blob',
    });
    assert.equal((data as Blob).size, 4);
  });
});
