/**
 * The published document as OpenAPI 3.1 (issue 31 item 3). @nestjs/swagger writes OpenAPI 3.0
 * schemas; 3.1's schemas are JSON Schema 2020-12. What differs in what this service's document
 * uses, and how it is rewritten:
 *
 * - `nullable: true` is gone in 3.1: a typed schema's `type` becomes `[type, "null"]` (an enum
 *   already lists `null`, docs/decisions.md); a `$ref` or a composition becomes
 *   `anyOf: [<it>, {type: "null"}]` (a `$ref` keeps no siblings' meaning in 3.0, and `description`
 *   stays beside the `anyOf`);
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numbers they qualify;
 * - a file (`type: string, format: binary`) also says `contentMediaType: application/octet-stream`,
 *   the 3.1 spelling, keeping `format: binary`, which Swagger UI reads to offer a file chooser.
 *
 * Everything else (examples, `$ref`s to components, security, servers) is the same in both.
 */
import type { OpenAPIObject } from '@nestjs/swagger';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are schemas, or maps or lists of schemas, inside a schema. */
const SCHEMA_KEYS = ['items', 'additionalProperties', 'not'] as const;
const SCHEMA_LIST_KEYS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties'] as const;

function schema31(input: Json): Json {
  const schema: Json = { ...input };
  for (const key of SCHEMA_KEYS) if (isObject(schema[key])) schema[key] = schema31(schema[key] as Json);
  for (const key of SCHEMA_LIST_KEYS)
    if (Array.isArray(schema[key]))
      schema[key] = (schema[key] as unknown[]).map((s) => (isObject(s) ? schema31(s) : s));
  for (const key of SCHEMA_MAP_KEYS)
    if (isObject(schema[key]))
      schema[key] = Object.fromEntries(
        Object.entries(schema[key] as Json).map(([name, s]) => [name, isObject(s) ? schema31(s) : s]),
      );
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else if (schema[flag] === false) delete schema[flag];
  }
  if (schema.type === 'string' && schema.format === 'binary' && schema.contentMediaType === undefined)
    schema.contentMediaType = 'application/octet-stream';
  if (schema.nullable !== true) {
    delete schema.nullable;
    return schema;
  }
  delete schema.nullable;
  if (typeof schema.type === 'string') {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return schema;
  }
  if (Array.isArray(schema.type)) {
    if (!schema.type.includes('null')) schema.type = [...schema.type, 'null'];
    return schema;
  }
  // A $ref or a composition: the value, or null. Annotations stay outside.
  const {
    description,
    example,
    default: fallback,
    title,
    deprecated,
    readOnly,
    writeOnly,
    ...value
  } = schema;
  const annotations = Object.fromEntries(
    Object.entries({
      description,
      example,
      default: fallback,
      title,
      deprecated,
      readOnly,
      writeOnly,
    }).filter(([, v]) => v !== undefined),
  );
  return { ...annotations, anyOf: [value, { type: 'null' }] };
}

/** Every schema of a media-type map (request bodies, responses). */
function content31(content: unknown): void {
  if (!isObject(content)) return;
  for (const media of Object.values(content))
    if (isObject(media) && isObject(media.schema)) media.schema = schema31(media.schema);
}

function parameters31(parameters: unknown): void {
  if (!Array.isArray(parameters)) return;
  for (const parameter of parameters)
    if (isObject(parameter) && isObject(parameter.schema)) parameter.schema = schema31(parameter.schema);
}

function headers31(headers: unknown): void {
  if (!isObject(headers)) return;
  for (const header of Object.values(headers))
    if (isObject(header) && isObject(header.schema)) header.schema = schema31(header.schema);
}

/** The document rewritten in place as OpenAPI 3.1.0, and returned. */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const doc = document as unknown as Json;
  doc.openapi = '3.1.0';
  const components = isObject(doc.components) ? doc.components : {};
  if (isObject(components.schemas))
    components.schemas = Object.fromEntries(
      Object.entries(components.schemas).map(([name, s]) => [name, isObject(s) ? schema31(s) : s]),
    );
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    parameters31(item.parameters);
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue;
      parameters31(operation.parameters);
      if (isObject(operation.requestBody)) content31(operation.requestBody.content);
      if (isObject(operation.responses))
        for (const response of Object.values(operation.responses)) {
          if (!isObject(response)) continue;
          content31(response.content);
          headers31(response.headers);
        }
    }
  }
  return document;
}
