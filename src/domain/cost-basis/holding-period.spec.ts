import { holdingTerm } from './holding-period.js';

describe('holdingTerm: long-term iff held more than one year (UTC calendar dates)', () => {
  it.each([
    // acquired, disposed, term
    ['2023-03-01T00:00:00Z', '2024-03-01T23:59:59Z', 'short'], // the anniversary itself: exactly one year
    ['2023-03-01T23:59:59Z', '2024-03-02T00:00:00Z', 'long'], // the day after, whatever the time of day
    ['2023-03-01T00:00:00Z', '2023-03-01T00:00:01Z', 'short'],
    ['2020-06-15T12:00:00Z', '2025-01-01T00:00:00Z', 'long'],
    ['2023-12-31T00:00:00Z', '2024-12-31T00:00:00Z', 'short'],
    ['2023-12-31T00:00:00Z', '2025-01-01T00:00:00Z', 'long'],
    // Feb 29 acquisition: the anniversary in a common year is Feb 28
    ['2024-02-29T00:00:00Z', '2025-02-28T00:00:00Z', 'short'],
    ['2024-02-29T00:00:00Z', '2025-03-01T00:00:00Z', 'long'],
    // Feb 29 to Feb 29 (four years) is long; Feb 28 to the next leap day is past the anniversary
    ['2024-02-29T00:00:00Z', '2028-02-29T00:00:00Z', 'long'],
    ['2023-02-28T00:00:00Z', '2024-02-28T00:00:00Z', 'short'],
    ['2023-02-28T00:00:00Z', '2024-02-29T00:00:00Z', 'long'],
    // dates are UTC: 23:30 in New York on Mar 1 is already Mar 2 in UTC
    ['2023-03-01T12:00:00Z', '2024-03-01T23:30:00-05:00', 'long'],
  ])('acquired %s, disposed %s → %s', (acquired, disposed, term) => {
    expect(holdingTerm(new Date(acquired), new Date(disposed))).toBe(term);
  });
});
