import { ApiProperty } from '@nestjs/swagger';

export class StatusDto {
  @ApiProperty({
    enum: ['ok', 'degraded'],
    description: '`degraded` when a dependency (the database) is down.',
  })
  status: 'ok' | 'degraded';

  @ApiProperty({ type: 'integer', example: 1234, description: 'Seconds since this instance started.' })
  uptimeSeconds: number;

  @ApiProperty({
    type: 'integer',
    example: 599,
    description: "Requests left in the caller's current rate-limit window, after this one.",
  })
  rateLimitRemaining: number;

  @ApiProperty({ example: '2026.04.1', description: 'Version of the API interface this instance serves.' })
  version: string;
}
