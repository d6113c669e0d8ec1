/** A fake service for the unit tests: records each request and answers with `answer`. */
export interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

export const BASE = 'http://sdk.test';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function envelope(result: unknown): Response {
  return json(200, { isError: false, message: 'OK', result, statusCode: 200 });
}

/** A fetch that issues a token on /v1/api/token and hands every other request to `answer`. */
export function fakeService(answer: (seen: Seen, index: number) => Response | Promise<Response>) {
  const seen: Seen[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const entry: Seen = {
      method: request.method,
      url: new URL(request.url),
      headers: request.headers,
      body: await request.text(),
    };
    if (entry.url.pathname === '/v1/api/token') {
      return envelope({ accessToken: 't1', expiresIn: 3600, tokenType: 'Bearer' });
    }
    seen.push(entry);
    return answer(entry, seen.length - 1);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

/** Options of createServiceClient for the fake, with retries that do not wait. */
export function clientOptions(fetch: typeof globalThis.fetch, sleeps: number[] = []) {
  return {
    baseUrl: BASE,
    clientId: 'c',
    clientSecret: 's',
    fetch,
    retries: {
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    },
  };
}
