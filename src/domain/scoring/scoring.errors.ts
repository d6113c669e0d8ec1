/** Codes of the errors scoring throws; the API layer maps both to 400 in one place. */
export enum ScoringErrorCode {
  /** Allocations empty, negative, not finite, or not summing to 100 (±0.01). */
  InvalidAllocation = 'scoring.invalid_allocation',
  /** An allocation names an asset without scores or covariance data. */
  MissingScoreData = 'scoring.missing_score_data',
}

export class ScoringError extends Error {
  constructor(
    readonly code: ScoringErrorCode,
    message: string,
    /** The offending symbols, when the error is about particular assets. */
    readonly symbols: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ScoringError';
  }
}
