/** For tests only (the lint rule lets test/ import it, never src/): the queue, the tasks and the worker's file. */
export { FairQueue, type FairQueueLimits } from './fair-queue.js';
export { computeWorkerFilename } from './compute-pool.js';
export { runComputeTask, type ComputeTask } from './compute-tasks.js';
export { HEAVY_WORK_RETRY_AFTER_SECONDS } from './heavy-work-admission.js';
