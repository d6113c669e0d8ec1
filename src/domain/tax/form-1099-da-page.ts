/**
 * A Form 1099-DA reconciliation's page and outcome digest (modules/tax/form-1099-da-page.ts owns
 * the cursor): made where the reconciliation is made, so only the page leaves a worker thread.
 */
import { createHash } from 'node:crypto';
import type { Form1099DaReconciliation, ServiceSide } from './form-1099-da.js';

/** 128 bits of SHA-256 as base64url: enough to tell two outcomes apart. */
const digestOf = (hash: ReturnType<typeof createHash>) => hash.digest().subarray(0, 16).toString('base64url');

/** Who was paired with whom and how, what is left on either side, with the service's figures. */
export function outcomeDigest(reconciliation: Form1099DaReconciliation): string {
  const hash = createHash('sha256');
  const side = (s: ServiceSide) =>
    `${s.accountId}/${s.transactionId}|${s.units}|${s.dateAcquired}|${s.proceedsUsd}|${s.costBasisUsd}|${s.term}|${s.lines}`;
  for (const p of [...reconciliation.matched, ...reconciliation.different]) {
    hash.update(`p ${p.broker.line} ${p.matchedBy} ${side(p.service)}\n`);
  }
  for (const b of reconciliation.unmatchedBroker) hash.update(`b ${b.line}\n`);
  for (const s of reconciliation.unmatchedService) hash.update(`s ${side(s)}\n`);
  hash.update(`${reconciliation.brokerProceedsUsd} ${reconciliation.serviceProceedsUsd}`);
  return digestOf(hash);
}

/** The lists' items [offset, offset + limit), and whether any list has more. */
export function pageOf(
  reconciliation: Form1099DaReconciliation,
  offset: number,
  limit: number,
): {
  page: Pick<Form1099DaReconciliation, 'matched' | 'different' | 'unmatchedBroker' | 'unmatchedService'>;
  more: boolean;
} {
  const lists = [
    reconciliation.matched,
    reconciliation.different,
    reconciliation.unmatchedBroker,
    reconciliation.unmatchedService,
  ];
  const end = offset + limit;
  return {
    page: {
      matched: reconciliation.matched.slice(offset, end),
      different: reconciliation.different.slice(offset, end),
      unmatchedBroker: reconciliation.unmatchedBroker.slice(offset, end),
      unmatchedService: reconciliation.unmatchedService.slice(offset, end),
    },
    more: lists.some((list) => list.length > end),
  };
}
