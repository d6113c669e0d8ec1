export { JobsModule } from './jobs.module.js';
export {
  JobQueue,
  errorMessage,
  deadLetterOf,
  JOB_STATES,
  type JobHandler,
  type JobState,
  type QueueDefinition,
  type QueuedJob,
  type SendOptions,
  type WorkOptions,
} from './job-queue.js';
export {
  JobsAdmin,
  type QueueBacklog,
  type QueueView,
  type JobView,
  type JobPosition,
} from './jobs-admin.js';
