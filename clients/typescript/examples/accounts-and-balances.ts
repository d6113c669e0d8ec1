/**
 * The README's flow with the SDK: a token from the client credentials, the caller's accounts
 * (every page), and each account's balances. Run against a service:
 *
 *     BASE_URL=http://localhost:3000 CLIENT_ID=sandbox-client CLIENT_SECRET=sandbox-secret \
 *       npm run example
 *
 * Accounts whose balances cannot be served (the sandbox has some: a gap in the history, a
 * connection that needs reconnecting) show the service's typed problem instead. Exits non-zero
 * when the flow cannot be completed, so CI can run it as a check.
 */
import { createServiceClient, isApiError, unwrap } from '../src/index.js';

// The example's only configuration, with the sandbox's published defaults.
// eslint-disable-next-line no-restricted-syntax -- an example program reads its own environment
const env = process.env;
const api = createServiceClient({
  baseUrl: env.BASE_URL ?? 'http://localhost:3000',
  clientId: env.CLIENT_ID ?? 'sandbox-client',
  clientSecret: env.CLIENT_SECRET ?? 'sandbox-secret',
});

// 1. A token (the client would get one on its first call; asked for here to show its expiry).
const token = await api.tokens.refresh();
console.log(
  `token valid until ${new Date(token.expiresAt).toISOString()}, replaced from ${new Date(token.refreshAt).toISOString()}`,
);

// 2. Every account of the caller: every page, fetched as the iteration asks for it.
const accounts = await api.accounts.list({ limit: 50 }).toArray();
console.log(`${accounts.length} accounts`);

// 3. Balances of each account: `result` typed as BalancesResultDto, errors as ApiError.
let served = 0;
for (const account of accounts) {
  try {
    const balances = await unwrap(
      api.GET('/v1/api/account/{accountId}/balances', { params: { path: { accountId: account.accountId } } }),
    );
    served++;
    const assets = balances.balances.map((b) => `${b.balance} ${b.symbol}`).join(', ');
    console.log(
      `${account.identity} (${balances.syncStatus}): ${balances.marketValue} USD; ${assets || 'no assets'}`,
    );
  } catch (error) {
    if (!isApiError(error) || error.status >= 500) throw error;
    console.log(
      `${account.identity} (${account.syncStatus}): ${error.status} ${error.problem?.title}${error.reason ? ` (${error.reason})` : ''}`,
    );
  }
}

// 4. An error the caller can act on: a 404 problem for an account that is not the caller's.
try {
  await unwrap(
    api.GET('/v1/api/account/{accountId}/balances', {
      params: { path: { accountId: '00000000-0000-4000-8000-000000000000' } },
    }),
  );
  throw new Error('an unknown account answered with balances');
} catch (error) {
  if (!isApiError(error) || error.status !== 404) throw error;
  console.log(`unknown account: ${error.status} ${error.problem?.title} (traceId ${error.traceId})`);
}

if (accounts.length === 0 || served === 0) {
  console.error('the flow found no account with balances');
  process.exit(1);
}
console.log(`done: balances of ${served} of ${accounts.length} accounts`);
