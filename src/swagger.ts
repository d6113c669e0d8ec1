import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_VERSION } from './modules/status/status.controller.js';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cryptoasset Accounts, Scoring and Reporting Service')
    .setDescription(
      'Data infrastructure for registered investment advisors. Get a token from `POST /v1/api/token` ' +
        '(sandbox: `sandbox-client` / `sandbox-secret`; admin: `sandbox-admin` / `sandbox-admin-secret`), ' +
        'then press **Authorize** and paste it. Responses under `/v1/api` come in the envelope ' +
        '`{isError, message, result, statusCode}`; errors elsewhere are RFC 9457 problem+json.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Access token from POST /v1/api/token',
      },
      'bearer',
    )
    .build();
  return SwaggerModule.createDocument(app, config);
}

export function setupSwagger(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: 'Crypto Asset Service API',
    swaggerOptions: { persistAuthorization: true, displayRequestDuration: true, tryItOutEnabled: true },
  });
}
