import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestApp, type TestApp } from './support/test-app.js';

interface SchemaObject {
  description?: string;
  properties?: Record<string, { description?: string; $ref?: string; allOf?: unknown[] }>;
}

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, unknown>;
    components?: {
      securitySchemes?: Record<string, Record<string, unknown>>;
      schemas?: Record<string, SchemaObject>;
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
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

  it('serves the Swagger UI at /docs', async () => {
    const res = await t.http.get('/docs').redirects(1).expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/swagger-ui/i);
  });
});
