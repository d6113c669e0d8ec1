import fc from 'fast-check';
import {
  communityScore,
  deriveScores,
  developerScore,
  liquidityScore,
  publicInterestScore,
  type DerivedScoreInputs,
} from './derived-scores.js';

describe('communityScore: 0.5·log(twitter, 10M) + 0.5·log(reddit, 5M)', () => {
  it.each([
    { twitterFollowers: 10_000_000, redditSubscribers: 5_000_000, expected: 100 },
    { twitterFollowers: 9_999, redditSubscribers: 0, expected: 28.57 },
    { twitterFollowers: 1_000_000, redditSubscribers: 100_000, expected: 80.18 },
    { twitterFollowers: null, redditSubscribers: null, expected: 0 },
    { twitterFollowers: 1e12, redditSubscribers: 1e12, expected: 100 },
  ])('twitter $twitterFollowers, reddit $redditSubscribers → $expected', ({ expected, ...community }) => {
    expect(communityScore(community)).toBe(expected);
  });
});

describe('developerScore', () => {
  it('weights stars .25 (100k), forks .2 (50k), commits/4w .35 (1000), contributors .2 (1000)', () => {
    expect(
      developerScore({ githubStars: 10_000, githubForks: 2_000, commitCount4Weeks: 100, contributors: 50 }),
    ).toBe(68.81);
  });

  it('gives 0 for a project that publishes no developer data', () => {
    expect(
      developerScore({ githubStars: null, githubForks: null, commitCount4Weeks: null, contributors: null }),
    ).toBe(0);
  });
});

describe('liquidityScore: 0.6·turnover points + 0.4·rank points', () => {
  it.each([
    // turnover 3 %: 100·log10(30)/log10(300) = 59.63; rank 10: 66.67
    { volume24hUsd: 3e9, marketCapUsd: 1e11, marketCapRank: 10, expected: 62.45 },
    // turnover ≥ 30 % and rank 1: full marks
    { volume24hUsd: 5e10, marketCapUsd: 1e11, marketCapRank: 1, expected: 100 },
    // turnover ≤ 0.1 % and rank ≥ 1000: nothing
    { volume24hUsd: 1e5, marketCapUsd: 1e9, marketCapRank: 5000, expected: 0 },
    { volume24hUsd: null, marketCapUsd: null, marketCapRank: null, expected: 0 },
    { volume24hUsd: 1e6, marketCapUsd: 0, marketCapRank: 1000, expected: 0 },
  ])(
    'volume $volume24hUsd / cap $marketCapUsd, rank $marketCapRank → $expected',
    ({ expected, ...inputs }) => {
      expect(liquidityScore(inputs)).toBe(expected);
    },
  );
});

describe('publicInterestScore: 0.5·rank points + 0.5·log(twitter + reddit, 15M)', () => {
  it('blends rank and community reach', () => {
    const community = { twitterFollowers: 1_000_000, redditSubscribers: 100_000 };
    expect(publicInterestScore({ marketCapRank: 100, community })).toBe(58.76);
  });
});

describe('derived scores, any input', () => {
  const count = fc.option(fc.double({ min: -1e3, max: 1e13, noNaN: true }), { nil: null });
  const inputs: fc.Arbitrary<DerivedScoreInputs> = fc.record({
    volume24hUsd: count,
    marketCapUsd: count,
    marketCapRank: fc.option(fc.integer({ min: -5, max: 100_000 }), { nil: null }),
    developer: fc.record({
      githubStars: count,
      githubForks: count,
      commitCount4Weeks: count,
      contributors: count,
    }),
    community: fc.record({ twitterFollowers: count, redditSubscribers: count }),
  });

  it('stay within [0, 100] with two decimals', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        for (const score of Object.values(deriveScores(input))) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(100);
          expect(Math.round(score * 100) / 100).toBe(score);
        }
      }),
      { numRuns: 200 },
    );
  });
});
