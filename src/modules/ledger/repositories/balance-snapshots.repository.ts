import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Snapshot, SnapshotAsset, SnapshotIssue } from '../../../domain/balances/index.js';
import type { CostBasisMethod } from '../../../domain/cost-basis/index.js';
import { runSql } from '../../../database/sql.js';

// The shapes are the domain's (src/domain/balances); re-exported for the readers of this repository.
export type { Snapshot, SnapshotAsset };

interface HeaderRow {
  account_id: string;
  last_updated_on: Date;
  method: CostBasisMethod;
  market_value_usd: string;
  realized_gain_usd: string;
  unrealized_gain_usd: string;
  reported_balances: Record<string, string> | null;
  issue: SnapshotIssue | null;
}

/** Balance snapshots (header + asset rows). Every query takes the tenant id first. */
@Injectable()
export class BalanceSnapshotsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(tenantId: string, accountId: string): Promise<Snapshot | null> {
    return (await this.findMany(tenantId, [accountId])).get(accountId) ?? null;
  }

  async findMany(
    tenantId: string,
    accountIds: readonly string[],
    manager?: EntityManager,
  ): Promise<Map<string, Snapshot>> {
    // One query (header + assets as JSON, decimals as text so nothing passes through a float).
    const { rows } = await runSql<HeaderRow & { assets: SnapshotAsset[] }>(
      manager ?? this.dataSource.manager,
      `SELECT s.*, COALESCE((
         SELECT json_agg(json_build_object(
           'symbol', a.symbol, 'quantity', a.quantity::text, 'costBasisUsd', a.cost_basis_usd::text,
           'priceUsd', a.price_usd::text, 'marketValueUsd', a.market_value_usd::text,
           'realizedGainUsd', a.realized_gain_usd::text, 'unrealizedGainUsd', a.unrealized_gain_usd::text,
           'needsReview', a.needs_review) ORDER BY a.symbol)
         FROM balance_snapshot_asset a WHERE a.tenant_id = s.tenant_id AND a.account_id = s.account_id), '[]') AS assets
       FROM balance_snapshot s WHERE s.tenant_id = $1 AND s.account_id = ANY($2::uuid[])`,
      [tenantId, [...accountIds]],
    );
    const result = new Map<string, Snapshot>();
    for (const h of rows) {
      result.set(h.account_id, {
        accountId: h.account_id,
        lastUpdatedOn: h.last_updated_on,
        method: h.method,
        marketValueUsd: h.market_value_usd,
        realizedGainUsd: h.realized_gain_usd,
        unrealizedGainUsd: h.unrealized_gain_usd,
        reportedBalances: h.reported_balances,
        issue: h.issue,
        assets: typeof h.assets === 'string' ? (JSON.parse(h.assets) as SnapshotAsset[]) : h.assets,
      });
    }
    return result;
  }

  /** Replaces the account's snapshot (inside the refresh's transaction). */
  async replace(tenantId: string, snapshot: Snapshot, manager: EntityManager): Promise<void> {
    await runSql(manager, 'DELETE FROM balance_snapshot_asset WHERE tenant_id = $1 AND account_id = $2', [
      tenantId,
      snapshot.accountId,
    ]);
    await runSql(
      manager,
      `INSERT INTO balance_snapshot (account_id, tenant_id, last_updated_on, method, market_value_usd, realized_gain_usd,
         unrealized_gain_usd, reported_balances, issue)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (account_id) DO UPDATE SET last_updated_on = EXCLUDED.last_updated_on, method = EXCLUDED.method,
         market_value_usd = EXCLUDED.market_value_usd, realized_gain_usd = EXCLUDED.realized_gain_usd,
         unrealized_gain_usd = EXCLUDED.unrealized_gain_usd, reported_balances = EXCLUDED.reported_balances,
         issue = EXCLUDED.issue`,
      [
        snapshot.accountId,
        tenantId,
        snapshot.lastUpdatedOn,
        snapshot.method,
        snapshot.marketValueUsd,
        snapshot.realizedGainUsd,
        snapshot.unrealizedGainUsd,
        snapshot.reportedBalances === null ? null : JSON.stringify(snapshot.reportedBalances),
        snapshot.issue === null ? null : JSON.stringify(snapshot.issue),
      ],
    );
    if (snapshot.assets.length === 0) return;
    const params: unknown[] = [tenantId, snapshot.accountId];
    const values = snapshot.assets.map((a) => {
      const base = params.length;
      params.push(
        a.symbol,
        a.quantity,
        a.costBasisUsd,
        a.priceUsd,
        a.marketValueUsd,
        a.realizedGainUsd,
        a.unrealizedGainUsd,
        a.needsReview,
      );
      const p = (i: number) => `$${base + i}`;
      return `($2, ${p(1)}, $1, ${p(2)}::numeric, ${p(3)}::numeric, ${p(4)}::numeric, ${p(5)}::numeric, ${p(6)}::numeric, ${p(7)}::numeric, ${p(8)}::boolean)`;
    });
    await runSql(
      manager,
      `INSERT INTO balance_snapshot_asset (account_id, symbol, tenant_id, quantity, cost_basis_usd, price_usd, market_value_usd,
         realized_gain_usd, unrealized_gain_usd, needs_review) VALUES ${values.join(', ')}`,
      params,
    );
  }
}
