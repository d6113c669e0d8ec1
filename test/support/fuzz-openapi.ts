/**
 * Request generators for the OpenAPI-driven fuzz test (test/e2e/contract/fuzz.cases.ts): every operation of
 * the served document becomes a fast-check arbitrary of whole requests (path, query, headers,
 * body), mixing values that fit the schema, sandbox ids that exist, and junk.
 */
import fc from 'fast-check';

export interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  example?: unknown;
  default?: unknown;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  $ref?: string;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
}

interface RawParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}

interface RawOperation {
  operationId?: string;
  parameters?: RawParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  security?: unknown[];
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  parameters: Parameter[];
  body?: { required: boolean; contentType: string; schema: Schema };
  secured: boolean;
}

/** Real values of the sandbox, fetched before the run. */
export interface Pools {
  accountIds: string[];
  collectionIds: string[];
  identities: string[];
  portfolioIds: string[];
  /** Ids of the other sandbox tenant: must answer exactly like ids of nobody (404). */
  foreignIds: string[];
  coingeckoIds: string[];
  symbols: string[];
  /** Paging cursors seen in responses (harvested as the run goes). */
  cursors: string[];
}

/** A generated request; fast-check prints it as the counterexample. */
export interface RequestSpec {
  method: Operation['method'];
  /** The documented path template, for reading failures. */
  template: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  auth: 'token' | 'none' | 'garbage';
  body?: { contentType?: string; text: string; kind: 'json' | 'malformed-json' | 'form' | 'text' };
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Resolves $ref and flattens allOf, so generators see plain schemas. */
export function resolveSchema(doc: OpenApiDoc, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 8) return {};
  // OpenAPI 3.1's "or null" (`type: [T, "null"]`, `anyOf: [X, {type: "null"}]`) read as 3.0's
  // `nullable`, the one spelling the generators below know.
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return resolveSchema(
      doc,
      { ...schema, type: types[0], nullable: types.length < schema.type.length },
      depth,
    );
  }
  if (schema.anyOf?.length === 2 && schema.anyOf.some((s) => s.type === 'null')) {
    const { anyOf, ...rest } = schema;
    const value = anyOf.find((s) => s.type !== 'null')!;
    return { ...resolveSchema(doc, value, depth + 1), ...rest, nullable: true };
  }
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(doc, doc.components?.schemas?.[name], depth + 1);
  }
  if (schema.allOf?.length) {
    const merged: Schema = { ...schema, allOf: undefined };
    for (const part of schema.allOf) {
      const resolved = resolveSchema(doc, part, depth + 1);
      Object.assign(merged, resolved, {
        properties: { ...merged.properties, ...resolved.properties },
        required: [...(merged.required ?? []), ...(resolved.required ?? [])],
      });
    }
    return merged;
  }
  const resolved: Schema = { ...schema };
  if (schema.items) resolved.items = resolveSchema(doc, schema.items, depth + 1);
  if (schema.properties) {
    resolved.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, resolveSchema(doc, value, depth + 1)]),
    );
  }
  if (typeof schema.additionalProperties === 'object') {
    resolved.additionalProperties = resolveSchema(doc, schema.additionalProperties, depth + 1);
  }
  if (schema.oneOf) resolved.oneOf = schema.oneOf.map((s) => resolveSchema(doc, s, depth + 1));
  if (schema.anyOf) resolved.anyOf = schema.anyOf.map((s) => resolveSchema(doc, s, depth + 1));
  return resolved;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const parameters = (raw.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: !!p.required,
        schema: resolveSchema(doc, {
          ...(p.example !== undefined ? { example: p.example } : {}),
          ...p.schema,
        }),
      }));
      const content = Object.entries(raw.requestBody?.content ?? {})[0];
      operations.push({
        method: method as Operation['method'],
        path,
        parameters,
        body: content
          ? {
              required: !!raw.requestBody?.required,
              contentType: content[0],
              schema: resolveSchema(doc, content[1].schema),
            }
          : undefined,
        secured: (raw.security ?? []).length > 0,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Values
//
// Every generator takes `valid`: a request is built either in valid mode (values that fit the
// schema: examples, enums, in-range numbers, real ids; no extras) so it reaches the handlers, or
// in fuzz mode (schema-typed values mixed with wrong types, junk, extras, malformed bodies).

const weighted = <T>(...entries: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> =>
  fc.oneof(...entries.filter(([weight]) => weight > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

const ODD_STRINGS = [
  '',
  ' ',
  '  \t ',
  '.',
  '..',
  '../',
  '../../etc/passwd',
  '..%2f..%2f',
  '%',
  '%00',
  '%zz',
  '%%',
  '\u0000',
  'a\u0000b',
  'BTC\u0000',
  '\u0001\u001f\u007f',
  '\r\n',
  '\ufeff',
  '\u202e',
  '\ud800',
  'null',
  'undefined',
  'true',
  'NaN',
  '-Infinity',
  '0x1f',
  '1e309',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  "' OR '1'='1",
  '"; DROP TABLE account; --',
  '<script>alert(1)</script>',
  '${7*7}',
  '😀🏳️‍🌈𝕏',
  'ǅ\u0301\u0301\u0301',
];

/** Strings that fit no schema: unicode, traversal, percent signs, very long, empty-ish. */
export const junkString: fc.Arbitrary<string> = weighted<string>(
  [7, fc.constantFrom(...ODD_STRINGS)],
  [3, fc.string({ unit: 'grapheme', maxLength: 24 })],
  [2, fc.string({ maxLength: 40 })],
  [1, fc.string({ unit: 'binary', maxLength: 16 })],
  [1, fc.string({ unit: 'grapheme-ascii', minLength: 250, maxLength: 2000 })],
  [1, fc.uuid().map((u) => u.toUpperCase())],
  [1, fc.uuid().map((u) => `${u}x`)],
);

/** JSON values of any type, including nested junk. */
export const junkValue: fc.Arbitrary<unknown> = weighted<unknown>(
  [3, fc.constant(null)],
  [2, fc.boolean()],
  [2, fc.integer()],
  [
    2,
    fc.constantFrom(
      -1,
      0,
      -0,
      0.5,
      1e308,
      -1e308,
      2 ** 53 + 1,
      -(2 ** 63),
      5e-324,
      Number.MAX_SAFE_INTEGER,
      1e21,
    ),
  ],
  [1, fc.double({ noNaN: true, noDefaultInfinity: true })],
  [3, junkString],
  [2, fc.array(fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxLength: 4 })],
  [2, fc.jsonValue({ maxDepth: 3 })],
  // Own "__proto__" / "constructor" keys, as JSON.parse makes them.
  [1, fc.constant(JSON.parse('{"__proto__":{"polluted":true}}') as unknown)],
  [1, fc.constant(JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown)],
);

const isoDate = (min: string, max: string) =>
  fc
    .date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

/** Calendar dates: valid ones, and ones that look like dates but are not. */
function dateString(valid: boolean): fc.Arbitrary<string> {
  return weighted<string>(
    [5, isoDate('2016-01-01', '2027-12-31')],
    [valid ? 0 : 2, isoDate('1900-01-01', '2200-12-31')],
    [
      valid ? 0 : 3,
      fc.constantFrom(
        '2024-02-29',
        '2023-02-29',
        '2024-02-30',
        '2024-13-01',
        '2024-00-10',
        '2024-04-31',
        '2024-1-1',
        '20240101',
        '2024/01/01',
        '01/02/2024',
        '0000-01-01',
        '9999-12-31',
        '+275760-09-13',
        '-000001-01-01',
        '2024-01-01T00:00:00Z',
        '2024-01-01T00:00:00+25:00',
        '2024-01-01T25:61:61Z',
        '2024-06-30T12:00:00.123456789-07:00',
        '2024-01-01T00:00:00',
        'today',
        '1e10',
      ),
    ],
    [valid ? 0 : 1, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())],
    [valid ? 0 : 1, junkString],
  );
}

/** The real values that fit a parameter, chosen by its name. */
export function poolFor(name: string, pools: Pools): string[] {
  const n = name.toLowerCase();
  if (n.includes('collection')) return pools.collectionIds;
  if (n.includes('identity')) return pools.identities;
  if (n.includes('account')) return pools.accountIds;
  if (n.includes('symbol') || n === 'asset') return pools.symbols;
  if (n.includes('coingecko')) return pools.coingeckoIds;
  return [...pools.portfolioIds, ...pools.accountIds];
}

const isDateLike = (name: string, schema: Schema): boolean =>
  schema.format === 'date' ||
  schema.format === 'date-time' ||
  /(^|_)(from|to)$|date/i.test(name) ||
  (typeof schema.example === 'string' && /^\d{4}-\d{2}-\d{2}/.test(schema.example));

/** Strings that fit the schema (in fuzz mode: nearly, bounds ± 1, other tenants' ids). */
function stringFor(name: string, schema: Schema, pools: Pools, valid: boolean): fc.Arbitrary<string> {
  const choices: [number, fc.Arbitrary<string>][] = [];
  const pool = poolFor(name, pools);
  if (/cursor/i.test(name)) {
    // Real cursors (possibly of another listing or account), flipped ones, random base64url.
    if (pools.cursors.length) {
      const real = fc.constantFrom(...pools.cursors);
      choices.push([valid ? 8 : 3, real]);
      if (!valid) {
        choices.push([
          2,
          fc
            .tuple(real, fc.nat(), fc.constantFrom('A', '_', '-', '='))
            .map(([c, i, ch]) => c.slice(0, i % c.length) + ch + c.slice((i % c.length) + 1)),
        ]);
      }
    }
    choices.push([1, fc.base64String({ maxLength: 40 }).map((b) => b.replace(/[+/=]/g, '_'))]);
  } else if (schema.enum?.length) {
    const values = schema.enum.map(String);
    choices.push([8, fc.constantFrom(...values)]);
    if (!valid) choices.push([1, fc.constantFrom(...values).map((v) => v.toUpperCase())]);
  } else if (schema.pattern) {
    try {
      choices.push([valid ? 2 : 6, fc.stringMatching(new RegExp(schema.pattern))]);
    } catch {
      // An unsupported pattern: the other generators still apply.
    }
  } else if (schema.format === 'uuid' || /id$/i.test(name)) {
    if (pool.length) choices.push([5, fc.constantFrom(...pool)]);
    if (pools.foreignIds.length) choices.push([1, fc.constantFrom(...pools.foreignIds)]);
    choices.push([valid ? 1 : 2, fc.uuid()]);
  } else if (isDateLike(name, schema)) {
    choices.push([8, dateString(valid)]);
  } else if (pool.length && /identity|symbol|asset|collection|account|id$/i.test(name)) {
    choices.push([4, fc.constantFrom(...pool)]);
  }
  if (schema.example !== undefined && typeof schema.example !== 'object') {
    choices.push([valid ? 6 : 3, fc.constant(String(schema.example))]);
  }
  if (schema.maxLength !== undefined && !valid) {
    choices.push([
      1,
      fc.string({ unit: 'grapheme-ascii', minLength: schema.maxLength, maxLength: schema.maxLength + 1 }),
    ]);
  }
  const maxLength = Math.max(1, Math.min(schema.maxLength ?? 20, 20));
  choices.push([2, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength })]);
  return weighted(...choices);
}

function numberFor(schema: Schema, integer: boolean, valid: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (valid ? 0 : -1_000_000);
  const max = schema.maximum ?? (valid ? Math.max(min + 1, 100_000) : 1_000_000);
  const inRange =
    integer || valid
      ? weighted<number>(
          [5, fc.integer({ min: Math.ceil(min), max: Math.floor(max) })],
          [integer ? 0 : 1, fc.double({ min, max, noNaN: true })],
        )
      : fc.double({ min, max, noNaN: true });
  const edges = valid
    ? [min, max, ...(max >= 1 && min <= 1 ? [1] : [])]
    : [schema.minimum, schema.maximum, (schema.minimum ?? 0) - 1, (schema.maximum ?? 0) + 1].filter(
        (v): v is number => v !== undefined,
      );
  return weighted<number>(
    [valid && typeof schema.example === 'number' ? 4 : 0, fc.constant(schema.example as number)],
    [5, inRange],
    [2, edges.length ? fc.constantFrom(...edges) : fc.integer({ min: -2, max: 2 })],
    [valid ? 0 : 1, fc.integer({ min: -1000, max: 1000 })],
    [valid ? 0 : 1, fc.constantFrom(0, -1, 0.5, 1e308, -1e308, 2 ** 53, 1e-7)],
  );
}

/** A JSON value for the schema; in fuzz mode, with junk mixed in at every level. */
export function jsonFor(
  name: string,
  schema: Schema,
  pools: Pools,
  valid: boolean,
  depth = 0,
): fc.Arbitrary<unknown> {
  return valid
    ? validJsonFor(name, schema, pools, valid, depth)
    : weighted<unknown>([4, validJsonFor(name, schema, pools, valid, depth)], [1, junkValue]);
}

function validJsonFor(
  name: string,
  schema: Schema,
  pools: Pools,
  valid: boolean,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.oneOf?.length || schema.anyOf?.length) {
    const options = (schema.oneOf ?? schema.anyOf)!;
    return fc.oneof(...options.map((o) => validJsonFor(name, o, pools, valid, depth)));
  }
  if (depth > 4) return valid ? fc.constant(null) : junkValue;
  const typed = (): fc.Arbitrary<unknown> => {
    if (schema.enum?.length && schema.type !== 'array') return stringFor(name, schema, pools, valid);
    switch (schema.type) {
      case 'string':
        return stringFor(name, schema, pools, valid);
      case 'integer':
        return numberFor(schema, true, valid);
      case 'number':
        return numberFor(schema, false, valid);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(jsonFor(name, schema.items ?? {}, pools, valid, depth + 1), {
          minLength: valid ? 1 : 0,
          maxLength: valid ? 3 : 5,
        });
      default:
        if (schema.properties) return objectFor(schema, pools, valid, depth + 1);
        if (typeof schema.additionalProperties === 'object') {
          const keys = weighted<string>(
            [4, pools.symbols.length ? fc.constantFrom(...pools.symbols) : fc.constant('BTC')],
            [
              valid ? 0 : 1,
              fc.constantFrom('btc', 'Eth', '', ' ', '__proto__', 'constructor', 'X'.repeat(300)),
            ],
            [valid ? 0 : 1, fc.string({ maxLength: 12 })],
          );
          return fc.dictionary(keys, jsonFor(name, schema.additionalProperties, pools, valid, depth + 1), {
            minKeys: valid ? 1 : 0,
            maxKeys: valid ? 3 : 6,
          });
        }
        return valid ? fc.constant({}) : junkValue;
    }
  };
  // The documented example (allocations {"BTC":50,…}, scenarios [bull, base, bear]) is often the
  // only value that passes cross-field rules the schema cannot express.
  const documented = schema.example !== undefined ? (valid ? 3 : 1) : 0;
  return weighted<unknown>([documented, fc.constant(schema.example)], [6, typed()]);
}

const EXTRA_KEYS = ['extra', 'id', 'tenantId', 'isAdmin', '__proto__', 'constructor', 'prototype', ''];

/** An object from the schema's properties; fuzz mode drops required ones, adds junk and extras. */
export function objectFor(
  schema: Schema,
  pools: Pools,
  valid: boolean,
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  // Valid mode, sometimes: every property that has an example gets it (the documented request;
  // e.g. allocations 50/30/20 pass the sum-to-100 rule no schema expresses), the rest as usual.
  const documented = fc.integer({ min: 0, max: 2 }).map((roll) => valid && roll === 0);
  const fields = properties.map(([key, propSchema]) =>
    fc
      .tuple(
        fc.integer({ min: 0, max: 99 }),
        valid
          ? validJsonFor(key, propSchema, pools, valid, depth)
          : weighted<unknown>([4, validJsonFor(key, propSchema, pools, valid, depth)], [1, junkValue]),
      )
      .map(
        ([roll, value]) =>
          (useExample: boolean): [string, unknown] | undefined =>
            useExample && propSchema.example !== undefined
              ? [key, propSchema.example]
              : (required.has(key) ? valid || roll < 90 : roll < 50)
                ? [key, value]
                : undefined,
      ),
  );
  const extras = valid
    ? fc.constant([])
    : weighted<[string, unknown][]>(
        [8, fc.constant([])],
        [
          2,
          fc.array(
            fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 12 })), junkValue),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        ],
      );
  return fc.tuple(fc.tuple(...fields), extras, documented).map(([fieldsOf, extra, useExample]) => {
    const object: Record<string, unknown> = {};
    const present = fieldsOf.map((field) => field(useExample)).filter((e) => e !== undefined);
    for (const [key, value] of [...present, ...extra]) {
      // defineProperty: a "__proto__" key becomes an own property, as JSON.parse would make it.
      Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return object;
  });
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** A path segment: mostly percent-encoded; ASCII junk sometimes sent raw (`../`, `%`). */
function pathValue(parameter: Parameter, pools: Pools, valid: boolean): fc.Arbitrary<string> {
  const pool = poolFor(parameter.name, pools);
  const schema = parameter.schema;
  let plain: fc.Arbitrary<string>;
  if (schema.type === 'array') {
    // Comma-separated lists (style: simple), e.g. CoinGecko ids.
    const itemPool = pools.coingeckoIds.length ? pools.coingeckoIds : pool;
    const item = weighted<string>(
      [6, itemPool.length ? fc.constantFrom(...itemPool) : fc.constant('x')],
      [valid ? 1 : 0, fc.stringMatching(/^[a-z0-9-]{1,12}$/)],
      [valid ? 0 : 1, fc.constantFrom('', ' ', 'BTC', 'a--b', '-', 'x'.repeat(101))],
      [valid ? 0 : 1, junkString],
    );
    plain = weighted<string>(
      [8, fc.array(item, { minLength: 1, maxLength: 5 }).map((items) => items.join(','))],
      [1, fc.array(item, { minLength: 49, maxLength: 60 }).map((items) => items.join(','))],
      [valid ? 0 : 2, junkString],
    );
  } else {
    plain = weighted<string>(
      [5, pool.length ? fc.constantFrom(...pool) : stringFor(parameter.name, schema, pools, valid)],
      [1, pools.foreignIds.length ? fc.constantFrom(...pools.foreignIds) : fc.uuid()],
      [valid ? 1 : 2, fc.uuid()],
      [valid ? 0 : 4, junkString],
    );
  }
  return fc
    .tuple(plain, fc.integer({ min: 0, max: 9 }))
    .map(([value, roll]) =>
      !valid && roll === 0 && /^[\x21-\x7e]*$/.test(value) && !/[?#]/.test(value) ? value : encode(value),
    );
}

const NUMERIC_JUNK = [
  '',
  ' ',
  'abc',
  '1.5',
  '-0',
  '+1',
  '1e3',
  '0x10',
  'Infinity',
  'NaN',
  '9'.repeat(30),
  '-9999999999',
  '00001',
  '1,2',
];

/** Query values as strings, typed by the schema: integers incl. huge/negative/non-numeric, odd booleans… */
function queryValue(parameter: Parameter, pools: Pools, valid: boolean): fc.Arbitrary<string> {
  const schema = parameter.schema;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return weighted<string>(
        [valid && schema.example !== undefined ? 3 : 0, fc.constant(String(schema.example))],
        [5, numberFor(schema, true, valid).map(String)],
        [valid ? 0 : 1, numberFor(schema, false, valid).map(String)],
        [valid ? 0 : 2, fc.constantFrom(...NUMERIC_JUNK)],
        [valid ? 0 : 1, junkString],
      );
    case 'boolean':
      // forceRefresh=true may legitimately refresh from the source: generate it rarely.
      return weighted<string>(
        [1, fc.constantFrom('true', '1')],
        [12, fc.constantFrom('false', '0')],
        [
          valid ? 0 : 12,
          fc.constantFrom('TRUE', 'False', 'yes', 'no', 'on', '', 'null', '2', '-1', 't', 'true '),
        ],
        [valid ? 0 : 3, junkString],
      );
    case 'array':
      return fc
        .array(stringFor(parameter.name, schema.items ?? {}, pools, valid), { minLength: 1, maxLength: 3 })
        .map((a) => a.join(','));
    default:
      return weighted<string>(
        [6, stringFor(parameter.name, schema, pools, valid)],
        [valid ? 0 : 2, junkString],
      );
  }
}

const EXTRA_QUERY_KEYS = [
  'foo',
  'page',
  'offset',
  'sort',
  'tenant',
  'tenantId',
  '__proto__',
  'constructor',
  'limit[]',
  'a[b]',
  'forceRefresh[]',
];

/** encodeURIComponent, with lone surrogates (which it cannot encode) replaced by U+FFFD. */
const encode = (value: string): string =>
  encodeURIComponent(
    value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

const encodePair = (key: string, value: string): string => `${encode(key)}=${encode(value)}`;

function queryFor(operation: Operation, pools: Pools, valid: boolean): fc.Arbitrary<string> {
  const parameters = operation.parameters.filter((p) => p.in === 'query');
  const fields = parameters.map((p) =>
    fc
      .tuple(fc.integer({ min: 0, max: 99 }), queryValue(p, pools, valid), fc.integer({ min: 0, max: 19 }))
      .map(([roll, value, repeat]): string[] => {
        if (!(p.required ? valid || roll < 92 : roll < 50)) return [];
        const pair = encodePair(p.name, value);
        // Sometimes the parameter twice (an array in Express's parser).
        return !valid && repeat === 0 ? [pair, encodePair(p.name, value === '1' ? '2' : '1')] : [pair];
      }),
  );
  const extras = valid
    ? fc.constant([])
    : weighted<string[]>(
        [12, fc.constant([])],
        [
          2,
          fc
            .array(
              fc.tuple(
                fc.oneof(fc.constantFrom(...EXTRA_QUERY_KEYS), fc.string({ maxLength: 10 })),
                junkString,
              ),
              {
                minLength: 1,
                maxLength: 2,
              },
            )
            .map((pairs) => pairs.map(([k, v]) => encodePair(k, v))),
        ],
        [1, fc.constantFrom(['%'], ['a=%zz'], ['=&&='], ['limit'], ['&'], ['%E0%A4%A'], [';;'])],
      );
  return fc
    .tuple(fc.tuple(...fields), extras)
    .map(([present, extra]) => [...present.flat(), ...extra].join('&'));
}

const headerText = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);

function headersFor(
  operation: Operation,
  credentials: string[][],
  valid: boolean,
): fc.Arbitrary<Record<string, string>> {
  // Header parameters are case-insensitive: one generator per distinct name.
  const names = [
    ...new Set(operation.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase())),
  ];
  const valueFor = (name: string) =>
    weighted<string>(
      [3, fc.constantFrom(...credentials.flat())],
      [valid ? 0 : 3, headerText],
      [valid ? 0 : 1, fc.constant('')],
      [valid ? 0 : 1, fc.string({ unit: 'grapheme-ascii', minLength: 300, maxLength: 4000 })],
    ).map((value) => [name, value] as const);
  const header = names.map((name) => fc.option(valueFor(name), { freq: 2 }));
  const encoding = weighted<Record<string, string>>(
    [30, fc.constant({})],
    [
      valid ? 0 : 1,
      fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-zzz').map((e) => ({ 'content-encoding': e })),
    ],
  );
  const requestId = weighted<Record<string, string>>(
    [8, fc.constant({})],
    [1, fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/).map((id) => ({ 'x-request-id': id }))],
    [valid ? 0 : 1, headerText.map((id) => ({ 'x-request-id': id }))],
  );
  return fc.tuple(fc.tuple(...header), requestId, encoding).map(([pairs, extra, encoded]) => ({
    ...Object.fromEntries(pairs.filter((p) => p !== null)),
    ...extra,
    ...(operation.body ? encoded : {}),
  }));
}

// ---------------------------------------------------------------------------------------------
// Bodies

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '[1,2',
  'nul',
  '{"a":"\\x00"}',
  '{"a":NaN}',
  '{"a":01}',
  '\u0000',
  ' ',
  '{"a":"unterminated',
  '{"__proto__":{"polluted":true}',
];

const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=latin-9',
  'application/json; charset=utf-7',
  'text/csv',
];

function formEncode(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([k, v]) => encodePair(k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')))
    .join('&');
}

type Body = NonNullable<RequestSpec['body']>;

function documentedBody(
  operation: Operation,
  pools: Pools,
  credentials: string[][],
  valid: boolean,
): fc.Arbitrary<Body> {
  const { contentType, schema } = operation.body!;
  if (contentType.includes('json')) {
    const value = schema.properties ? objectFor(schema, pools, valid) : jsonFor('body', schema, pools, valid);
    return value.map((v) => ({ contentType, text: JSON.stringify(v) ?? 'null', kind: 'json' as const }));
  }
  if (contentType.includes('x-www-form-urlencoded')) {
    // Real client credentials sometimes, so the happy path (and its writes) is exercised too.
    const credentialsForm = fc.record({
      grant_type: fc.constantFrom(
        'client_credentials',
        'client_credentials',
        valid ? 'client_credentials' : 'password',
      ),
      client_id: fc.constantFrom(...credentials.map((c) => c[0]), 'nobody'),
      client_secret: fc.constantFrom(...credentials.map((c) => c[1]), 'wrong'),
      scope: fc.constantFrom('partner', 'admin', 'partner admin', '', 'root'),
    });
    return weighted<Body>(
      [
        4,
        weighted<Record<string, unknown>>([4, objectFor(schema, pools, valid)], [2, credentialsForm]).map(
          (v) => ({ contentType, text: formEncode(v), kind: 'form' as const }),
        ),
      ],
      [
        valid ? 0 : 1,
        fc
          .array(fc.tuple(fc.constantFrom('grant_type', 'client_id', 'scope', 'x'), junkString), {
            maxLength: 60,
          })
          .map((pairs) => ({
            contentType,
            text: pairs.map(([k, v]) => encodePair(k, v)).join('&'),
            kind: 'form' as const,
          })),
      ],
    );
  }
  // Text bodies (CSV): the example, the example with a cell mangled, or junk lines.
  const text = typeof schema.example === 'string' ? schema.example : '';
  const lines = text.split('\n');
  const mangled = fc
    .tuple(
      fc.nat({ max: Math.max(lines.length - 1, 0) }),
      valid ? stringFor('cell', {}, pools, true) : junkString,
      fc.nat({ max: 8 }),
    )
    .map(([index, junk, cell]) => {
      const copy = [...lines];
      const cells = (copy[index] ?? '').split(',');
      cells[Math.min(cell, cells.length - 1)] = junk;
      copy[index] = cells.join(',');
      return copy.join('\n');
    });
  return weighted<string>(
    [valid ? 4 : 1, fc.constant(text)],
    [4, mangled],
    [1, fc.constant(lines[0] ?? '')],
    [
      valid ? 0 : 2,
      fc.array(junkString, { maxLength: 5 }).map((rows) => [lines[0] ?? '', ...rows].join('\n')),
    ],
    [valid ? 0 : 1, fc.string({ unit: 'grapheme', maxLength: 200 })],
  ).map((body) => ({ contentType, text: body, kind: 'text' as const }));
}

function bodyFor(
  operation: Operation,
  pools: Pools,
  credentials: string[][],
  valid: boolean,
): fc.Arbitrary<RequestSpec['body']> {
  const documented = documentedBody(operation, pools, credentials, valid);
  if (valid) return documented;
  const schema = operation.body!.schema;
  const otherJson = weighted<unknown>(
    [2, fc.array(schema.properties ? objectFor(schema, pools, false) : junkValue, { maxLength: 3 })],
    [3, junkValue],
  ).map((v) => ({
    contentType: 'application/json',
    text: JSON.stringify(v) ?? 'null',
    kind: 'json' as const,
  }));
  return weighted<RequestSpec['body']>(
    [12, documented],
    [3, otherJson],
    [
      2,
      fc
        .constantFrom(...MALFORMED_JSON)
        .map((text) => ({ contentType: 'application/json', text, kind: 'malformed-json' as const })),
    ],
    [
      2,
      fc
        .tuple(
          fc.constantFrom(...WRONG_TYPES),
          fc.oneof(fc.constant('{"a":1}'), fc.string({ maxLength: 60 })),
        )
        .map(([type, text]) => ({ contentType: type, text, kind: 'text' as const })),
    ],
    // Deeply nested JSON (the depth shrinks towards the smallest that fails), and a body over the
    // 100 kB limit.
    [
      1,
      fc.tuple(fc.integer({ min: 500, max: 6000 }), fc.boolean()).map(([depth, arrays]) => ({
        contentType: 'application/json',
        text: arrays
          ? `${'['.repeat(depth)}${']'.repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
        kind: 'json' as const,
      })),
    ],
    [
      1,
      fc.constant({
        contentType: 'application/json',
        text: `{"a":"${'x'.repeat(110_000)}"}`,
        kind: 'json' as const,
      }),
    ],
    // No Content-Type at all.
    [1, fc.constantFrom('{"a":1}', 'a=1', '').map((text) => ({ text, kind: 'text' as const }))],
    [1, fc.constant(undefined)],
  );
}

// ---------------------------------------------------------------------------------------------

const clipped = (text: string, max = 300) =>
  text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;

/** Counterexamples print as one request line, long bodies clipped (deeply nested JSON is 10k chars). */
function withShortPrint(spec: RequestSpec): RequestSpec {
  const print = () =>
    `${spec.method.toUpperCase()} ${spec.path}${spec.query ? `?${spec.query}` : ''} auth=${spec.auth}` +
    ` headers=${JSON.stringify(spec.headers)}` +
    (spec.body
      ? ` content-type=${spec.body.contentType ?? '(none)'} body=${JSON.stringify(clipped(spec.body.text))}`
      : '');
  return Object.defineProperty(spec, fc.toStringMethod, { value: print, enumerable: false });
}

/** The whole request for one operation: 2 in 5 in valid mode, the rest fuzzed. */
export function requestFor(
  operation: Operation,
  pools: Pools,
  credentials: string[][],
): fc.Arbitrary<RequestSpec> {
  const build = (valid: boolean) => {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const path = fc
      .tuple(...pathParams.map((p) => pathValue(p, pools, valid)))
      .map((values) =>
        pathParams.reduce((built, p, i) => built.replace(`{${p.name}}`, values[i]), operation.path),
      );
    const auth = !operation.secured
      ? weighted<RequestSpec['auth']>([12, fc.constant('none')], [valid ? 0 : 1, fc.constant('garbage')])
      : valid
        ? fc.constant('token' as const)
        : weighted<RequestSpec['auth']>([20, fc.constant('token')], [1, fc.constantFrom('none', 'garbage')]);
    return fc
      .record({
        path,
        query: queryFor(operation, pools, valid),
        headers: headersFor(operation, credentials, valid),
        auth,
        body: operation.body ? bodyFor(operation, pools, credentials, valid) : fc.constant(undefined),
      })
      .map((r): RequestSpec => withShortPrint({ method: operation.method, template: operation.path, ...r }));
  };
  // Now and then a method the path does not document (404/405, in the documented shape).
  const otherMethod = fc
    .tuple(build(false), fc.constantFrom<RequestSpec['method']>('get', 'post', 'put', 'patch', 'delete'))
    .map(([spec, method]) => withShortPrint({ ...spec, method }));
  return weighted<RequestSpec>([16, build(true)], [23, build(false)], [1, otherMethod]);
}
