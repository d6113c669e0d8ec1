/**
 * The four 0–100 scores CoinGecko stopped publishing in December 2023
 * (community_score, developer_score, liquidity_score, public_interest_score), derived
 * here from raw fields `/coins/{id}` still returns: developer_data, community_data,
 * market_cap_rank, market_data.total_volume.usd and market_data.market_cap.usd.
 *
 * Deterministic, no I/O. These are OUR formulas, not CoinGecko's retired ones; the
 * constants and their reasoning are in docs/scoring.md. Missing (null) counts are
 * treated as zero: a project that publishes nothing gets no credit for it.
 */
import { clamp01, logScaled, rankScaled, roundScore } from '../scoring/score-scale.js';

/** developer_data of CoinGecko's `/coins/{id}` (github_stars→githubStars, …). */
export interface DeveloperData {
  readonly githubStars: number | null;
  readonly githubForks: number | null;
  /** commit_count_4_weeks */
  readonly commitCount4Weeks: number | null;
  /** pull_request_contributors */
  readonly contributors: number | null;
}

/** community_data of CoinGecko's `/coins/{id}`. */
export interface CommunityData {
  readonly twitterFollowers: number | null;
  readonly redditSubscribers: number | null;
}

export interface LiquidityInputs {
  readonly volume24hUsd: number | null;
  readonly marketCapUsd: number | null;
  readonly marketCapRank: number | null;
}

export interface DerivedScoreInputs extends LiquidityInputs {
  readonly developer: DeveloperData;
  readonly community: CommunityData;
}

export interface DerivedScores {
  readonly communityScore: number;
  readonly developerScore: number;
  readonly liquidityScore: number;
  readonly publicInterestScore: number;
}

/** Full-scale points (score 100 for that part) and weights; see docs/scoring.md. */
export const DERIVED_SCORE_CONSTANTS = {
  community: {
    twitterFullScale: 10_000_000,
    redditFullScale: 5_000_000,
    twitterWeight: 0.5,
    redditWeight: 0.5,
  },
  developer: {
    starsFullScale: 100_000,
    forksFullScale: 50_000,
    commits4WeeksFullScale: 1_000,
    contributorsFullScale: 1_000,
    starsWeight: 0.25,
    forksWeight: 0.2,
    commitsWeight: 0.35,
    contributorsWeight: 0.2,
  },
  liquidity: { turnoverFloor: 0.001, turnoverFullScale: 0.3, turnoverWeight: 0.6, rankWeight: 0.4 },
  publicInterest: { reachFullScale: 15_000_000, rankWeight: 0.5, reachWeight: 0.5 },
} as const;

export function communityScore(community: CommunityData): number {
  const c = DERIVED_SCORE_CONSTANTS.community;
  return roundScore(
    c.twitterWeight * logScaled(community.twitterFollowers, c.twitterFullScale) +
      c.redditWeight * logScaled(community.redditSubscribers, c.redditFullScale),
  );
}

export function developerScore(developer: DeveloperData): number {
  const c = DERIVED_SCORE_CONSTANTS.developer;
  return roundScore(
    c.starsWeight * logScaled(developer.githubStars, c.starsFullScale) +
      c.forksWeight * logScaled(developer.githubForks, c.forksFullScale) +
      c.commitsWeight * logScaled(developer.commitCount4Weeks, c.commits4WeeksFullScale) +
      c.contributorsWeight * logScaled(developer.contributors, c.contributorsFullScale),
  );
}

/**
 * Daily turnover (24h volume / market cap), log-scaled between 0.1 % (0 points) and 30 %
 * (100 points), blended with the market-cap rank: deep markets trade a large share of
 * their value every day, and large caps are easy to enter and leave.
 */
export function liquidityScore(inputs: LiquidityInputs): number {
  const c = DERIVED_SCORE_CONSTANTS.liquidity;
  const volume = inputs.volume24hUsd ?? 0;
  const marketCap = inputs.marketCapUsd ?? 0;
  const turnover = marketCap > 0 && volume > 0 ? volume / marketCap : 0;
  const turnoverPoints =
    turnover > 0
      ? 100 *
        clamp01(Math.log10(turnover / c.turnoverFloor) / Math.log10(c.turnoverFullScale / c.turnoverFloor))
      : 0;
  return roundScore(c.turnoverWeight * turnoverPoints + c.rankWeight * rankScaled(inputs.marketCapRank));
}

/** Rank (how much of the market notices it) and community reach (twitter + reddit). */
export function publicInterestScore(inputs: {
  readonly marketCapRank: number | null;
  readonly community: CommunityData;
}): number {
  const c = DERIVED_SCORE_CONSTANTS.publicInterest;
  const reach = (inputs.community.twitterFollowers ?? 0) + (inputs.community.redditSubscribers ?? 0);
  return roundScore(
    c.rankWeight * rankScaled(inputs.marketCapRank) + c.reachWeight * logScaled(reach, c.reachFullScale),
  );
}

export function deriveScores(inputs: DerivedScoreInputs): DerivedScores {
  return {
    communityScore: communityScore(inputs.community),
    developerScore: developerScore(inputs.developer),
    liquidityScore: liquidityScore(inputs),
    publicInterestScore: publicInterestScore(inputs),
  };
}
