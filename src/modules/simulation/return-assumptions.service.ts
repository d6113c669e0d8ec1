/**
 * Return assumptions for /qsim/simulate and /roi/projection (design §9, docs/simulation.md §1):
 * the tenant's capital-market assumptions (stored, managed through /qsim/assumptions) over the
 * shrunk historical default of src/domain/simulation/return-assumptions.ts.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import {
  resolveAssumptions,
  type AssetAssumption,
  type AssumptionOverride,
} from '../../domain/simulation/return-assumptions.js';
import {
  CapitalMarketAssumptionsRepository,
  type StoredAssumption,
} from './capital-market-assumptions.repository.js';
import { MarketHistoryService } from './market-history.service.js';

export interface AssumptionChange {
  /** Fractions. */
  readonly expectedReturn: number;
  readonly volatility?: number | null;
  readonly note?: string | null;
}

@Injectable()
export class ReturnAssumptionsService {
  constructor(
    private readonly repository: CapitalMarketAssumptionsRepository,
    private readonly history: MarketHistoryService,
    private readonly clock: Clock,
  ) {}

  /** Per symbol, in order: the tenant's assumption where it has one, else the shrunk default. */
  async forProjection(
    tenantId: string,
    symbols: readonly string[],
    dailyLogReturns: readonly ArrayLike<number>[],
  ): Promise<AssetAssumption[]> {
    const stored = await this.repository.forSymbols(tenantId, symbols);
    const overrides = new Map<string, AssumptionOverride>(
      stored.map((row) => [
        row.symbol,
        {
          expectedReturn: Number(row.expectedReturn),
          volatility: row.volatility === null ? null : Number(row.volatility),
        },
      ]),
    );
    return resolveAssumptions(symbols, dailyLogReturns, overrides);
  }

  list(tenantId: string): Promise<StoredAssumption[]> {
    return this.repository.list(tenantId);
  }

  async put(tenantId: string, symbolParam: string, change: AssumptionChange): Promise<StoredAssumption> {
    const symbol = symbolParam.toUpperCase();
    if (!(await this.history.knownSymbols()).has(symbol)) {
      throw DomainError.validation('symbol', `${symbol} is not a known asset.`);
    }
    // Through the shortest round-trip text of the float: 0.07 is stored as exactly 0.07.
    return this.repository.upsert(tenantId, {
      symbol,
      expectedReturn: String(change.expectedReturn),
      volatility:
        change.volatility === undefined || change.volatility === null ? null : String(change.volatility),
      note: change.note ?? null,
      updatedAt: this.clock.now(),
    });
  }

  async remove(tenantId: string, symbolParam: string): Promise<void> {
    if (!(await this.repository.delete(tenantId, symbolParam.toUpperCase()))) {
      throw DomainError.notFound(`Capital-market assumption for ${symbolParam.toUpperCase()}`);
    }
  }
}
