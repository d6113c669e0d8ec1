import { Injectable, Param, ValidationPipe, type PipeTransform, type ValidationError } from '@nestjs/common';
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

/** Global pipe: whitelist, reject unknown fields, transform; errors name the field (design §10). */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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

/** A path parameter that must be a UUID; a malformed one is a 400 naming the parameter. */
export const UuidParam = (name: string) => Param(name, new UuidParamPipe(name));
