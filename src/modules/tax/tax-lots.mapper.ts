/** Lots and harvesting results → response DTOs: exact decimal text, dates as ISO 8601. */
import type { ValuedLot } from '../../domain/tax/index.js';
import type { HarvestingReportDto, LotDto, LotsReportDto } from './dto/lots.dto.js';
import type { HarvestingReport, LotsReport, LotsScope } from './tax-lots.service.js';

export const HARVESTING_NOTE =
  'Wash-sale rules (IRC §1091) cover stock and securities, not digital assets, so today a loss harvested by selling and buying back at once is allowed. With wash_sale=assume each candidate shows what the rule would disallow were it extended to digital assets: purchases in the 30 days before as_of are counted; purchases in the 30 days after a sale would count too and cannot be known here. Prices are the latest stored; a sale realizes what the market pays then.';

function lotDto(lot: ValuedLot): LotDto {
  return {
    lot_id: lot.lotId,
    account_id: lot.accountId,
    asset: lot.symbol,
    acquired_at: lot.acquiredAt.toISOString(),
    quantity: lot.quantity,
    basis_known: lot.basisKnown,
    cost_basis_usd: lot.costBasisUsd,
    price_usd: lot.priceUsd,
    price_as_of: lot.priceAsOf?.toISOString() ?? null,
    market_value_usd: lot.marketValueUsd,
    unrealized_gain_usd: lot.unrealizedGainUsd,
    term: lot.term,
    long_term_from: lot.longTermFrom,
  };
}

function scopeDto(scope: LotsScope) {
  return {
    as_of: scope.asOf.toISOString(),
    method: scope.method,
    method_source: scope.methodSource,
    asset: scope.asset,
    account_id: scope.accountId,
    accounts: scope.accounts,
  };
}

export function toLotsReportDto(report: LotsReport): LotsReportDto {
  return {
    ...scopeDto(report),
    lots: report.lots.map(lotDto),
    totals: report.totals.map((total) => ({
      asset: total.symbol,
      lots: total.lots,
      quantity: total.quantity,
      unknown_basis_quantity: total.unknownBasisQuantity,
      cost_basis_usd: total.costBasisUsd,
      market_value_usd: total.marketValueUsd,
      unrealized_gain_usd: total.unrealizedGainUsd,
    })),
    next_cursor: report.nextCursor,
  };
}

export function toHarvestingReportDto(report: HarvestingReport): HarvestingReportDto {
  return {
    ...scopeDto(report),
    min_loss_usd: report.minLossUsd,
    wash_sale: report.washSale,
    candidates: report.candidates.map((candidate) => ({
      ...lotDto(candidate),
      loss_usd: candidate.lossUsd,
      allowable_loss_usd: candidate.allowableLossUsd,
      wash_sale: candidate.washSale
        ? {
            window_from: candidate.washSale.windowFrom.toISOString(),
            replacement_quantity: candidate.washSale.replacementQuantity,
            disallowed_loss_usd: candidate.washSale.disallowedLossUsd,
          }
        : null,
    })),
    short_term_loss_usd: report.shortTermLossUsd,
    long_term_loss_usd: report.longTermLossUsd,
    allowable_loss_usd: report.allowableLossUsd,
    candidate_lots: report.candidateLots,
    unknown_basis_lots: report.unknownBasisLots,
    unpriced_lots: report.unpricedLots,
    note: HARVESTING_NOTE,
    next_cursor: report.nextCursor,
  };
}
