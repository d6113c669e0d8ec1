/** Service results → response DTOs. Currency text comes from the one shared formatter (design §9). */
import { formatUsd } from '../../domain/money/format.js';
import type {
  AssetGainsDto,
  BoxTotalsDto,
  Form8949Dto,
  GainsReportDto,
  PartTotalsDto,
  TermTotalsDto,
} from './dto/tax-responses.dto.js';
import {
  centsText,
  FIRST_COVERED_ACQUISITION,
  FIRST_DIGITAL_ASSET_BOX_YEAR,
  type BoxTotals,
  type LineTotals,
  type ReadinessReason,
  type BrokerLine,
  type Pairing,
  type ServiceSide,
} from '../../domain/tax/index.js';
import type {
  Form1099DaReport,
  Form8949JsonReport,
  GainsReport,
  TaxReportScope,
} from './tax-report.service.js';
import type {
  BrokerLineDto,
  Form1099DaReconciliationDto,
  PairingDto,
  ServiceSideDto,
} from './dto/form-1099-da.dto.js';

export const WASH_SALE_NOTE =
  'Wash-sale rules (IRC §1091) are not applied: they cover stock and securities, not digital assets.';
const ROUNDING_NOTE =
  'Each Form 8949 line is rounded to cents (half-up) and its gain is proceeds − basis of the rounded amounts; totals are sums of the lines. `exact` holds the unrounded sums, which agree with the balances’ realizedGainLoss.';
const LOTS_NOTE =
  'Lots are kept per account (per-wallet basis, Rev. Proc. 2024-28); a transfer between own accounts keeps the acquisition date and basis.';

const reasons = (list: readonly ReadinessReason[]) =>
  list.map(({ code, count, message }) => ({ code, count, message }));

function termTotals(totals: LineTotals): TermTotalsDto {
  return {
    lines: totals.lines,
    proceeds: formatUsd(totals.proceedsUsd),
    cost_basis: formatUsd(totals.costBasisUsd),
    gains: formatUsd(totals.gainUsd),
  };
}

export function toGainsReportDto(report: GainsReport): GainsReportDto {
  return {
    asset: report.asset,
    net_gains: formatUsd(report.totals.total.gainUsd),
    transactions: report.transactions,
    form_8949: report.readiness.status,
    form_8949_reasons: reasons(report.readiness.reasons),
    short_term: formatUsd(report.totals.shortTerm.gainUsd),
    long_term: formatUsd(report.totals.longTerm.gainUsd),
    short_term_totals: termTotals(report.totals.shortTerm),
    long_term_totals: termTotals(report.totals.longTerm),
    assets: report.assets.map((asset): AssetGainsDto => ({
      asset: asset.symbol,
      transactions: asset.transactions,
      net_gains: formatUsd(asset.total.gainUsd),
      short_term: formatUsd(asset.shortTerm.gainUsd),
      long_term: formatUsd(asset.longTerm.gainUsd),
      proceeds: formatUsd(asset.total.proceedsUsd),
      cost_basis: formatUsd(asset.total.costBasisUsd),
    })),
    exact: {
      net_gains_usd: report.exact.netGainUsd,
      short_term_usd: report.exact.shortTermGainUsd,
      long_term_usd: report.exact.longTermGainUsd,
      proceeds_usd: report.exact.proceedsUsd,
      cost_basis_usd: report.exact.costBasisUsd,
    },
    ordinary_income: formatUsd(report.ordinaryIncomeUsd),
    tax_year: report.taxYear,
    method: report.method,
    method_source: report.methodSource,
    account_id: report.account?.id ?? null,
    accounts: report.accountCount,
    wash_sale_rules_applied: false,
    notes: [WASH_SALE_NOTE, ROUNDING_NOTE, LOTS_NOTE],
  };
}

export function boxAssumption(taxYear: number): string {
  if (taxYear < FIRST_DIGITAL_ASSET_BOX_YEAR) {
    return 'Before 2025: box C (short-term) / F (long-term), transactions not reported to you on Form 1099-B.';
  }
  const wallets = 'own on-chain wallets I / L, not reported on Form 1099-DA';
  if (taxYear < FIRST_COVERED_ACQUISITION.getUTCFullYear()) {
    return `From 2025, digital-asset boxes; no asset is covered before 2026, so no broker reports basis to the IRS: exchange accounts H (short-term) / K (long-term), reported on Form 1099-DA without basis; ${wallets}. Move lines to G / J where a Form 1099-DA shows basis reported to the IRS.`;
  }
  return `Digital-asset boxes. A sale from an exchange account of a lot acquired in that same account on or after 2026-01-01 (bought or received there, never transferred in) is a covered digital asset whose basis the broker reports: G (short-term) / J (long-term). Other exchange sales (lots acquired before 2026, transferred in from another account, or deposited) H / K, reported on Form 1099-DA without basis; ${wallets}. Compare with the broker’s Form 1099-DA and move any line it reports otherwise.`;
}

function partTotals(part: 'I' | 'II', totals: LineTotals): PartTotalsDto {
  return {
    part,
    term: part === 'I' ? 'short' : 'long',
    lines: totals.lines,
    proceeds: centsText(totals.proceedsUsd),
    cost_basis: centsText(totals.costBasisUsd),
    gain: centsText(totals.gainUsd),
  };
}

const boxTotals = (totals: BoxTotals): BoxTotalsDto => ({
  ...partTotals(totals.part, totals),
  box: totals.box,
});

/** The lines come mapped from the worker (toForm8949LineJson); the rest is a few totals. */
export function toForm8949Dto(report: Form8949JsonReport): Form8949Dto {
  return {
    tax_year: report.taxYear,
    asset: report.asset,
    method: report.method,
    method_source: report.methodSource,
    account_id: report.account?.id ?? null,
    form_8949: report.readiness.status,
    form_8949_reasons: reasons(report.readiness.reasons),
    box_assumption: boxAssumption(report.taxYear),
    lines: [...report.lines],
    totals: report.boxTotals.map(boxTotals),
    part_i_totals: partTotals('I', report.totals.shortTerm),
    part_ii_totals: partTotals('II', report.totals.longTerm),
  };
}

/** Attachment name: form-8949-2024.csv, with the asset and account when narrowed. */
export function form8949FileName(
  report: Pick<TaxReportScope, 'taxYear' | 'asset' | 'account'>,
  extension: 'csv' | 'pdf',
): string {
  const parts = ['form-8949', String(report.taxYear)];
  if (report.asset !== 'ALL') parts.push(report.asset.toLowerCase());
  if (report.account) parts.push(report.account.id.slice(0, 8));
  return `${parts.join('-')}.${extension}`;
}

function brokerLineDto(line: BrokerLine): BrokerLineDto {
  return {
    line: line.line,
    asset: line.asset,
    units: line.units,
    date_acquired: line.dateAcquired,
    date_sold: line.dateSold,
    proceeds: line.proceedsUsd,
    cost_basis: line.costBasisUsd,
    term: line.term,
    reference: line.reference,
  };
}

function serviceSideDto(side: ServiceSide): ServiceSideDto {
  return {
    transaction_id: side.transactionId,
    account_id: side.accountId,
    units: side.units,
    date_acquired: side.dateAcquired,
    date_sold: side.dateSold,
    proceeds: side.proceedsUsd,
    cost_basis: side.costBasisUsd,
    term: side.term,
    lines: side.lines,
  };
}

function pairingDto(pairing: Pairing): PairingDto {
  return {
    broker: brokerLineDto(pairing.broker),
    service: serviceSideDto(pairing.service),
    matched_by: pairing.matchedBy,
    differences: pairing.differences.map((d) => ({ ...d })),
  };
}

export function toForm1099DaDto(report: Form1099DaReport): Form1099DaReconciliationDto {
  return {
    tax_year: report.taxYear,
    method: report.method,
    method_source: report.methodSource,
    account_id: report.account?.id ?? null,
    accounts: report.accountCount,
    broker_lines: report.brokerLines,
    service_lines: report.serviceLines,
    counts: {
      matched: report.counts.matched,
      different: report.counts.different,
      unmatched_broker: report.counts.unmatchedBroker,
      unmatched_service: report.counts.unmatchedService,
    },
    broker_proceeds: report.brokerProceedsUsd,
    service_proceeds: report.serviceProceedsUsd,
    matched: report.page.matched.map(pairingDto),
    different: report.page.different.map(pairingDto),
    unmatched_broker: report.page.unmatchedBroker.map(brokerLineDto),
    unmatched_service: report.page.unmatchedService.map(serviceSideDto),
    next_cursor: report.nextCursor,
  };
}
