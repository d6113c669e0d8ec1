/**
 * Every entity, grouped by owning module. Nest, the migration CLI and the agreement test use ENTITIES.
 * A module adds its group here; `npm run migration:generate -- Name --group <group>` diffs only
 * core + that group, so two modules can add tables without one migration swallowing the other's.
 */
import { ApiClientEntity } from '../modules/tenancy/entities/api-client.entity.js';
import { TenantEntity } from '../modules/tenancy/entities/tenant.entity.js';
import { SigningKeyEntity } from '../modules/auth/entities/signing-key.entity.js';
import { InstanceSecretEntity } from './instance-secret.entity.js';
import { AccountEntity } from '../modules/accounts/entities/account.entity.js';
import { TransactionEntity } from '../modules/ledger/entities/transaction.entity.js';
import { BalanceSnapshotEntity } from '../modules/ledger/entities/balance-snapshot.entity.js';
import { BalanceSnapshotAssetEntity } from '../modules/ledger/entities/balance-snapshot-asset.entity.js';
import { AssetEntity } from '../modules/market/entities/asset.entity.js';
import { ChainTokenEntity, ChainTokenPriceEntity } from '../modules/market/entities/chain-token.entity.js';
import { MarketRefreshJobEntity } from '../modules/market/entities/market-refresh-job.entity.js';
import { MarketSnapshotEntity } from '../modules/market/entities/market-snapshot.entity.js';
import { PriceHistoryEntity } from '../modules/market/entities/price-history.entity.js';
import { IdempotencyKeyEntity } from '../modules/idempotency/idempotency-key.entity.js';
import { PortfolioEntity } from '../modules/portfolios/entities/portfolio.entity.js';
import { PortfolioAllocationEntity } from '../modules/portfolios/entities/portfolio-allocation.entity.js';
import { AuditChainEntity } from '../modules/audit/entities/audit-chain.entity.js';
import { AuditEntryEntity } from '../modules/audit/entities/audit-entry.entity.js';
import { ReportSnapshotEntity } from '../modules/report-snapshots/entities/report-snapshot.entity.js';
import { CapitalMarketAssumptionEntity } from '../modules/simulation/entities/capital-market-assumption.entity.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EntityClass = new (...args: any[]) => object;

export const ENTITY_GROUPS = {
  core: [TenantEntity, ApiClientEntity, SigningKeyEntity, InstanceSecretEntity],
  accounts: [AccountEntity, TransactionEntity, BalanceSnapshotEntity, BalanceSnapshotAssetEntity],
  market: [
    AssetEntity,
    MarketSnapshotEntity,
    PriceHistoryEntity,
    MarketRefreshJobEntity,
    ChainTokenEntity,
    ChainTokenPriceEntity,
  ],
  portfolios: [PortfolioEntity, PortfolioAllocationEntity],
  simulation: [CapitalMarketAssumptionEntity],
  idempotency: [IdempotencyKeyEntity],
  audit: [AuditEntryEntity, AuditChainEntity, ReportSnapshotEntity],
} satisfies Record<string, EntityClass[]>;

export type EntityGroup = keyof typeof ENTITY_GROUPS;

export const ENTITIES = Object.values(ENTITY_GROUPS).flat();
