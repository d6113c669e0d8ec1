import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { TokenProvider, type TokenProviderOptions } from './token.js';

export interface ServiceClientOptions extends TokenProviderOptions {
  /** Further openapi-fetch options (headers, querySerializer, ...). */
  clientOptions?: Omit<ClientOptions, 'baseUrl' | 'fetch'>;
}

/** An openapi-fetch client of every operation in the document, with tokens handled. */
export type ServiceClient = Client<paths> & {
  /** The token cache behind the Authorization header (refresh, invalidate, peek). */
  readonly tokens: TokenProvider;
};

/** Operations that take no bearer token (the document declares no security for them). */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  '/v1/api/token',
  '/oauth/token',
  '/.well-known/jwks.json',
]);

/**
 * A typed client of the service: every request except the token endpoints carries
 * `Authorization: Bearer <token>` from a TokenProvider, which gets the token with the client
 * credentials and replaces it before it expires. A 401 answer drops the cached token, so a token
 * revoked early is replaced on the next call. Pair with `unwrap` to read `result` or throw ApiError.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const tokens = new TokenProvider(options);
  const client = createClient<paths>({
    ...options.clientOptions,
    baseUrl: options.baseUrl,
    fetch: options.fetch,
  });
  client.use({
    async onRequest({ request, schemaPath }) {
      if (PUBLIC_PATHS.has(schemaPath) || request.headers.has('authorization')) return undefined;
      request.headers.set('Authorization', `Bearer ${await tokens.getToken()}`);
      return request;
    },
    onResponse({ response, schemaPath }) {
      if (response.status === 401 && !PUBLIC_PATHS.has(schemaPath)) tokens.invalidate();
      return undefined;
    },
  });
  return Object.assign(client, { tokens });
}
