import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { IDEMPOTENT_WRITES } from './generated/operations.js';
import {
  paginate,
  type ListItem,
  type ListPage,
  type ListParams,
  type ListPath,
  type Paginated,
} from './pagination.js';
import { withRetries, type RetryOptions } from './retry.js';
import { TokenProvider, type TokenProviderOptions } from './token.js';

export interface ServiceClientOptions extends TokenProviderOptions {
  /** Further openapi-fetch options (headers, querySerializer, ...). */
  clientOptions?: Omit<ClientOptions, 'baseUrl' | 'fetch'>;
  /**
   * Retries of 429 and 503 answers (after their Retry-After, else with backoff) and of network
   * failures where repeating is safe; default 3 attempts in all. `false` turns them off.
   */
  retries?: RetryOptions | false;
  /**
   * Send an `Idempotency-Key` on every write that takes one (default true), the same on each retry
   * of that call, so a retry never executes twice. A key given in the call's headers is kept.
   */
  idempotencyKeys?: boolean;
  /** Makes the keys (default `crypto.randomUUID()`). */
  newIdempotencyKey?: () => string;
}

/** A list of the API, iterable item by item; see `paginate`. */
type List<P extends ListPath> = Paginated<ListItem<P>, ListPage<P>>;
type QueryOf<P extends ListPath> = ListParams<P>['query'];

/** An openapi-fetch client of every operation in the document, with tokens, retries and pagination. */
export type ServiceClient = Client<paths> & {
  /** The token cache behind the Authorization header (refresh, invalidate, peek). */
  readonly tokens: TokenProvider;
  /**
   * Every item of a cursor list, page after page as the loop asks:
   * `for await (const tx of api.paginate('/v1/api/account/{accountId}/transactions', { path: { accountId } }))`.
   */
  paginate<P extends ListPath>(path: P, ...params: ListParamsArgument<P>): List<P>;
  readonly accounts: {
    /** `GET /v1/api/accounts`, every page. */
    list(query?: QueryOf<'/v1/api/accounts'>): List<'/v1/api/accounts'>;
    /** `GET /v1/api/account/{accountId}/transactions`, every page. */
    transactions(
      accountId: string,
      query?: QueryOf<'/v1/api/account/{accountId}/transactions'>,
    ): List<'/v1/api/account/{accountId}/transactions'>;
  };
  readonly reportSnapshots: {
    /** `GET /v1/api/report-snapshots`, every page. */
    list(query?: QueryOf<'/v1/api/report-snapshots'>): List<'/v1/api/report-snapshots'>;
  };
  readonly webhooks: {
    /** `GET /v1/api/webhooks/{id}/deliveries`, every page (newest first). */
    deliveries(
      endpointId: string,
      query?: QueryOf<'/v1/api/webhooks/{id}/deliveries'>,
    ): List<'/v1/api/webhooks/{id}/deliveries'>;
  };
};

/** `params` is required when the list has path parameters. */
type ListParamsArgument<P extends ListPath> =
  ListParams<P> extends { path: object } ? [params: ListParams<P>] : [params?: ListParams<P>];

/** Operations that take no bearer token (the document declares no security for them). */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/v1/api/token',
  '/oauth/token',
  '/.well-known/jwks.json',
]);

/**
 * A typed client of the service:
 *
 * - every request except the token endpoints carries `Authorization: Bearer <token>` from a
 *   TokenProvider, which gets the token with the client credentials and replaces it before it
 *   expires; a 401 answer drops the cached token, so a token revoked early is replaced next call;
 * - 429 and 503 answers are retried after their Retry-After (bounded: `retries`);
 * - writes that take an `Idempotency-Key` get one, kept across those retries;
 * - a text answer (CSV, NDJSON) is `data` as a string instead of a JSON parse error;
 * - `paginate` (and `accounts.list()`, ...) iterate cursor lists to the end.
 *
 * Pair with `unwrap` to read `result` or throw ApiError.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseFetch: typeof globalThis.fetch = (input, init) =>
    (options.fetch ?? globalThis.fetch)(input, init);
  const fetch = options.retries === false ? baseFetch : withRetries(baseFetch, options.retries);
  const tokens = new TokenProvider({ ...options, fetch });
  const newKey = options.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID());
  const client = createClient<paths>({ ...options.clientOptions, baseUrl: options.baseUrl, fetch });
  client.use({
    async onRequest({ request, schemaPath }) {
      if (
        options.idempotencyKeys !== false &&
        IDEMPOTENT_WRITES.has(`${request.method} ${schemaPath}`) &&
        !request.headers.has('idempotency-key')
      ) {
        request.headers.set('Idempotency-Key', newKey());
      }
      if (!PUBLIC_PATHS.has(schemaPath) && !request.headers.has('authorization')) {
        request.headers.set('Authorization', `Bearer ${await tokens.getToken()}`);
      }
      return request;
    },
    async onResponse({ response, schemaPath, options: call }) {
      if (response.status === 401 && !PUBLIC_PATHS.has(schemaPath)) tokens.invalidate();
      if (!response.ok || call.parseAs !== 'json') return undefined;
      return asJsonText(response);
    },
  });
  const list = <P extends ListPath>(path: P, params?: ListParams<P>): List<P> =>
    paginate(client, path, params);
  return Object.assign(client, {
    tokens,
    paginate: list as ServiceClient['paginate'],
    accounts: {
      list: (query?: QueryOf<'/v1/api/accounts'>) => list('/v1/api/accounts', { query }),
      transactions: (accountId: string, query?: QueryOf<'/v1/api/account/{accountId}/transactions'>) =>
        list('/v1/api/account/{accountId}/transactions', { path: { accountId }, query }),
    },
    reportSnapshots: {
      list: (query?: QueryOf<'/v1/api/report-snapshots'>) => list('/v1/api/report-snapshots', { query }),
    },
    webhooks: {
      deliveries: (id: string, query?: QueryOf<'/v1/api/webhooks/{id}/deliveries'>) =>
        list('/v1/api/webhooks/{id}/deliveries', { path: { id }, query }),
    },
  });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
const TEXT_TYPE =
  /^(?:text\/|application\/(?:csv|x-ndjson|ndjson|xml|yaml|x-yaml)\b|application\/[\w.-]+\+xml\b)/i;

/**
 * openapi-fetch parses every success as JSON unless the call says `parseAs`: a text answer (the
 * Form 8949 CSV, an export) would throw SyntaxError. It becomes a JSON string of its text, so `data`
 * is the text; a binary answer (a PDF) says to ask for `parseAs: 'blob'` instead of failing to parse.
 */
async function asJsonText(response: Response): Promise<Response | undefined> {
  const type = response.headers.get('content-type') ?? '';
  if (type === '' || JSON_TYPE.test(type) || response.status === 204) return undefined;
  if (!TEXT_TYPE.test(type)) {
    await response.body?.cancel();
    throw new TypeError(
      `the answer is ${type}: call with parseAs 'blob', 'arrayBuffer' or 'stream' to read it`,
    );
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length'); // the body is now the JSON string (Content-Type stays as it was)
  return new Response(JSON.stringify(await response.text()), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
