import { createHash } from 'node:crypto';
import {
  canonicalJson,
  canonicalLine,
  ChainWalker,
  entryHash,
  GENESIS_HASH,
  type StoredEntry,
} from './audit-chain.js';

const fields = (sequence: number, overrides: Partial<StoredEntry> = {}) => ({
  sequence: String(sequence),
  occurredAt: '2026-11-24T15:30:05.123Z',
  tenantId: '724e7afe-45b3-5136-9b5f-57ccdf604e21',
  actorKind: 'client',
  actorId: 'sandbox-client',
  action: 'account.read.balances',
  targetKind: 'account',
  targetId: '92d6b2dc-0ff7-52b7-ab56-738707ad6540',
  requestId: 'req-1',
  status: 200,
  details: canonicalJson({ route: '/v1/api/account/:accountId/balances', method: 'GET' }),
  ...overrides,
});

function chain(count: number, anchor = GENESIS_HASH, first = 1): StoredEntry[] {
  const entries: StoredEntry[] = [];
  let prev = anchor;
  for (let i = 0; i < count; i++) {
    const f = fields(first + i);
    const hash = entryHash(f, prev);
    entries.push({ ...f, prevHash: prev, hash });
    prev = hash;
  }
  return entries;
}

const headOf = (entries: StoredEntry[]) => ({
  sequence: entries[entries.length - 1]!.sequence,
  hash: entries[entries.length - 1]!.hash,
});

describe('audit hash chain', () => {
  it('hashes the documented canonical line: a JSON array of the fields, then the previous hash', () => {
    const f = fields(7);
    const line = canonicalLine(f, GENESIS_HASH);
    expect(line).toBe(
      `["7","2026-11-24T15:30:05.123Z","724e7afe-45b3-5136-9b5f-57ccdf604e21","client","sandbox-client","account.read.balances","account","92d6b2dc-0ff7-52b7-ab56-738707ad6540","req-1",200,"{\\"method\\":\\"GET\\",\\"route\\":\\"/v1/api/account/:accountId/balances\\"}","${GENESIS_HASH}"]`,
    );
    expect(entryHash(f, GENESIS_HASH)).toBe(createHash('sha256').update(line, 'utf8').digest('hex'));
  });

  it('canonical JSON sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('a chain written in order verifies', () => {
    const entries = chain(5);
    const walker = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    walker.add(entries.slice(0, 2));
    walker.add(entries.slice(2));
    expect(walker.result(headOf(entries))).toEqual({ valid: true, entries: 5, firstBrokenSequence: null });
  });

  it('names an edited entry', () => {
    const entries = chain(5);
    entries[2] = { ...entries[2]!, actorId: 'someone-else' };
    const walker = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    walker.add(entries);
    expect(walker.result(headOf(entries))).toMatchObject({ valid: false, firstBrokenSequence: '3' });
  });

  it('names the entry after a deleted one, and a missing tail', () => {
    const entries = chain(5);
    const gap = [...entries.slice(0, 2), ...entries.slice(3)];
    const walker = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    walker.add(gap);
    expect(walker.result(headOf(entries))).toMatchObject({ valid: false, firstBrokenSequence: '4' });

    const truncated = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    truncated.add(entries.slice(0, 3));
    expect(truncated.result(headOf(entries))).toMatchObject({ valid: false, firstBrokenSequence: '4' });
  });

  it('an entry re-hashed after an edit breaks the link of the next', () => {
    const entries = chain(4);
    const edited = { ...entries[1]!, status: 500 };
    entries[1] = { ...edited, hash: entryHash(edited, edited.prevHash) };
    const walker = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    walker.add(entries);
    expect(walker.result(headOf(entries))).toMatchObject({ valid: false, firstBrokenSequence: '3' });
  });

  it('verifies from a retention anchor', () => {
    const all = chain(6);
    const kept = all.slice(3);
    const walker = new ChainWalker({ sequence: all[2]!.sequence, hash: all[2]!.hash });
    walker.add(kept);
    expect(walker.result(headOf(all))).toEqual({ valid: true, entries: 3, firstBrokenSequence: null });
    const wrongAnchor = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    wrongAnchor.add(kept);
    expect(wrongAnchor.result(headOf(all))).toMatchObject({ valid: false, firstBrokenSequence: '4' });
  });

  it('an empty chain verifies against its head', () => {
    const walker = new ChainWalker({ sequence: '0', hash: GENESIS_HASH });
    expect(walker.result({ sequence: '0', hash: GENESIS_HASH })).toEqual({
      valid: true,
      entries: 0,
      firstBrokenSequence: null,
    });
  });
});
