import { hiddenSlot } from './hidden-slot.js';

describe('hiddenSlot', () => {
  const slot = hiddenSlot<{ a: number; b: string }, { exact: bigint }>('test');

  it('gives back the value a row was given, and nothing for a row made elsewhere', () => {
    const row = { a: 1, b: 'x' };
    slot.set(row, { exact: 10n });
    expect(slot.get(row)).toEqual({ exact: 10n });
    expect(slot.get({ a: 1, b: 'x' })).toBeUndefined();
  });

  it('is invisible to JSON, structured cloning, spreads, keys and equality: a copy has none', () => {
    const row = { a: 1, b: 'x' };
    slot.set(row, { exact: 10n });
    expect(JSON.stringify(row)).toBe('{"a":1,"b":"x"}');
    expect(Object.keys(row)).toEqual(['a', 'b']);
    expect(slot.get({ ...row })).toBeUndefined();
    expect(slot.get(Object.assign({}, row))).toBeUndefined();
    expect(slot.get(structuredClone(row))).toBeUndefined();
    expect(row).toStrictEqual({ a: 1, b: 'x' });
  });

  it('keeps the slots of two kinds apart', () => {
    const other = hiddenSlot<{ a: number; b: string }, { exact: bigint }>('test');
    const row = { a: 1, b: 'x' };
    slot.set(row, { exact: 1n });
    other.set(row, { exact: 2n });
    expect([slot.get(row), other.get(row)]).toEqual([{ exact: 1n }, { exact: 2n }]);
  });
});
