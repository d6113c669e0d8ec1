import type { INestApplication } from '@nestjs/common';
import { labelRoute } from './modules/metrics/index.js';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { describeErrorBodies, ERROR_BODY_MODELS } from './common/openapi/api-responses.js';
import { toOpenApi31 } from './common/openapi/openapi-31.js';
import { describeRequestBodies } from './common/openapi/request-bodies.js';
import { API_VERSION } from './modules/status/index.js';

/**
 * Every tag of the document with what it groups, in the order Swagger UI shows them: the partner's
 * API first (how to get a token, then accounts and what is computed from them), the admin team's
 * after. A controller's @ApiTags must name one of these (the OpenAPI e2e test checks it).
 */
export const API_TAGS: readonly (readonly [name: string, description: string])[] = [
  ['Auth', 'Access tokens (client credentials) and the keys that verify them. Start here: Authorize.'],
  [
    'Accounts',
    "The partner's linked accounts: link, look up by collection or identity, list with sync state, balances with cost basis, transactions.",
  ],
  [
    'Tax reporting',
    'Realized gains, Form 8949 (JSON, CSV), Form 1099-DA reconciliation, open lots and harvesting candidates, cost-basis method elections, lot selections, the safe-harbor allocation and frozen report snapshots (docs/tax-report.md).',
  ],
  [
    'Integrity',
    "The checksum of a tenant's transactions, to show a report was computed from unchanged data (docs/checksum.md).",
  ],
  ['QScore', 'Quality scores of assets and of a holding (docs/scoring.md).'],
  ['Cryptoassets', 'The assets the service prices, with market data.'],
  ['Portfolios', "The tenant's model portfolios: named allocations that the qScore and projections read."],
  [
    'Simulation',
    'Monte Carlo projections of a portfolio (bull, base, bear; percentile bands) and the firm’s return assumptions (docs/simulation.md).',
  ],
  ['ROI', 'Return on investment of a holding over a period.'],
  ['Aggregation', "A household's holdings across its accounts."],
  ['Wallet tracking', 'Watch-only wallets by address.'],
  [
    'Webhooks',
    'Events pushed to the partner (account linked, synced, failed, transactions updated), signed by Standard Webhooks (docs/events.md).',
  ],
  ['Status', 'The service’s state and the caller’s remaining rate limit.'],
  [
    'Admin: tenants and clients',
    'Operator only (scope `admin`): tenants, API clients, their secrets (shown once), rotation and disabling.',
  ],
  [
    'Admin: accounts',
    'Operator only: link, refresh, import into and delete any tenant’s accounts; each request names its `tenant`.',
  ],
  [
    'Admin: support reads',
    'Operator only: read a tenant’s account data as its partner gets it, each read recorded in the audit trail.',
  ],
  [
    'Admin: audit trail',
    'Operator only: query, export and verify the hash-chained audit trail (docs/audit.md).',
  ],
  [
    'Admin: job queue',
    'Operator only: the background job queue (refreshes, market data, webhook deliveries) and its dead letters (docs/jobs.md).',
  ],
  ['Admin: market data', 'Operator only: market data refresh.'],
];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cryptoasset Accounts, Scoring and Reporting Service')
    .setDescription(
      'Data infrastructure for registered investment advisors. Press **Authorize** and use the ' +
        '`oauth2` client-credentials form (sandbox: `sandbox-client` / `sandbox-secret` with scope ' +
        '`partner`; admin: `sandbox-admin` / `sandbox-admin-secret` with scope `admin`: operator ' +
        'tenant, `/admin` only, each request names its `tenant`), or get a token from ' +
        '`POST /v1/api/token` and paste `result.accessToken` into `bearer`. Responses ' +
        'under `/v1/api` come in the envelope `{isError, message, result, statusCode}` (errors: ' +
        '`result: null` and `responseException.exceptionMessage`); errors elsewhere are RFC 9457 ' +
        'problem+json.',
    )
    .setVersion(API_VERSION)
    // The instance that serves the document (Swagger UI's Try it out, the SDK and Postman take
    // their own base URL).
    .addServer('/', 'This instance')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token from POST /v1/api/token (`result.accessToken`) or POST /oauth/token.',
      },
      'bearer',
    )
    .addOAuth2(
      {
        type: 'oauth2',
        description:
          'RFC 6749 client credentials at /oauth/token (client authentication by HTTP Basic or in the body).',
        flows: {
          clientCredentials: {
            tokenUrl: '/oauth/token',
            scopes: {
              partner: 'The published API (accounts, balances, scores, reports).',
              admin: 'The admin API (/admin/...).',
            },
          },
        },
      },
      'oauth2',
    )
    .build();
  config.tags = API_TAGS.map(([name, description]) => ({ name, description }));
  return toOpenApi31(
    describeRequestBodies(
      describeErrorBodies(SwaggerModule.createDocument(app, config, { extraModels: ERROR_BODY_MODELS })),
    ),
  );
}

/** The `route` label of Swagger UI's page and its static files (the HTTP metrics). */
export const SWAGGER_UI_ROUTE = '/docs/*';

export function setupSwagger(app: INestApplication): void {
  // The root is where a newcomer's browser lands first: send it to Swagger UI, not a JSON 404.
  // An Express route, not a controller: it is no operation of the API and not in the document.
  const http = app.getHttpAdapter();
  http.get('/', (_request: unknown, response: unknown) => http.redirect(response, 302, '/docs'));
  // Swagger UI's page and static files are served by middleware, not a route: without a label the
  // HTTP metrics counted them as `unmatched`, beside real 404s. One template for all of them.
  app.use('/docs', (request: object, _response: unknown, next: () => void) => {
    labelRoute(request, SWAGGER_UI_ROUTE);
    next();
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Crypto Asset Service API',
    swaggerOptions: {
      persistAuthorization: true,
      displayRequestDuration: true,
      tryItOutEnabled: true,
      // No badge image from an outside validator: the CSP allows same-origin images only.
      validatorUrl: null,
    },
  });
}
