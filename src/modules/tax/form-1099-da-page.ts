/**
 * Pages of a Form 1099-DA reconciliation (issue 27 items 9 and 10; docs/tax-report.md, "Form
 * 1099-DA reconciliation"). Nothing is stored, so the next page is the same POST (the same file and
 * parameters) with the `cursor` of the previous answer: its four lists are cut at the same position,
 * at most `limit` items each, while the counts and totals always cover the whole file.
 *
 * The cursor is signed (CursorCodec: tenant and purpose bound) and carries the position and two
 * digests, so pages never mix two reconciliations: one of the request (the file's text and the
 * parameters; another file is a 400 naming `cursor`) and one of the outcome (who was paired with
 * whom, and the service's figures; a history that changed between two pages is a 400 naming
 * `cursor` too, as for every paged list of the API).
 */
import { createHash } from 'node:crypto';

/** The page sizes of every list made from the whole history (common/pagination/list-page.ts). */
export {
  DEFAULT_LIST_PAGE as DEFAULT_1099_DA_PAGE,
  MAX_LIST_PAGE as MAX_1099_DA_PAGE,
} from '../../common/pagination/list-page.js';
/** Made where the reconciliation is (the compute pool's worker thread): domain/tax. */
export { outcomeDigest, pageOf } from '../../domain/tax/index.js';
export const FORM_1099_DA_CURSOR_PURPOSE = 'form-1099-da';

/** The cursor's content: the position (items into each list) and the two digests. */
export interface Form1099DaPosition {
  readonly o: number;
  readonly f: string;
  readonly r: string;
}

export function isForm1099DaPosition(value: unknown): value is Form1099DaPosition {
  const v = value as Partial<Form1099DaPosition> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    Number.isSafeInteger(v.o) &&
    (v.o as number) > 0 &&
    typeof v.f === 'string' &&
    typeof v.r === 'string'
  );
}

/** 128 bits of SHA-256 as base64url: enough to tell two requests or two outcomes apart. */
const digestOf = (hash: ReturnType<typeof createHash>) => hash.digest().subarray(0, 16).toString('base64url');

/** The file's text and the parameters that decide the outcome (the page size does not). */
export function requestDigest(
  csv: string,
  parameters: { taxYear: number; accountId?: string; identity?: string; method?: string },
): string {
  return digestOf(
    createHash('sha256')
      .update(
        JSON.stringify([
          parameters.taxYear,
          parameters.accountId ?? null,
          parameters.identity ?? null,
          parameters.method ?? null,
        ]),
      )
      .update('\n')
      .update(csv, 'utf8'),
  );
}
