import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { PortfolioAllocationEntity } from './entities/portfolio-allocation.entity.js';
import { PortfolioEntity } from './entities/portfolio.entity.js';

export interface StoredAllocation {
  /** Upper-case ticker. */
  symbol: string;
  /** Percentage, decimal text. */
  percentage: string;
}

export interface StoredPortfolio {
  id: string;
  name: string;
  /** Largest share first, then by symbol. */
  allocations: StoredAllocation[];
}

/**
 * Portfolios and their allocations. Every method takes the tenant id first: a portfolio of
 * another tenant is simply not found. Writes of a portfolio and its allocations share one
 * transaction.
 */
@Injectable()
export class PortfoliosRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PortfolioEntity) private readonly portfolios: Repository<PortfolioEntity>,
  ) {}

  /**
   * The tenant's portfolios, oldest first, each with its allocations (largest first, then by
   * symbol): one statement, no entity hydration. The list is what `GET /api/portfolios` answers;
   * two round trips and TypeORM's entity building were most of its cost (bench/README.md,
   * 2026-11-24). The same order as find() + withAllocations(), rows grouped as they come.
   */
  async list(tenantId: string): Promise<StoredPortfolio[]> {
    const rows: { id: string; name: string; symbol: string | null; percentage: string | null }[] =
      await this.dataSource.query(
        `SELECT p.id, p.name, a.symbol, a.percentage
           FROM portfolio p LEFT JOIN portfolio_allocation a ON a.portfolio_id = p.id
          WHERE p.tenant_id = $1
          ORDER BY p.created_at, p.id, a.percentage DESC, a.symbol`,
        [tenantId],
      );
    const portfolios: StoredPortfolio[] = [];
    let current: { id: string; name: string; allocations: StoredAllocation[] } | undefined;
    for (const row of rows) {
      if (current?.id !== row.id) {
        current = { id: row.id, name: row.name, allocations: [] };
        portfolios.push(current);
      }
      if (row.symbol !== null && row.percentage !== null)
        current.allocations.push({ symbol: row.symbol, percentage: row.percentage });
    }
    return portfolios;
  }

  async find(tenantId: string, id: string): Promise<StoredPortfolio | null> {
    const portfolio = await this.portfolios.findOneBy({ tenantId, id });
    return portfolio ? (await this.withAllocations([portfolio]))[0] : null;
  }

  async create(tenantId: string, portfolio: StoredPortfolio): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(PortfolioEntity, { id: portfolio.id, tenantId, name: portfolio.name });
      await insertAllocations(manager, portfolio.id, portfolio.allocations);
    });
  }

  /** Inserts unless a portfolio with that id exists (sandbox fixtures); true when inserted. */
  async createIfAbsent(tenantId: string, portfolio: StoredPortfolio): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .insert()
        .into(PortfolioEntity)
        .values({ id: portfolio.id, tenantId, name: portfolio.name })
        .orIgnore()
        .returning(['id'])
        .execute();
      if ((result.raw as unknown[]).length === 0) return false;
      await insertAllocations(manager, portfolio.id, portfolio.allocations);
      return true;
    });
  }

  /** Renames and replaces all allocations at once; false when the tenant has no such portfolio. */
  async replace(tenantId: string, portfolio: StoredPortfolio): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const updated = await manager.update(
        PortfolioEntity,
        { tenantId, id: portfolio.id },
        { name: portfolio.name, updatedAt: new Date() },
      );
      if (!updated.affected) return false;
      await manager.delete(PortfolioAllocationEntity, { portfolioId: portfolio.id });
      await insertAllocations(manager, portfolio.id, portfolio.allocations);
      return true;
    });
  }

  /** Deletes the portfolio and (by cascade) its allocations; false when not found. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.portfolios.delete({ tenantId, id });
    return (result.affected ?? 0) > 0;
  }

  private async withAllocations(portfolios: PortfolioEntity[]): Promise<StoredPortfolio[]> {
    if (portfolios.length === 0) return [];
    const rows: (StoredAllocation & { portfolioId: string })[] = await this.dataSource.query(
      `SELECT portfolio_id AS "portfolioId", symbol, percentage
         FROM portfolio_allocation
        WHERE portfolio_id = ANY($1::uuid[])
        ORDER BY portfolio_id, percentage DESC, symbol`,
      [portfolios.map((portfolio) => portfolio.id)],
    );
    const byPortfolio = new Map<string, StoredAllocation[]>(portfolios.map((p) => [p.id, []]));
    for (const row of rows)
      byPortfolio.get(row.portfolioId)!.push({ symbol: row.symbol, percentage: row.percentage });
    return portfolios.map((portfolio) => ({
      id: portfolio.id,
      name: portfolio.name,
      allocations: byPortfolio.get(portfolio.id)!,
    }));
  }
}

async function insertAllocations(
  manager: EntityManager,
  portfolioId: string,
  allocations: readonly StoredAllocation[],
): Promise<void> {
  if (allocations.length === 0) return;
  await manager.insert(
    PortfolioAllocationEntity,
    allocations.map((allocation) => ({
      portfolioId,
      symbol: allocation.symbol,
      percentage: allocation.percentage,
    })),
  );
}
