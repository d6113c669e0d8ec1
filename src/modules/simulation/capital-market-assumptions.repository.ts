import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { CapitalMarketAssumptionEntity } from './entities/capital-market-assumption.entity.js';

export interface StoredAssumption {
  /** Upper-case ticker. */
  readonly symbol: string;
  /** Fractions as decimal text. */
  readonly expectedReturn: string;
  readonly volatility: string | null;
  readonly note: string | null;
  readonly updatedAt: Date;
}

/** A tenant's capital-market assumptions; every method takes the tenant id first. */
@Injectable()
export class CapitalMarketAssumptionsRepository {
  constructor(
    @InjectRepository(CapitalMarketAssumptionEntity)
    private readonly rows: Repository<CapitalMarketAssumptionEntity>,
  ) {}

  async list(tenantId: string): Promise<StoredAssumption[]> {
    return (await this.rows.find({ where: { tenantId }, order: { symbol: 'ASC' } })).map(toStored);
  }

  async forSymbols(tenantId: string, symbols: readonly string[]): Promise<StoredAssumption[]> {
    if (symbols.length === 0) return [];
    return (await this.rows.find({ where: { tenantId, symbol: In([...symbols]) } })).map(toStored);
  }

  async upsert(
    tenantId: string,
    value: {
      symbol: string;
      expectedReturn: string;
      volatility: string | null;
      note: string | null;
      updatedAt: Date;
    },
  ): Promise<StoredAssumption> {
    await this.rows.upsert({ tenantId, ...value }, ['tenantId', 'symbol']);
    return toStored(await this.rows.findOneByOrFail({ tenantId, symbol: value.symbol }));
  }

  /** True when there was one to delete. */
  async delete(tenantId: string, symbol: string): Promise<boolean> {
    const result = await this.rows.delete({ tenantId, symbol });
    return (result.affected ?? 0) > 0;
  }
}

function toStored(row: CapitalMarketAssumptionEntity): StoredAssumption {
  return {
    symbol: row.symbol,
    expectedReturn: row.expectedReturn,
    volatility: row.volatility,
    note: row.note,
    updatedAt: row.updatedAt,
  };
}
