export enum SimulationErrorCode {
  InvalidInput = 'SIMULATION_INVALID_INPUT',
  NotPositiveDefinite = 'SIMULATION_NOT_POSITIVE_DEFINITE',
  InsufficientHistory = 'SIMULATION_INSUFFICIENT_HISTORY',
}

/** Raised by the simulation and ROI code; the HTTP layer maps `code` to a status. */
export class SimulationError extends Error {
  constructor(
    readonly code: SimulationErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SimulationError';
  }
}

export function invalidInput(message: string): SimulationError {
  return new SimulationError(SimulationErrorCode.InvalidInput, message);
}
