import { boxAssumption } from './tax-report.mapper.js';

describe('box_assumption states the box rule of the year (docs/tax-report.md, "Parts and boxes")', () => {
  it('before 2025: C / F', () => {
    expect(boxAssumption(2024)).toMatch(/box C \(short-term\) \/ F \(long-term\)/);
  });

  it('2025: H / K for exchanges, I / L for own wallets; nothing is covered yet', () => {
    expect(boxAssumption(2025)).toMatch(/no asset is covered before 2026/);
    expect(boxAssumption(2025)).toMatch(/H \(short-term\) \/ K \(long-term\).* I \/ L/);
  });

  it('from 2026: G / J for a lot acquired in the selling exchange account since 2026-01-01, H / K for the rest', () => {
    const text = boxAssumption(2026);
    expect(text).toMatch(
      /exchange account of a lot acquired in that same account on or after 2026-01-01 .* G \(short-term\) \/ J \(long-term\)/,
    );
    expect(text).toMatch(/transferred in from another account.* H \/ K/);
    expect(text).toMatch(/I \/ L/);
    expect(boxAssumption(2030)).toBe(text);
  });
});
