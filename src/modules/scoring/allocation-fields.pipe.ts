import { Injectable, type PipeTransform } from '@nestjs/common';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';

/** `btcAllocation` → BTC. The ticker part: letters and digits, any case. */
const ALLOCATION_FIELD = /^([A-Za-z0-9]{1,20})Allocation$/;

export interface AllocationFields {
  /** Upper-case symbol → percentage. */
  allocation: Record<string, number>;
  /** Upper-case symbol → the request field that carried it, so errors name that field. */
  fieldBySymbol: Map<string, string>;
}

/**
 * Parses the open-ended `<symbol>Allocation` body of /api/calculate-portfolio-score: every field
 * must be one, with a JSON number; two fields naming the same ticker in different case are a 400.
 * Range and sum rules are the scoring service's.
 */
@Injectable()
export class AllocationFieldsPipe implements PipeTransform<unknown, AllocationFields> {
  transform(body: unknown): AllocationFields {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw DomainError.validation('body', 'The body must be a JSON object of <symbol>Allocation fields.');
    }
    const errors: FieldErrors = {};
    const allocation: Record<string, number> = {};
    const fieldBySymbol = new Map<string, string>();
    for (const [field, value] of Object.entries(body)) {
      const match = ALLOCATION_FIELD.exec(field);
      if (!match) {
        errors[field] = [
          `${field} is not an allocation field; expected <symbol>Allocation, e.g. btcAllocation.`,
        ];
        continue;
      }
      const symbol = match[1].toUpperCase();
      if (fieldBySymbol.has(symbol)) {
        errors[field] = [`${field} repeats the allocation of ${symbol} (${fieldBySymbol.get(symbol)}).`];
        continue;
      }
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        errors[field] = [`${field} must be a number.`];
        continue;
      }
      allocation[symbol] = value;
      fieldBySymbol.set(symbol, field);
    }
    if (Object.keys(errors).length > 0) {
      throw new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
    }
    if (fieldBySymbol.size === 0) {
      throw DomainError.validation(
        'allocations',
        'At least one <symbol>Allocation field (btcAllocation, ethAllocation, solAllocation, …) is required.',
      );
    }
    return { allocation, fieldBySymbol };
  }
}
