import { Injectable, Param, type PipeTransform } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';

/** At most this many ids in one /api/crypto-data request. */
export const MAX_IDS_PER_REQUEST = 50;
const COINGECKO_ID = /^[a-z0-9-]{1,100}$/;

/**
 * A comma-separated list of CoinGecko ids ("bitcoin,ethereum"): lower-case letters, digits and
 * hyphens, at most 50, duplicates collapsed (first occurrence keeps its place). Anything else is a
 * 400 naming the parameter.
 */
@Injectable()
export class CoinGeckoIdsPipe implements PipeTransform<string, string[]> {
  constructor(private readonly name: string) {}

  transform(value: string): string[] {
    const ids = String(value ?? '').split(',');
    const invalid = ids.filter((id) => !COINGECKO_ID.test(id));
    if (invalid.length > 0) {
      const shown = invalid
        .slice(0, 5)
        .map((id) => JSON.stringify(id.slice(0, 40)))
        .join(', ');
      throw DomainError.validation(
        this.name,
        `${this.name} must be comma-separated CoinGecko ids (lower-case letters, digits and hyphens); invalid: ${shown}.`,
      );
    }
    const unique = [...new Set(ids)];
    if (unique.length > MAX_IDS_PER_REQUEST) {
      throw DomainError.validation(
        this.name,
        `${this.name} may name at most ${MAX_IDS_PER_REQUEST} ids; got ${unique.length}.`,
      );
    }
    return unique;
  }
}

export const CoinGeckoIdsParam = (name: string) => Param(name, new CoinGeckoIdsPipe(name));
