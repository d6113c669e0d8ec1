/**
 * Live responses checked against the served OpenAPI document (issue #13 item 2), for
 * test/e2e/contract/openapi-responses.cases.ts and the 429 answers of
 * test/e2e/limits/openapi-429.cases.ts: openapi-backend's response validator (ajv) on a copy of
 * the document, and a recorder of which operations answered what.
 *
 * Two adjustments to the copy, for the validator only: openapi-backend validates
 * `application/json` bodies alone, so `application/problem+json` is given to it under that name;
 * and named object schemas get `additionalProperties: false`, so a field the service sends but the
 * document does not describe fails too (the document itself leaves them open, as is customary).
 */
import { OpenAPIBackend, type Document } from 'openapi-backend';
import type { Response, Test } from 'supertest';

export type Json = Record<string, unknown>;
export interface OperationObject {
  operationId: string;
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown>; headers?: Json }>;
}
export type Doc = {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Json> };
};

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The copy the validator sees: problem+json as JSON, named object schemas closed. */
export function forValidation(served: Doc): Doc {
  const doc = structuredClone(served);
  const inAllOf = new Set<string>();
  JSON.stringify(doc, (key, value: unknown) => {
    if (key === 'allOf' && Array.isArray(value))
      for (const part of value as Json[]) if (typeof part.$ref === 'string') inAllOf.add(part.$ref);
    return value;
  });
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (
      schema.properties &&
      schema.additionalProperties === undefined &&
      !inAllOf.has(`#/components/schemas/${name}`)
    )
      schema.additionalProperties = false;
  }
  for (const item of Object.values(doc.paths))
    for (const operation of Object.values(item))
      for (const response of Object.values(operation.responses ?? {})) {
        const content = response.content;
        if (content?.['application/problem+json'] && !content['application/json'])
          content['application/json'] = content['application/problem+json'];
      }
  return doc;
}

/**
 * The response validator over `forValidation(served)`. A 3.0 copy is first checked to be valid
 * OpenAPI (3.1 is linted by Redocly); each operation's validator is compiled when a response of it is first validated
 * (openapi-backend's `quick`), not all ~80 operations' request, response and header validators at
 * once (3.5–5 s on this machine for a suite that validates responses only).
 */
export async function responseValidator(served: Doc): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: forValidation(served) as unknown as Document,
    quick: true,
    // ajv ignores formats it does not know; these are the ones the document uses.
    customizeAjv: (ajv) => {
      ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
      ajv.addFormat(
        'date-time',
        (text: string) =>
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text) &&
          !Number.isNaN(Date.parse(text)),
      );
      ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
      return ajv;
    },
  });
  await api.loadDocument();
  // The document is OpenAPI 3.1 (issue 31), which openapi-backend's definition check (an OpenAPI
  // 3.0 meta-schema) does not know; Redocly lints the document in CI (`npm run openapi:lint`,
  // part of `npm run lint`). Its schemas are JSON Schema, which ajv validates responses against.
  if (!String(api.document.openapi).startsWith('3.1.')) api.validateDefinition();
  await api.init();
  return api;
}

/** Sends requests, validates each answer against its operation's documentation, records coverage. */
export class DocumentedCalls {
  /** Per operation (`GET /path`), the statuses of its successes and errors. */
  readonly outcomes = new Map<string, { success: number[]; error: number[] }>();
  /** What did not match the document, since the last `problems.length = 0`. */
  readonly problems: string[] = [];

  constructor(
    readonly served: Doc,
    private readonly api: OpenAPIBackend,
  ) {}

  operation(key: string): OperationObject {
    const [method, path] = key.split(' ');
    const found = this.served.paths[path]?.[method.toLowerCase()];
    if (!found) throw new Error(`${key} is not in the document`);
    return found;
  }

  /** Sends the request, validates the answer against `key`'s documentation, records coverage. */
  readonly call = async (key: string, request: Test): Promise<Response> => {
    const res = await request;
    const op = this.operation(key);
    const status = String(res.status);
    const entry = this.outcomes.get(key) ?? { success: [], error: [] };
    this.outcomes.set(key, entry);
    (res.status < 400 ? entry.success : entry.error).push(res.status);
    const documented = op.responses[status];
    if (!documented) {
      this.problems.push(`${key}: status ${status} is not documented (${JSON.stringify(res.body)})`);
      return res;
    }
    const media = String(res.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    if (!documented.content) {
      if (res.text) this.problems.push(`${key} ${status}: a body (${media}) where the document says none`);
      return res;
    }
    if (!documented.content[media]) {
      this.problems.push(`${key} ${status}: media type ${media || '(none)'} is not documented`);
      return res;
    }
    if (media === 'text/csv' || media === 'text/plain' || media === 'application/x-ndjson') return res;
    // A binary answer (a PDF) is a documented media type with a `format: binary` string: its bytes
    // are checked by the tests of that document (test/pdf), not by a JSON schema.
    if (media === 'application/pdf') {
      const schema = (documented.content[media] as { schema?: { format?: string } }).schema;
      if (schema?.format !== 'binary')
        this.problems.push(`${key} ${status}: ${media} is not documented as a binary string`);
      return res;
    }
    const result = this.api.validator.validateResponse(res.body, op.operationId, res.status);
    if (!result.valid)
      this.problems.push(
        `${key} ${status}: ${JSON.stringify(result.errors)}\n  body: ${res.text.slice(0, 600)}`,
      );
    return res;
  };
}
