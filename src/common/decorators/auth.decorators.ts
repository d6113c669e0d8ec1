import { createParamDecorator, SetMetadata, applyDecorators, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOAuth2, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { AuthenticatedClient, ServiceRequest } from '../http/request-context.js';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_SCOPES = 'auth:scopes';

/** Opts a route out of bearer authentication (token endpoints, JWKS, health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Routes need the `partner` scope unless they say otherwise. `@Scopes('admin')` marks the admin API.
 * Bundled with the Swagger security description so docs and behaviour cannot drift: a bearer
 * token, or the OAuth2 client-credentials flow with the scopes the route needs (Swagger UI's
 * Authorize fetches that token itself).
 */
export const Scopes = (...scopes: string[]) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPES, scopes),
    ApiBearerAuth('bearer'),
    ApiOAuth2(scopes, 'oauth2'),
    ApiUnauthorizedResponse({ description: 'Bearer token missing or invalid.' }),
    ApiForbiddenResponse({ description: `Token lacks scope: ${scopes.join(', ')}.` }),
  );

/** The caller proven by the bearer token: tenant and client ids. */
export const CurrentClient = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedClient => {
    const request = context.switchToHttp().getRequest<ServiceRequest>();
    if (!request.user) throw new Error('CurrentClient used on a route without authentication');
    return request.user;
  },
);
