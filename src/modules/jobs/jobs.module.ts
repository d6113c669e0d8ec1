/**
 * The job queue (issue 18 item 3, docs/jobs.md): pg-boss over the service's DataSource. Owns the
 * schema AppConfig.jobsSchema (pg-boss creates and migrates it itself). Calls nobody but the
 * database; the sources, market and webhooks modules define their queues and workers on it, the
 * admin module reads it (GET /admin/queues).
 */
import { Module } from '@nestjs/common';
import { JobQueue } from './job-queue.js';
import { JobsAdmin } from './jobs-admin.js';

@Module({
  providers: [JobQueue, JobsAdmin],
  exports: [JobQueue, JobsAdmin],
})
export class JobsModule {}
