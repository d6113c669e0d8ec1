/**
 * The TypeScript SDK's token helper and client (clients/typescript) with a fake clock and a fake
 * fetch: when a token is replaced, that concurrent callers share one request, that errors become
 * ApiError with the problem details, and that the client sends the token where it should. The SDK
 * against the real service is test/sdk.e2e-spec.ts (types) and the CI step (the example).
 */
import { createServiceClient } from '../clients/typescript/src/client.js';
import { ApiError, unwrap } from '../clients/typescript/src/errors.js';
import { TokenProvider } from '../clients/typescript/src/token.js';

const BASE = 'http://sdk.test';
const T0 = Date.UTC(2026, 3, 1, 12, 0, 0);

interface Seen {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

/** A fake service: tokens `t1`, `t2`, ... valid for `lifetime` seconds; other routes per `answer`. */
function fakeService(
  options: { lifetime?: number; answer?: (seen: Seen) => Response; tokenAnswer?: () => Response } = {},
) {
  const seen: Seen[] = [];
  let issued = 0;
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const entry: Seen = {
      method: request.method,
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
      body: await request.text(),
    };
    seen.push(entry);
    if (entry.path === '/v1/api/token') {
      if (options.tokenAnswer) return options.tokenAnswer();
      issued++;
      return json(200, {
        isError: false,
        message: 'OK',
        statusCode: 200,
        result: {
          accessToken: `t${issued}`,
          token: `t${issued}`,
          tokenType: 'Bearer',
          expiresIn: options.lifetime ?? 3600,
          expiresOn: '2026-04-01T13:00:00+00:00',
        },
      });
    }
    return options.answer
      ? options.answer(entry)
      : json(200, { isError: false, message: 'OK', statusCode: 200, result: {} });
  };
  return { fetch, seen, tokenRequests: () => seen.filter((s) => s.path === '/v1/api/token').length };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function problemEnvelope(status: number, title: string, extra: Record<string, unknown> = {}) {
  return {
    isError: true,
    message: title,
    statusCode: status,
    result: null,
    responseException: {
      exceptionMessage: {
        type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
        title,
        status,
        instance: '/v1/api/token',
        traceId: 'trace-1',
        ...extra,
      },
    },
  };
}

describe('SDK token helper', () => {
  let now: number;
  const clock = () => now;
  beforeEach(() => {
    now = T0;
  });

  it('sends the client credentials as the JSON body of POST /v1/api/token', async () => {
    const service = fakeService();
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'id-1',
      clientSecret: 's3cret',
      fetch: service.fetch,
      now: clock,
    });
    expect(await tokens.getToken()).toBe('t1');
    expect(service.seen).toEqual([
      {
        method: 'POST',
        path: '/v1/api/token',
        authorization: null,
        body: JSON.stringify({ clientId: 'id-1', clientSecret: 's3cret' }),
      },
    ]);
  });

  it('keeps a 3600 s token until 60 s before expiry, then requests a new one', async () => {
    const service = fakeService({ lifetime: 3600 });
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
      now: clock,
    });
    expect(await tokens.getToken()).toBe('t1');
    expect(tokens.peek()).toEqual({
      accessToken: 't1',
      expiresAt: T0 + 3_600_000,
      refreshAt: T0 + 3_540_000,
    });

    now = T0 + 3_540_000 - 1; // 60 s and 1 ms before expiry: still the cached token
    expect(await tokens.getToken()).toBe('t1');
    expect(service.tokenRequests()).toBe(1);

    now = T0 + 3_540_000; // 60 s before expiry: replaced, though the service would still accept it
    expect(await tokens.getToken()).toBe('t2');
    expect(service.tokenRequests()).toBe(2);
    expect(tokens.peek()?.expiresAt).toBe(T0 + 3_540_000 + 3_600_000);
  });

  it('refreshes a short-lived token at half its lifetime when the margin is longer than that', async () => {
    const service = fakeService({ lifetime: 100 });
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
      now: clock,
      refreshBeforeExpirySeconds: 300,
    });
    await tokens.getToken();
    expect(tokens.peek()?.refreshAt).toBe(T0 + 50_000);
    now = T0 + 49_999;
    expect(await tokens.getToken()).toBe('t1');
    now = T0 + 50_000;
    expect(await tokens.getToken()).toBe('t2');
  });

  it('measures expiry from when the request was sent, by the client clock', async () => {
    const service = fakeService({ lifetime: 3600 });
    const slow = async (input: Request | string | URL, init?: RequestInit) => {
      now += 5_000; // the token endpoint takes 5 s to answer
      return service.fetch(input, init);
    };
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: slow,
      now: clock,
    });
    await tokens.getToken();
    expect(tokens.peek()?.expiresAt).toBe(T0 + 3_600_000);
  });

  it('makes one token request for concurrent callers', async () => {
    const service = fakeService();
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
      now: clock,
    });
    const got = await Promise.all([tokens.getToken(), tokens.getToken(), tokens.getToken()]);
    expect(got).toEqual(['t1', 't1', 't1']);
    expect(service.tokenRequests()).toBe(1);
  });

  it('turns a 401 into an ApiError with the problem details, caches nothing and tries again next time', async () => {
    let fail = true;
    const service = fakeService({
      tokenAnswer: () =>
        fail
          ? json(401, problemEnvelope(401, 'Unauthorized', { detail: 'Invalid client credentials.' }), {
              'x-request-id': 'trace-1',
            })
          : json(200, {
              isError: false,
              message: 'OK',
              statusCode: 200,
              result: {
                accessToken: 'ok',
                token: 'ok',
                tokenType: 'Bearer',
                expiresIn: 3600,
                expiresOn: 'x',
              },
            }),
    });
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 'wrong',
      fetch: service.fetch,
      now: clock,
    });
    const error = await tokens.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 401,
      message: '401 Unauthorized: Invalid client credentials.',
      traceId: 'trace-1',
      problem: { status: 401, title: 'Unauthorized', detail: 'Invalid client credentials.' },
      envelope: { isError: true, statusCode: 401 },
    });
    expect(tokens.peek()).toBeUndefined();
    fail = false;
    expect(await tokens.getToken()).toBe('ok');
  });

  it('reads Retry-After of a 429', async () => {
    const service = fakeService({
      tokenAnswer: () => json(429, problemEnvelope(429, 'Too Many Requests'), { 'retry-after': '37' }),
    });
    const tokens = new TokenProvider({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
      now: clock,
    });
    await expect(tokens.getToken()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 37 });
  });
});

describe('SDK client', () => {
  it('sends the bearer token on protected operations only and unwraps the envelope', async () => {
    const service = fakeService({
      answer: () =>
        json(200, {
          isError: false,
          message: 'OK',
          statusCode: 200,
          result: { accounts: [], nextCursor: null },
        }),
    });
    const api = createServiceClient({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
    });
    const page = await unwrap(api.GET('/v1/api/accounts', { params: { query: { limit: 10 } } }));
    expect(page).toEqual({ accounts: [], nextCursor: null });
    await unwrap(api.GET('/v1/api/accounts'));
    expect(service.seen.map((s) => [s.method, s.path, s.authorization])).toEqual([
      ['POST', '/v1/api/token', null],
      ['GET', '/v1/api/accounts', 'Bearer t1'],
      ['GET', '/v1/api/accounts', 'Bearer t1'],
    ]);
  });

  it('drops the token on a 401 so the next call gets a new one', async () => {
    let calls = 0;
    const service = fakeService({
      answer: () =>
        ++calls === 1
          ? json(401, problemEnvelope(401, 'Unauthorized'))
          : json(200, {
              isError: false,
              message: 'OK',
              statusCode: 200,
              result: { accounts: [], nextCursor: null },
            }),
    });
    const api = createServiceClient({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
    });
    await expect(unwrap(api.GET('/v1/api/accounts'))).rejects.toMatchObject({ status: 401 });
    await unwrap(api.GET('/v1/api/accounts'));
    expect(service.seen.map((s) => s.authorization)).toEqual([null, 'Bearer t1', null, 'Bearer t2']);
  });

  it('gives ApiError the problem of a problem+json body and the text of a plain 503', async () => {
    const responses = [
      new Response(
        JSON.stringify({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          instance: '/portfolio/summary',
          traceId: 'r-9',
          reason: 'x',
        }),
        { status: 404, headers: { 'content-type': 'application/problem+json' } },
      ),
      new Response('Service Unavailable', { status: 503, headers: { 'content-type': 'text/plain' } }),
    ];
    const service = fakeService({ answer: () => responses.shift()! });
    const api = createServiceClient({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
      retries: false, // the 503 as it comes (retries: clients/typescript/test/retry.test.ts)
    });
    await expect(unwrap(api.GET('/portfolio/summary'))).rejects.toMatchObject({
      status: 404,
      problem: { title: 'Not Found', traceId: 'r-9' },
      envelope: undefined,
      traceId: 'r-9',
      reason: 'x',
      message: '404 Not Found',
    });
    await expect(unwrap(api.GET('/portfolio/summary'))).rejects.toMatchObject({
      status: 503,
      problem: undefined,
      body: 'Service Unavailable',
      message: '503 Service Unavailable',
    });
  });

  it('gives ApiError the RFC 6749 error of /oauth/token', async () => {
    const service = fakeService({
      answer: () =>
        json(400, { error: 'unsupported_grant_type', error_description: 'Only client_credentials.' }),
    });
    const api = createServiceClient({
      baseUrl: BASE,
      clientId: 'c',
      clientSecret: 's',
      fetch: service.fetch,
    });
    const error = await unwrap(
      api.POST('/oauth/token', {
        body: { grant_type: 'password' },
        bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      oauth: { error: 'unsupported_grant_type' },
      message: '400 unsupported_grant_type: Only client_credentials.',
    });
    expect(service.seen.map((s) => [s.path, s.authorization])).toEqual([['/oauth/token', null]]);
  });
});
