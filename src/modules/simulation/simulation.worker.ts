/**
 * Worker-thread entry of the simulation pool (SimulationPool, piscina): runs the pure simulator on
 * plain data (returns, weights, seed, sizes) and answers plain data. Imports only src/domain, so a
 * worker loads no framework, database or configuration. The same function the request's thread
 * ran before, so the same input gives the same figures bit for bit (doubles survive the
 * structured clone exactly).
 */
import {
  simulatePortfolio,
  type SimulationInput,
  type SimulationResult,
} from '../../domain/simulation/monte-carlo.js';
import { SimulationError, type SimulationErrorCode } from '../../domain/simulation/simulation-error.js';

/** A SimulationError would reach the other thread as a plain Error without its code: it is sent as data. */
export type WorkerOutcome =
  | { readonly ok: true; readonly result: SimulationResult }
  | { readonly ok: false; readonly code: SimulationErrorCode; readonly message: string };

export default function simulateInWorker(input: SimulationInput): WorkerOutcome {
  try {
    return { ok: true, result: simulatePortfolio(input) };
  } catch (error) {
    if (error instanceof SimulationError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
