import SwaggerParser from '@apidevtools/swagger-parser';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

interface SchemaObject {
  description?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  $ref?: string;
  allOf?: SchemaObject[];
  items?: SchemaObject;
  required?: string[];
  properties?: Record<string, SchemaObject>;
}

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  schema?: SchemaObject;
}

interface OperationObject {
  tags?: string[];
  description?: string;
  parameters?: ParameterObject[];
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, OperationObject>>;
    components?: {
      securitySchemes?: Record<string, Record<string, unknown>>;
      schemas?: Record<string, SchemaObject>;
    };
  };

  beforeAll(async () => {
    t = await startSuite();
    const res = await t.http.get('/docs-json').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    doc = res.body;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3 document', async () => {
    expect(doc.openapi).toMatch(/^3\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });

  it('declares the bearer security scheme', () => {
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it.each(['/v1/api/token', '/oauth/token', '/api/status', '/.well-known/jwks.json'])(
    'documents %s',
    (path) => {
      expect(doc.paths).toHaveProperty([path]);
    },
  );

  it('describes every DTO: each property, or else the schema itself', () => {
    const schemas = Object.entries(doc.components?.schemas ?? {});
    expect(schemas.length).toBeGreaterThan(0);
    const undescribed: string[] = [];
    for (const [name, schema] of schemas) {
      if (schema.description) continue;
      for (const [property, definition] of Object.entries(schema.properties ?? {})) {
        if (!definition.description) undescribed.push(`${name}.${property}`);
      }
      if (!schema.properties || Object.keys(schema.properties).length === 0) undescribed.push(name);
    }
    expect(undescribed).toEqual([]);
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, operation })),
    );
  /** A schema with $refs and allOf merged into one object schema. */
  const resolve = (schema: SchemaObject | undefined): SchemaObject => {
    if (!schema) return {};
    if (schema.$ref) return resolve(doc.components?.schemas?.[schema.$ref.split('/').pop()!]);
    if (!schema.allOf) return schema;
    const parts = schema.allOf.map(resolve);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((part) => part.properties)),
      required: parts.flatMap((part) => part.required ?? []),
    };
  };
  const schemaOf = (name: string) => doc.components!.schemas![name]!;

  it('lets POST /v1/api/token be sent with the body alone: no header parameter is required', () => {
    const parameters = doc.paths['/v1/api/token'].post.parameters ?? [];
    expect(parameters.map((p) => [p.in, p.name, p.required ?? false])).toEqual([
      ['header', 'clientId', false],
      ['header', 'clientSecret', false],
    ]);
  });

  it('declares the OAuth2 client-credentials flow, so Authorize can fetch the token itself', () => {
    expect(doc.components?.securitySchemes?.oauth2).toEqual({
      type: 'oauth2',
      description: expect.any(String),
      flows: {
        clientCredentials: {
          tokenUrl: '/oauth/token',
          scopes: { partner: expect.any(String), admin: expect.any(String) },
        },
      },
    });
  });

  it('accepts the bearer token or the OAuth2 flow, with the scope it needs, on every secured operation', () => {
    const secured = operations().filter(({ operation }) => (operation.security ?? []).length > 0);
    expect(secured.length).toBeGreaterThan(25);
    for (const { key, path, operation } of secured) {
      const scope = path.startsWith('/admin/') ? 'admin' : 'partner';
      expect([key, operation.security]).toEqual([key, [{ bearer: [] }, { oauth2: [scope] }]]);
    }
  });

  it('describes each /v1/api success in the envelope {isError: false, message, result, statusCode}', () => {
    const enveloped = operations().filter(({ path }) => path.startsWith('/v1/api/'));
    // + the 9 webhook operations and the report snapshots' create, list and read (issue 18), the partner upload (issue 30)
    expect(enveloped).toHaveLength(10 + 9 + 3 + 1);
    for (const { key, operation } of enveloped) {
      const success = Object.entries(operation.responses).filter(([status]) => status.startsWith('2'));
      expect([key, success.length]).toEqual([key, 1]);
      // A 204 (DELETE /v1/api/accounts/{id}) has no body to wrap.
      if (success[0][0] === '204') {
        expect([key, success[0][1].content]).toEqual([key, undefined]);
        continue;
      }
      const schema = resolve(success[0][1].content?.['application/json']?.schema);
      expect([key, schema.required?.sort()]).toEqual([key, ['isError', 'message', 'result', 'statusCode']]);
      expect(schema.properties?.isError).toMatchObject({ type: 'boolean', enum: [false] });
      expect(schema.properties?.statusCode).toMatchObject({ type: 'integer' });
      expect(resolve(schema.properties?.result).properties).toBeDefined();
    }
    const token = resolve(
      resolve(doc.paths['/v1/api/token'].post.responses['200'].content!['application/json'].schema)
        .properties!.result,
    );
    expect(token.required).toEqual(expect.arrayContaining(['accessToken', 'expiresIn', 'tokenType']));
  });

  it('describes the error body of every operation: envelope under /v1/api, problem+json elsewhere', () => {
    const problem = resolve({ $ref: '#/components/schemas/ProblemDetails' });
    expect(problem.required?.sort()).toEqual(['instance', 'status', 'title', 'traceId', 'type']);
    expect(problem.properties?.detail).toMatchObject({ type: 'string' });
    expect(problem.properties?.status).toMatchObject({ type: 'integer' });
    const errorEnvelope = resolve({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(errorEnvelope.properties?.isError).toMatchObject({ enum: [true] });
    // OpenAPI 3.1: "or null" is a type of its own (`type: [..., "null"]` or an `anyOf` with it).
    const result = errorEnvelope.properties?.result as { type?: unknown; anyOf?: { type?: unknown }[] };
    expect(
      (Array.isArray(result.type) && result.type.includes('null')) ||
        (result.anyOf ?? []).some((s) => s.type === 'null'),
    ).toBe(true);
    for (const { key, path, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      const expected = ['400', '500', '503'];
      if ((operation.security ?? []).length) expected.push('401', '403', '429');
      if (operation.requestBody) expected.push('413');
      expect([key, statuses]).toEqual([key, expect.arrayContaining(expected)]);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const media =
          path === '/oauth/token'
            ? 'application/json'
            : path.startsWith('/v1/api/')
              ? 'application/json'
              : 'application/problem+json';
        const ref = response.content?.[media]?.schema?.$ref;
        const name =
          path === '/oauth/token'
            ? 'OAuthError'
            : path.startsWith('/v1/api/')
              ? 'ErrorEnvelope'
              : 'ProblemDetails';
        expect([key, status, ref]).toEqual([key, status, `#/components/schemas/${name}`]);
        // Each status its own example (issue 31: every one showed the token's 400), in the body's shape.
        const example = (response.content?.[media] as { example?: Record<string, unknown> } | undefined)
          ?.example;
        if (path === '/oauth/token') {
          if (example) expect([key, status, typeof example.error]).toEqual([key, status, 'string']);
          continue;
        }
        const problem = (
          path.startsWith('/v1/api/')
            ? (example?.responseException as { exceptionMessage: Record<string, unknown> }).exceptionMessage
            : example
        ) as Record<string, unknown>;
        expect([key, status, problem.status, problem.instance]).toEqual([key, status, Number(status), path]);
        if (path.startsWith('/v1/api/')) expect([key, example!.statusCode]).toEqual([key, Number(status)]);
        expect([key, status, 'errors' in problem]).toEqual([key, status, status === '400']);
      }
    }
  });

  it('describes every tag, partner tags before admin tags, and every operation', () => {
    const used = new Set(operations().flatMap(({ operation }) => operation.tags ?? []));
    const tags = (doc as unknown as { tags: { name: string; description: string }[] }).tags;
    expect(new Set(tags.map((tag) => tag.name))).toEqual(used);
    for (const tag of tags) expect([tag.name, tag.description.length > 20]).toEqual([tag.name, true]);
    const firstAdmin = tags.findIndex((tag) => tag.name.startsWith('Admin'));
    expect(tags.slice(firstAdmin).every((tag) => tag.name.startsWith('Admin'))).toBe(true);
    expect(tags[0]!.name).toBe('Auth');
    for (const { key, operation } of operations())
      expect([key, (operation.description ?? '').length > 20]).toEqual([key, true]);
  });

  it.each(['/admin/accounts/{accountId}/import', '/v1/api/accounts/{accountId}/import'])(
    'gives each media type of a request body its own schema: the import form of %s has a file field (a file chooser in Swagger UI)',
    (path) => {
      const body = doc.paths[path]!.post!.requestBody as unknown as {
        content: Record<string, { schema: SchemaObject }>;
      };
      expect(Object.keys(body.content)).toEqual(['text/csv', 'multipart/form-data']);
      expect(body.content['text/csv']!.schema).toMatchObject({ type: 'string' });
      expect(body.content['multipart/form-data']!.schema).toMatchObject({
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary' }, format: { type: 'string' } },
      });
      expect(JSON.stringify(doc)).not.toContain('x-body-by-media-type');
    },
  );

  it('says format uuid on id parameters and integer on counts and limits', () => {
    const ids = operations().flatMap(({ key, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => /^(id|accountId|collectionId|account_id)$/.test(p.name))
        // A list of ids (account_id=a,b: style form, not exploded) says it of its items.
        .map((p) => [key, p.name, p.schema?.format ?? p.schema?.items?.format]),
    );
    expect(ids.length).toBeGreaterThanOrEqual(14);
    for (const [key, name, format] of ids) expect([key, name, format]).toEqual([key, name, 'uuid']);
    const integers = operations().flatMap(({ key, operation }) =>
      (operation.parameters ?? [])
        .filter((p) => ['limit', 'horizon_years', 'tax_year'].includes(p.name))
        .map((p) => [key, p.name, p.schema?.type]),
    );
    // 7 + limit of the admin support read of transactions + tax_year and limit of the 1099-DA
    // reconciliation + limit of webhook deliveries, of /admin/audit, of /v1/api/report-snapshots, of
    // /admin/queues/{name}/jobs, of /taip/lots, of /taip/harvesting-candidates and of GET and POST
    // /taip/safe-harbor-allocation (issue 27 item 10) + tax_year and horizon_years of
    // /taip/client-statement (issue 31 item 5)
    expect(integers.length).toBe(20);
    for (const [key, name, type] of integers) expect([key, name, type]).toEqual([key, name, 'integer']);
    for (const [schema, property] of [
      ['TokenResultDto', 'expiresIn'],
      ['OAuthTokenResponseDto', 'expires_in'],
      ['StatusDto', 'uptimeSeconds'],
      ['StatusDto', 'rateLimitRemaining'],
      ['MarketDataRecordDto', 'id'],
      ['MarketDataRecordDto', 'marketCapRank'],
      ['BalancesResultDto', 'cacheAgeSeconds'],
      ['ChecksumResultDto', 'rowCount'],
      ['ImportResultDto', 'rows'],
      ['RefreshResultDto', 'inserted'],
      ['GainsReportDto', 'transactions'],
      ['GainsReportDto', 'tax_year'],
      ['PortfolioSummaryDto', 'accounts'],
      ['SimulateRequestDto', 'horizon_years'],
      ['RoiProjectionDto', 'horizon_years'],
      ['AuditEntryDto', 'sequence'],
      ['AuditVerificationDto', 'entries'],
      ['ReportSnapshotSummaryDto', 'dataRowCount'],
    ]) {
      // A nullable count is `["integer", "null"]` in OpenAPI 3.1: its value type is still integer.
      const type = schemaOf(schema).properties?.[property]?.type;
      const valueType = Array.isArray(type) ? type.filter((t) => t !== 'null') : [type];
      expect([schema, property, valueType]).toEqual([schema, property, ['integer']]);
    }
  });

  it('lists the allowed values of sources, states, directions, grades and risk levels', () => {
    const enumOf = (schema: string, property: string) => {
      const definition = schemaOf(schema).properties![property];
      return definition.enum ?? definition.items?.enum;
    };
    expect(enumOf('CreateAccountDto', 'source')).toEqual([
      'sandbox',
      'csv',
      'bitcoin',
      'ethereum',
      'solana',
      'exchange',
    ]);
    expect(enumOf('AdminAccountDto', 'source')).toEqual([
      'sandbox',
      'csv',
      'bitcoin',
      'ethereum',
      'solana',
      'exchange',
    ]);
    expect(enumOf('AdminAccountDto', 'syncStatus')).toEqual([
      'syncing',
      'synced',
      'reconnect_required',
      'error',
    ]);
    expect(enumOf('AccountCollectionDto', 'connectionStatus')).toEqual(['connected', 'disconnected']);
    expect(enumOf('BalancesResultDto', 'balanceSource')).toEqual(['source_reported', 'calculated']);
    expect(enumOf('TransactionDto', 'direction')).toEqual(
      expect.arrayContaining(['buy', 'sell', 'transfer_in', 'transfer_out', 'income', 'fee']),
    );
    expect(enumOf('EvaluateResultDto', 'grade')).toEqual(['A', 'B', 'C', 'D', 'F']);
    expect(enumOf('EvaluateResultDto', 'risk_level')).toEqual(['low', 'moderate', 'high', 'very_high']);
    expect(enumOf('MarketDataRecordDto', 'source')).toEqual(['sandbox', 'coingecko']);
    expect(enumOf('PortfolioSummaryDto', 'sync_status')).toEqual([
      'syncing',
      'synced',
      'reconnect_required',
      'error',
    ]);
    expect(enumOf('RefreshResultDto', 'status')).toEqual(['refreshed', 'pending', 'failed', 'busy']);
  });

  it('serves the Swagger UI at /docs', async () => {
    const res = await t.http.get('/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });
});
