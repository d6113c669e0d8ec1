import type { OpenAPIObject } from '@nestjs/swagger';
import { toOpenApi31 } from './openapi-31.js';

describe('toOpenApi31', () => {
  const doc = (): OpenAPIObject =>
    ({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/x/{id}': {
          get: {
            parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', nullable: true } }],
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } },
                headers: {
                  'Retry-After': { schema: { type: 'integer', exclusiveMinimum: true, minimum: 0 } },
                },
              },
            },
          },
          post: {
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } },
                },
              },
            },
            responses: {},
          },
        },
      },
      components: {
        schemas: {
          A: {
            type: 'object',
            properties: {
              name: { type: 'string', nullable: true },
              grade: { type: 'string', enum: ['A', 'B'], nullable: true },
              child: { $ref: '#/components/schemas/B', nullable: true, description: 'The child, or null.' },
              list: { type: 'array', items: { type: 'number', nullable: true } },
              plain: { type: 'string', nullable: false },
            },
          },
          B: { type: 'object' },
        },
      },
    }) as unknown as OpenAPIObject;

  it('spells "or null" as 3.1 does, in components, parameters and nested schemas', () => {
    const out = toOpenApi31(doc()) as unknown as {
      openapi: string;
      components: { schemas: { A: { properties: Record<string, unknown> } } };
      paths: Record<string, Record<string, { parameters?: { schema: unknown }[] }>>;
    };
    expect(out.openapi).toBe('3.1.0');
    const { properties } = out.components.schemas.A;
    expect(properties.name).toEqual({ type: ['string', 'null'] });
    expect(properties.grade).toEqual({ type: ['string', 'null'], enum: ['A', 'B', null] });
    expect(properties.child).toEqual({
      description: 'The child, or null.',
      anyOf: [{ $ref: '#/components/schemas/B' }, { type: 'null' }],
    });
    expect(properties.list).toEqual({ type: 'array', items: { type: ['number', 'null'] } });
    expect(properties.plain).toEqual({ type: 'string' });
    expect(out.paths['/x/{id}']!.get!.parameters![0]!.schema).toEqual({ type: ['integer', 'null'] });
  });

  it('turns boolean exclusive bounds into numbers and says a file’s media type', () => {
    const out = toOpenApi31(doc()) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const header = (
      out.paths['/x/{id}']!.get!.responses as Record<string, { headers: Record<string, { schema: unknown }> }>
    )['200']!.headers['Retry-After']!.schema;
    expect(header).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    const form = (
      out.paths['/x/{id}']!.post!.requestBody as {
        content: Record<string, { schema: { properties: Record<string, unknown> } }>;
      }
    ).content['multipart/form-data']!.schema.properties.file;
    expect(form).toEqual({ type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' });
  });
});
