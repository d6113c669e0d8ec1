/**
 * Labels for /qscore/evaluate. Thresholds apply to the published (two-decimal) scores.
 *   grade(qScore):     A ≥ 80, B ≥ 65, C ≥ 50, D ≥ 35, else F
 *   riskLevel(rScore): low < 25, moderate < 50, high < 75, else very_high
 */
export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';
export type RiskLevel = 'low' | 'moderate' | 'high' | 'very_high';

export const GRADE_THRESHOLDS: readonly { readonly grade: Grade; readonly minQScore: number }[] = [
  { grade: 'A', minQScore: 80 },
  { grade: 'B', minQScore: 65 },
  { grade: 'C', minQScore: 50 },
  { grade: 'D', minQScore: 35 },
];

/** Upper bounds (exclusive) of rScore for each level; anything higher is very_high. */
export const RISK_LEVEL_BOUNDS: readonly { readonly level: RiskLevel; readonly belowRScore: number }[] = [
  { level: 'low', belowRScore: 25 },
  { level: 'moderate', belowRScore: 50 },
  { level: 'high', belowRScore: 75 },
];

export function grade(qScore: number): Grade {
  return GRADE_THRESHOLDS.find((t) => qScore >= t.minQScore)?.grade ?? 'F';
}

export function riskLevel(rScore: number): RiskLevel {
  return RISK_LEVEL_BOUNDS.find((b) => rScore < b.belowRScore)?.level ?? 'very_high';
}
