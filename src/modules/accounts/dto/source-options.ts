/**
 * The source options of the admin create body, built from the sources' own descriptions
 * (SOURCE_CATALOGUE): each option becomes an optional top-level field with its OpenAPI property
 * and its validation, so this DTO never names a source or its values.
 */
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { SOURCE_CATALOGUE, sourceOptionFields } from '../../sources/index.js';

/** The `source` field's description: every built-in source's summary, real sources first. */
export function sourceFieldDescription(): string {
  const descriptions = Object.values(SOURCE_CATALOGUE);
  const summaries = [
    ...descriptions.filter((d) => !d.synthetic),
    ...descriptions.filter((d) => d.synthetic),
  ].map((d) => d.summary);
  const last = summaries.pop() ?? '';
  return `Connector that fetches the history: ${summaries.length ? `${summaries.join(', ')}, or ${last}` : last}.`;
}

/** Declares every source option as a property of `target` (a DTO class). */
export function declareSourceOptions(target: abstract new (...args: never[]) => object): void {
  const prototype = target.prototype as object;
  for (const { field, spec } of sourceOptionFields()) {
    // Applied in the order TypeScript applies stacked decorators (bottom-up), as written by hand.
    const decorators: PropertyDecorator[] =
      spec.type === 'string' && 'pattern' in spec
        ? [
            ApiPropertyOptional({
              type: String,
              description: spec.description,
              pattern: spec.pattern.source,
              maxLength: spec.maxLength,
              ...(spec.example ? { example: spec.example } : {}),
            }),
            IsOptional(),
            IsString({ message: `${field} must be a string.` }),
            MaxLength(spec.maxLength, { message: `${field} must be at most ${spec.maxLength} characters.` }),
            Matches(spec.pattern, { message: `${field} is not in the expected format.` }),
          ]
        : spec.type === 'string'
          ? [
              ApiPropertyOptional({ enum: [...spec.enum], description: spec.description }),
              IsOptional(),
              IsIn([...spec.enum], { message: `${field} must be one of ${spec.enum.join(', ')}` }),
            ]
          : [
              ApiPropertyOptional({
                type: 'integer',
                description: spec.description,
                minimum: spec.minimum,
                maximum: spec.maximum,
              }),
              IsOptional(),
              IsInt(),
              Min(spec.minimum),
              Max(spec.maximum),
            ];
    for (const decorate of decorators.reverse()) decorate(prototype, field);
  }
}

/** The source options present in a create body, by field name. */
export function sourceOptionsOf(body: object): Record<string, unknown> {
  const values = body as Record<string, unknown>;
  return Object.fromEntries(
    sourceOptionFields()
      .filter(({ field }) => values[field] !== undefined)
      .map(({ field }) => [field, values[field]]),
  );
}
