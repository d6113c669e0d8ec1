/**
 * A Form 8949 line as the JSON report lists it (GET /taip/form-8949): amounts in cents text, the
 * review flag beside its reason. Made here, in the domain, so the compute pool's worker maps the
 * lines (issue 28: 5,000 lines mapped on the request thread held it ~80 ms) and the request
 * thread only serialises them; the field names are the published API's (docs/tax-report.md).
 */
import { centsText, type Form8949Line } from './form-8949-lines.js';

export interface Form8949LineJson {
  readonly part: Form8949Line['part'];
  readonly box: Form8949Line['box'];
  readonly term: Form8949Line['term'];
  readonly description: string;
  readonly date_acquired: string | null;
  readonly date_sold: string;
  readonly proceeds: string;
  readonly cost_basis: string;
  readonly gain: string;
  readonly asset: string;
  readonly quantity: string;
  readonly account_id: string;
  readonly transaction_id: string;
  readonly needs_review: boolean;
  readonly review_reason: Form8949Line['reviewReason'];
  readonly identified_late: boolean;
}

export function toForm8949LineJson(line: Form8949Line): Form8949LineJson {
  return {
    part: line.part,
    box: line.box,
    term: line.term,
    description: line.description,
    date_acquired: line.dateAcquired,
    date_sold: line.dateSold,
    proceeds: centsText(line.proceedsUsd),
    cost_basis: centsText(line.costBasisUsd),
    gain: centsText(line.gainUsd),
    asset: line.symbol,
    quantity: line.quantity,
    account_id: line.accountId,
    transaction_id: line.transactionId,
    needs_review: line.reviewReason !== null,
    review_reason: line.reviewReason,
    identified_late: line.identifiedLate,
  };
}
