/**
 * The audit trail's hash chain (docs/audit.md, "Hash chain"): pure functions, no I/O.
 *
 * Each entry's hash is SHA-256 (lower-case hex) over the UTF-8 bytes of its canonical line:
 * `JSON.stringify` of an array of its fields in a fixed order, ending with the previous entry's
 * hash. `details` enters as the exact canonical JSON text stored in the row (keys sorted at every
 * level), so a verifier hashes the stored text and never re-serializes an object.
 */
import { hash } from 'node:crypto';

/** The previous hash of the first entry ever written (before any prune). */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers, as stored. */
export interface ChainedFields {
  /** Decimal text: the position in the one chain of the service (1, 2, …). */
  readonly sequence: string;
  /** ISO 8601 UTC with milliseconds, e.g. 2026-11-24T15:30:05.123Z. */
  readonly occurredAt: string;
  readonly tenantId: string | null;
  readonly actorKind: string;
  readonly actorId: string;
  readonly action: string;
  readonly targetKind: string | null;
  readonly targetId: string | null;
  readonly requestId: string | null;
  readonly status: number | null;
  /** Canonical JSON text (canonicalJson). */
  readonly details: string;
}

/** The line that is hashed: a JSON array of the fields in this order, then the previous hash. */
export function canonicalLine(fields: ChainedFields, prevHash: string): string {
  return JSON.stringify([
    fields.sequence,
    fields.occurredAt,
    fields.tenantId,
    fields.actorKind,
    fields.actorId,
    fields.action,
    fields.targetKind,
    fields.targetId,
    fields.requestId,
    fields.status,
    fields.details,
    prevHash,
  ]);
}

export function entryHash(fields: ChainedFields, prevHash: string): string {
  return lineHash(canonicalLine(fields, prevHash));
}

/** SHA-256, lower-case hex, of a canonical line's UTF-8 bytes (one-shot: no Hash object per entry). */
export function lineHash(line: string): string {
  return hash('sha256', line, 'hex');
}

/** JSON with object keys sorted (by UTF-16 code units, as Array.prototype.sort) at every level. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) sorted[key] = sortKeys(item);
    }
    return sorted;
  }
  return value;
}

export interface StoredEntry extends ChainedFields {
  readonly prevHash: string;
  readonly hash: string;
}

/** Where a walk of the chain stands; feed pages of entries in sequence order. */
export class ChainWalker {
  private expectedSequence: bigint;
  private expectedPrev: string;
  private count = 0;
  private broken: string | null = null;

  /** `anchor`: the sequence and hash of the last pruned entry (0 and GENESIS_HASH before any prune). */
  constructor(anchor: { sequence: string; hash: string }) {
    this.expectedSequence = BigInt(anchor.sequence) + 1n;
    this.expectedPrev = anchor.hash;
  }

  /** Checks the next entries; stops at the first broken link (later pages are then ignored). */
  add(entries: readonly StoredEntry[]): void {
    for (const entry of entries) {
      if (this.broken !== null) return;
      this.count++;
      if (
        BigInt(entry.sequence) !== this.expectedSequence ||
        entry.prevHash !== this.expectedPrev ||
        entryHash(entry, entry.prevHash) !== entry.hash
      ) {
        this.broken = entry.sequence;
        return;
      }
      this.expectedSequence += 1n;
      this.expectedPrev = entry.hash;
    }
  }

  /**
   * The verdict. `head`: the chain head row (last sequence and hash appended); an entry missing
   * at the end shows as a head the walk did not reach.
   */
  result(head: { sequence: string; hash: string }): {
    valid: boolean;
    entries: number;
    firstBrokenSequence: string | null;
  } {
    let broken = this.broken;
    if (
      broken === null &&
      (BigInt(head.sequence) !== this.expectedSequence - 1n || head.hash !== this.expectedPrev)
    ) {
      broken = String(this.expectedSequence);
    }
    return { valid: broken === null, entries: this.count, firstBrokenSequence: broken };
  }
}
