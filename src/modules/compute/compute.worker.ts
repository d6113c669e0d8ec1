/**
 * Worker-thread entry of the compute pool (ComputePool, piscina): runs one task of
 * compute-tasks.ts on plain data and answers plain data. compute-tasks.ts imports only
 * src/domain, so a worker loads no framework, database or configuration.
 */
import { runComputeTask, type ComputeOutcome, type ComputeTask } from './compute-tasks.js';

export default async function computeInWorker(task: ComputeTask): Promise<ComputeOutcome> {
  return runComputeTask(task);
}
