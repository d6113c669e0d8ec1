import { Inject, Injectable } from '@nestjs/common';
import { Decimal } from 'decimal.js';
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, type FieldErrors } from '../../common/errors/domain-error.js';
import { MARKET_PRICES, type MarketPricesPort } from '../../common/ports/market-prices.port.js';
import { ALLOCATION_SUM_TOLERANCE } from '../../domain/scoring/portfolio-score.js';
import { AssetScoringService } from '../scoring/index.js';
import {
  PortfoliosRepository,
  type StoredAllocation,
  type StoredPortfolio,
} from './portfolios.repository.js';

/** Percentages are kept exactly with this many decimals (numeric(11,8)). */
export const PERCENTAGE_DECIMALS = 8;
const SYMBOL = /^[A-Za-z0-9]{1,20}$/;

export interface PortfolioInput {
  name: string;
  allocations: Record<string, unknown>;
}

export interface PortfolioView {
  id: string;
  name: string;
  /** Upper-case symbol → percentage. */
  allocations: Record<string, number>;
}

export interface PortfolioWithScore extends PortfolioView {
  qScore: number | null;
}

/**
 * Tenant portfolios: validation of allocations (non-negative, summing to 100 ± 0.01, naming
 * tracked assets), storage through PortfoliosRepository, qScore through AssetScoringService.
 * Another tenant's portfolio is not found (404), exactly like a missing one.
 */
@Injectable()
export class PortfoliosService {
  constructor(
    private readonly repository: PortfoliosRepository,
    private readonly scoring: AssetScoringService,
    @Inject(MARKET_PRICES) private readonly market: MarketPricesPort,
  ) {}

  async list(tenantId: string): Promise<PortfolioView[]> {
    return (await this.repository.list(tenantId)).map(toView);
  }

  async get(tenantId: string, id: string): Promise<PortfolioWithScore> {
    const portfolio = await this.repository.find(tenantId, id);
    if (!portfolio) throw DomainError.notFound('Portfolio');
    const view = toView(portfolio);
    return { ...view, qScore: await this.qScore(view.allocations) };
  }

  async create(tenantId: string, input: PortfolioInput): Promise<PortfolioView> {
    const portfolio = { id: randomUUID(), ...(await this.validated(input)) };
    await this.repository.create(tenantId, portfolio);
    return toView(portfolio);
  }

  async replace(tenantId: string, id: string, input: PortfolioInput): Promise<PortfolioView> {
    const portfolio = { id, ...(await this.validated(input)) };
    if (!(await this.repository.replace(tenantId, portfolio))) throw DomainError.notFound('Portfolio');
    return toView(portfolio);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(tenantId, id))) throw DomainError.notFound('Portfolio');
  }

  /** The qScore, or null when the assets cannot be scored now; other failures propagate. */
  private async qScore(allocations: Record<string, number>): Promise<number | null> {
    try {
      return (await this.scoring.scoreAllocation(allocations)).qScore;
    } catch (error) {
      if (
        error instanceof DomainError &&
        (error.code === ErrorCode.ValidationFailed || error.code === ErrorCode.Internal)
      ) {
        return null;
      }
      throw error;
    }
  }

  private async validated(input: PortfolioInput): Promise<Omit<StoredPortfolio, 'id'>> {
    const name = input.name.trim();
    if (name.length === 0) throw DomainError.validation('name', 'name must not be blank.');
    const errors: FieldErrors = {};
    const allocations: StoredAllocation[] = [];
    const seen = new Map<string, string>();
    for (const [key, value] of Object.entries(input.allocations)) {
      const field = `allocations.${key}`;
      if (!SYMBOL.test(key)) {
        errors[field] = [
          `${JSON.stringify(key.slice(0, 40))} is not an asset symbol (1-20 letters or digits).`,
        ];
        continue;
      }
      const symbol = key.toUpperCase();
      if (seen.has(symbol)) {
        errors[field] = [`${key} repeats the allocation of ${symbol} (allocations.${seen.get(symbol)}).`];
        continue;
      }
      seen.set(symbol, key);
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        errors[field] = [`${field} must be a number.`];
      } else if (value < 0) {
        errors[field] = [`${field} must not be negative.`];
      } else {
        allocations.push({
          symbol,
          percentage: new Decimal(value)
            .toDecimalPlaces(PERCENTAGE_DECIMALS, Decimal.ROUND_HALF_UP)
            .toFixed(),
        });
      }
    }
    if (Object.keys(errors).length > 0) throw invalid(errors);
    if (allocations.length === 0) {
      throw DomainError.validation('allocations', 'At least one allocation is required.');
    }
    const total = allocations.reduce((sum, allocation) => sum.plus(allocation.percentage), new Decimal(0));
    if (total.minus(100).abs().greaterThan(ALLOCATION_SUM_TOLERANCE)) {
      throw DomainError.validation(
        'allocations',
        `Allocations must sum to 100 (±${ALLOCATION_SUM_TOLERANCE}); they sum to ${total.toFixed()}.`,
      );
    }
    const known = new Set(await this.market.knownSymbols());
    const unknown = allocations.filter((allocation) => !known.has(allocation.symbol));
    if (unknown.length > 0) {
      throw invalid(
        Object.fromEntries(
          unknown.map((allocation) => [
            `allocations.${seen.get(allocation.symbol)}`,
            [`${allocation.symbol} is not an asset the service tracks.`],
          ]),
        ),
      );
    }
    allocations.sort(
      (a, b) => new Decimal(b.percentage).comparedTo(a.percentage) || a.symbol.localeCompare(b.symbol),
    );
    return { name, allocations };
  }
}

function toView(portfolio: StoredPortfolio): PortfolioView {
  return {
    id: portfolio.id,
    name: portfolio.name,
    allocations: Object.fromEntries(
      portfolio.allocations.map((allocation) => [allocation.symbol, Number(allocation.percentage)]),
    ),
  };
}

function invalid(errors: FieldErrors): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, 'One or more validation errors occurred.', errors);
}
