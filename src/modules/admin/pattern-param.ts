import { Param, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { DomainError } from '../../common/errors/domain-error.js';

class PatternParamPipe implements PipeTransform<string, string> {
  constructor(
    private readonly name: string,
    private readonly pattern: RegExp,
    private readonly message: string,
  ) {}

  transform(value: string): string {
    if (!this.pattern.test(value)) throw DomainError.validation(this.name, this.message);
    return value;
  }
}

/**
 * A path parameter that must match `pattern`; a malformed one is a 400 naming the parameter, and
 * the document states the same pattern (as UuidParam does for UUIDs).
 */
export const PatternParam =
  (name: string, pattern: RegExp, message: string): ParameterDecorator =>
  (target, key, index) => {
    Param(name, new PatternParamPipe(name, pattern, message))(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
    ApiParam({ name, schema: { type: 'string', pattern: pattern.source }, description: message })(
      target,
      key,
      descriptor,
    );
  };
