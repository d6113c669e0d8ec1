/**
 * A request body whose schema depends on its media type. @nestjs/swagger gives every media type
 * of `@ApiConsumes` the one schema of `@ApiBody`: the import's `oneOf` (the file as text, or the
 * upload form) made Swagger UI show a text area for multipart/form-data and no file picker
 * (issue 31). `ApiBodyByMediaType` records a schema per media type; `describeRequestBodies` puts
 * each under its own media type when the document is built.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtension, type OpenAPIObject } from '@nestjs/swagger';

const EXTENSION = 'x-body-by-media-type';

/** An OpenAPI schema object, as plain data. */
type SchemaObject = Record<string, unknown>;

export function ApiBodyByMediaType(
  description: string,
  schemas: Readonly<Record<string, SchemaObject>>,
): MethodDecorator {
  const [first] = Object.values(schemas);
  return applyDecorators(
    ApiConsumes(...Object.keys(schemas)),
    ApiBody({ description, schema: first! }),
    ApiExtension(EXTENSION, schemas),
  );
}

export function describeRequestBodies(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Record<string, unknown>[]) {
      const schemas = operation?.[EXTENSION] as Record<string, SchemaObject> | undefined;
      if (!schemas) continue;
      delete operation[EXTENSION];
      const body = operation['requestBody'] as { content: Record<string, object> };
      body.content = Object.fromEntries(Object.entries(schemas).map(([type, schema]) => [type, { schema }]));
    }
  }
  return document;
}
