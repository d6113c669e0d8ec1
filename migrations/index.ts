/** Every migration, in order. `npm run migration:generate` appends here. */
import type { MigrationInterface } from 'typeorm';
import { AuditTrailAndReportSnapshots1795900000000 } from './1795900000000-AuditTrailAndReportSnapshots.js';
import { CapitalMarketAssumptions1795600734219 } from './1795600734219-CapitalMarketAssumptions.js';
import { IdempotencyKeys1795510473038 } from './1795510473038-IdempotencyKeys.js';
import { OperatorTenant1795500184242 } from './1795500184242-OperatorTenant.js';
import { AccountsTransactionsBalances1795263822962 } from './1795263822962-AccountsTransactionsBalances.js';
import { Portfolios1795262572617 } from './1795262572617-Portfolios.js';
import { MarketData1795262110787 } from './1795262110787-MarketData.js';
import { InitialTenancy1795261121274 } from './1795261121274-InitialTenancy.js';
import { SecretGeneration1795500657811 } from './1795500657811-SecretGeneration.js';
import { AccountReviewAndBackoff1795700000000 } from './1795700000000-AccountReviewAndBackoff.js';
import { WebhooksAndOutbox1796000000000 } from './1796000000000-WebhooksAndOutbox.js';
import { CostBasisElections1796200000000 } from './1796200000000-CostBasisElections.js';
import { LotSelections1796300000000 } from './1796300000000-LotSelections.js';
import { SafeHarborAllocation1796500000000 } from './1796500000000-SafeHarborAllocation.js';
import { RefreshLeaseImport1796630000000 } from './1796630000000-RefreshLeaseImport.js';
import { ChainTokenPrices1796700000000 } from './1796700000000-ChainTokenPrices.js';
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  InitialTenancy1795261121274,
  MarketData1795262110787,
  Portfolios1795262572617,
  AccountsTransactionsBalances1795263822962,
  OperatorTenant1795500184242,
  SecretGeneration1795500657811,
  IdempotencyKeys1795510473038,
  CapitalMarketAssumptions1795600734219,
  AccountReviewAndBackoff1795700000000,
  AuditTrailAndReportSnapshots1795900000000,
  WebhooksAndOutbox1796000000000,
  CostBasisElections1796200000000,
  LotSelections1796300000000,
  SafeHarborAllocation1796500000000,
  RefreshLeaseImport1796630000000,
  ChainTokenPrices1796700000000,
];
