import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MaxLength } from 'class-validator';
import { toInteger } from '../../../common/validation/query-transforms.js';
import { JOB_STATES, type JobState } from '../../jobs/index.js';

export const MAX_JOBS_PAGE_SIZE = 200;
export const DEFAULT_JOBS_PAGE_SIZE = 50;

export class JobCountsDto {
  @ApiProperty({ type: 'integer', description: 'Waiting for their first attempt (or their start time).' })
  created: number;

  @ApiProperty({ type: 'integer', description: 'Failed an attempt; waiting for the retry (backoff).' })
  retry: number;

  @ApiProperty({ type: 'integer', description: 'Running on a worker now.' })
  active: number;

  @ApiProperty({ type: 'integer', description: 'Finished (kept for the queue’s retention, then deleted).' })
  completed: number;

  @ApiProperty({ type: 'integer', description: 'Cancelled.' })
  cancelled: number;

  @ApiProperty({
    type: 'integer',
    description: 'Failed their last retry (a copy waits in the dead letter queue, when the queue has one).',
  })
  failed: number;
}

export class QueueDto {
  @ApiProperty({
    example: 'refresh.account.sandbox',
    description: 'The queue’s name (docs/jobs.md lists them).',
  })
  name: string;

  @ApiProperty({
    example: 'exclusive',
    description:
      'pg-boss queue policy: `standard`; `short` (one waiting job per key); `exclusive` (one waiting or running job per key).',
  })
  policy: string;

  @ApiProperty({ type: 'integer', description: 'Retries after the first attempt before the job fails.' })
  retryLimit: number;

  @ApiProperty({ type: 'integer', description: 'First retry delay in seconds.' })
  retryDelaySeconds: number;

  @ApiProperty({ description: 'Whether the retry delay doubles per retry (with jitter).' })
  retryBackoff: boolean;

  @ApiProperty({
    type: 'integer',
    description: 'A job running longer than this (seconds) is failed and retried.',
  })
  expireInSeconds: number;

  @ApiProperty({ type: JobCountsDto, description: 'Jobs by state.' })
  counts: JobCountsDto;

  @ApiProperty({
    nullable: true,
    type: String,
    example: 'refresh.account.sandbox.dead',
    description: 'Its dead letter queue, where jobs go when their retries ran out; null when it has none.',
  })
  deadLetterQueue: string | null;

  @ApiProperty({
    type: 'integer',
    description: 'Jobs waiting in the dead letter queue (not yet re-queued or deleted); 0 without one.',
  })
  deadLetterCount: number;
}

export class QueueListDto {
  @ApiProperty({ type: [QueueDto], description: 'Every queue, by name.' })
  queues: QueueDto[];
}

export class JobsQueryDto {
  @ApiPropertyOptional({ enum: JOB_STATES, description: 'Only jobs in this state.' })
  @IsOptional()
  @IsIn(JOB_STATES, { message: `state must be one of ${JOB_STATES.join(', ')}.` })
  state?: JobState;

  @ApiPropertyOptional({
    type: 'integer',
    description: `Page size, default ${DEFAULT_JOBS_PAGE_SIZE}, at most ${MAX_JOBS_PAGE_SIZE}.`,
    minimum: 1,
    maximum: MAX_JOBS_PAGE_SIZE,
    default: DEFAULT_JOBS_PAGE_SIZE,
  })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'limit must be an integer.' })
  @Min(1, { message: 'limit must be at least 1.' })
  @Max(MAX_JOBS_PAGE_SIZE, { message: `limit must be at most ${MAX_JOBS_PAGE_SIZE}.` })
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page (opaque, tamper-evident).' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export class JobDto {
  @ApiProperty({ format: 'uuid', description: 'The job’s id (for the retry).' })
  id: string;

  @ApiProperty({ enum: JOB_STATES, description: 'Where the job is (see QueueDto.counts).' })
  state: JobState;

  @ApiProperty({ type: 'integer', description: 'Retries so far.' })
  retryCount: number;

  @ApiProperty({ type: 'integer', description: 'Retries allowed before it fails.' })
  retryLimit: number;

  @ApiProperty({ format: 'date-time', description: 'When it was enqueued.' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    description: 'Not run before this (a retry’s backoff, a delayed job).',
  })
  startAfter: string;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When its last attempt started.',
  })
  startedAt: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When it completed or failed.',
  })
  completedAt: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The last failed attempt’s error message (at most 500 characters; never a stack or the job’s data).',
  })
  lastError: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'For a job in a dead letter queue: the queue it failed on (a retry sends it back there).',
  })
  sourceQueue: string | null;
}

export class JobListDto {
  @ApiProperty({
    type: [JobDto],
    description: 'Newest first. A job’s data is never shown (it may name accounts).',
  })
  jobs: JobDto[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', nullable: true, type: String })
  nextCursor: string | null;
}
