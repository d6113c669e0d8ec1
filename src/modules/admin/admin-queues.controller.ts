import { Audited } from '../../common/decorators/audited.decorator.js';
import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentClient, Scopes } from '../../common/decorators/auth.decorators.js';
import type { AuthenticatedClient } from '../../common/http/request-context.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { CursorCodec } from '../../common/pagination/cursor-codec.js';
import { UuidParam } from '../../common/validation/validation.js';
import { JobsAdmin, type JobPosition, type JobView, type QueueView } from '../jobs/index.js';
import {
  DEFAULT_JOBS_PAGE_SIZE,
  JobDto,
  JobListDto,
  JobsQueryDto,
  QueueListDto,
  type QueueDto,
} from './dto/admin-queues.dto.js';
import { PatternParam } from './pattern-param.js';

export const QUEUE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const QueueNameParam = () =>
  PatternParam('name', QUEUE_NAME_PATTERN, 'name must be a queue name (a-z 0-9 . _ -, at most 100).');
const CURSOR_PURPOSE = 'admin-queue-jobs';

const isPosition = (value: unknown): value is JobPosition & { queue: string } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as JobPosition).createdAt === 'string' &&
  typeof (value as JobPosition).id === 'string' &&
  typeof (value as { queue?: unknown }).queue === 'string';

/**
 * The job queue for the internal admin team (docs/jobs.md, "The admin view"): queues and their
 * counts, a queue's jobs (never their data), re-queueing a failed or dead-lettered job.
 */
@ApiTags('Admin: job queue')
@Controller('admin/queues')
@Scopes('admin')
export class AdminQueuesController {
  constructor(
    private readonly jobs: JobsAdmin,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Job queues',
    description:
      'Every queue of the job queue (docs/jobs.md): its policy and retry settings, its jobs counted by state, and its dead letter queue with the jobs waiting there.',
  })
  @ApiOkResponse({ type: QueueListDto })
  async list(): Promise<QueueListDto> {
    return { queues: (await this.jobs.queues()).map(toQueueDto) };
  }

  @Get(':name/jobs')
  @ApiOperation({
    summary: 'A queue’s jobs, newest first (cursor-paginated)',
    description:
      'Id, state, retries, times and the last error of each job; never the job’s data. `state=failed` lists the jobs whose retries ran out.',
  })
  @ApiOkResponse({ type: JobListDto })
  @ApiBadRequestResponse({
    description: 'name malformed, state unknown, limit out of range or cursor invalid (named in errors).',
  })
  @ApiNotFoundResponse({ description: 'No such queue.' })
  async jobsOf(
    @CurrentClient() client: AuthenticatedClient,
    @QueueNameParam() name: string,
    @Query() query: JobsQueryDto,
  ): Promise<JobListDto> {
    let after: JobPosition | undefined;
    if (query.cursor) {
      const position = await this.cursors.decode(client.tenantId, CURSOR_PURPOSE, query.cursor, isPosition);
      if (position.queue !== name)
        throw DomainError.validation('cursor', 'cursor belongs to another queue; start again without it.');
      after = { createdAt: position.createdAt, id: position.id };
    }
    const page = await this.jobs.jobs(name, {
      state: query.state,
      limit: query.limit ?? DEFAULT_JOBS_PAGE_SIZE,
      after,
    });
    return {
      jobs: page.jobs.map(toJobDto),
      nextCursor: page.next
        ? await this.cursors.encode(client.tenantId, CURSOR_PURPOSE, { ...page.next, queue: name })
        : null,
    };
  }

  @Post(':name/jobs/:id/retry')
  @Audited('job.retried')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Re-queue a failed or dead-lettered job',
    description:
      'A failed job is retried in its queue; a job in a dead letter queue (`…​.dead`) is moved back onto the queue it failed on, with its retries reset. The job runs on the next free worker.',
  })
  @ApiOkResponse({ type: JobDto, description: 'The job, re-queued.' })
  @ApiBadRequestResponse({ description: 'name malformed or id not a UUID (named in errors).' })
  @ApiNotFoundResponse({ description: 'No such queue, or no such job in it.' })
  @ApiConflictResponse({
    description: 'The job is not failed or dead-lettered (it is waiting, running or done).',
  })
  async retry(@QueueNameParam() name: string, @UuidParam('id') id: string): Promise<JobDto> {
    return toJobDto(await this.jobs.retry(name, id));
  }
}

function toQueueDto(queue: QueueView): QueueDto {
  const { deadLetter, ...rest } = queue;
  return {
    ...rest,
    counts: { ...queue.counts },
    deadLetterQueue: deadLetter?.name ?? null,
    deadLetterCount: deadLetter?.count ?? 0,
  };
}

function toJobDto(job: JobView): JobDto {
  return {
    id: job.id,
    state: job.state,
    retryCount: job.retryCount,
    retryLimit: job.retryLimit,
    createdAt: job.createdAt.toISOString(),
    startAfter: job.startAfter.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    completedAt: job.completedAt?.toISOString() ?? null,
    lastError: job.lastError,
    sourceQueue: job.sourceQueue,
  };
}
