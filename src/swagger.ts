import type { INestApplication } from '@nestjs/common';
import { labelRoute } from './modules/metrics/index.js';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { describeErrorBodies, ERROR_BODY_MODELS } from './common/openapi/api-responses.js';
import { describeRequestBodies } from './common/openapi/request-bodies.js';
import { API_VERSION } from './modules/status/index.js';

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
  return describeRequestBodies(
    describeErrorBodies(SwaggerModule.createDocument(app, config, { extraModels: ERROR_BODY_MODELS })),
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
