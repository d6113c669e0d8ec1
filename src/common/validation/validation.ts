import {
  Injectable,
  Param,
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
} from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { DomainError, ErrorCode, type FieldErrors } from '../errors/domain-error.js';

/** class-validator errors → field path → messages (nested paths joined with dots). */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      result[path] = Object.values(error.constraints);
    }
    if (error.children?.length) {
      Object.assign(result, toFieldErrors(error.children, path));
    }
  }
  return result;
}

/**
 * The global ValidationPipe, remembering what each query DTO makes of an empty query string. Most
 * requests carry no query parameters, and validating `{}` against a DTO has the same outcome every
 * time (query DTOs here have only stateless, synchronous constraints), so after one full pass the
 * empty case is answered with that pass's result, frozen so no handler can change it for the next.
 */
class ServiceValidationPipe extends ValidationPipe {
  private readonly emptyQuery = new WeakMap<object, unknown>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    const emptyQuery = metadata.type === 'query' && !!metatype && isEmptyObject(value);
    if (emptyQuery && this.emptyQuery.has(metatype!)) return this.emptyQuery.get(metatype!);
    const result: unknown = await super.transform(value, metadata);
    // Reached only when validation passed.
    if (emptyQuery) this.emptyQuery.set(metatype!, Object.freeze(result));
    return result;
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/** Global pipe: whitelist, reject unknown fields, transform; errors name the field (design §10). */
export function createValidationPipe(): ValidationPipe {
  return new ServiceValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new DomainError(
        ErrorCode.ValidationFailed,
        'One or more validation errors occurred.',
        toFieldErrors(errors),
      ),
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

@Injectable()
class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly name: string) {}

  transform(value: string): string {
    if (!isUuid(value)) throw DomainError.validation(this.name, `${this.name} must be a UUID.`);
    return value.toLowerCase();
  }
}

/**
 * A path parameter that must be a UUID; a malformed one is a 400 naming the parameter. Documents
 * itself as `format: uuid`, so the document says what the pipe enforces.
 */
export const UuidParam =
  (name: string): ParameterDecorator =>
  (target, key, index) => {
    Param(name, new UuidParamPipe(name))(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
    ApiParam({ name, type: String, format: 'uuid', description: `${name} (UUID).` })(target, key, descriptor);
  };
