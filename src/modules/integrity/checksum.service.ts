import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock.js';
import { ChecksumAccumulator, type ChecksumResult } from '../../domain/checksum/checksum.js';
import type { ChecksumFilters } from '../ledger/index.js';
import { ChecksumLinesRepository } from './checksum-lines.repository.js';
import { asBulkRead } from '../../database/bulk-lane.js';

/** Rows per fetch: memory holds one fetch, whatever the row count. */
export const CHECKSUM_PAGE_SIZE = 2_000;

export interface ChecksumReport extends ChecksumResult {
  readonly computedAt: Date;
}

/**
 * The integrity checksum (design §6, docs/checksum.md): the tenant's transactions, narrowed by the
 * filters, streamed in byte order into ChecksumAccumulator as lines the database writes
 * (checksum-lines.repository.ts says why). All fetches are read in one
 * REPEATABLE READ, read-only transaction, so a refresh committing meanwhile is either wholly in
 * or wholly out: the checksum always describes one consistent state of the data.
 */
@Injectable()
export class ChecksumService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lines: ChecksumLinesRepository,
    private readonly clock: Clock,
  ) {}

  async compute(
    tenantId: string,
    filters: ChecksumFilters,
    pageSize = CHECKSUM_PAGE_SIZE,
  ): Promise<ChecksumReport> {
    const accumulator = new ChecksumAccumulator();
    await asBulkRead(() =>
      this.dataSource.transaction('REPEATABLE READ', async (manager) => {
        await manager.query('SET TRANSACTION READ ONLY');
        for await (const lines of this.lines.lines(tenantId, filters, pageSize, manager)) {
          accumulator.addLines(lines);
        }
      }),
    );
    return { ...accumulator.digest(), computedAt: this.clock.now() };
  }
}
