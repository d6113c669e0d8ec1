import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

export class ChecksumQueryDto {
  @ApiPropertyOptional({ description: 'Only accounts on this platform.', example: 'coinbase' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  platform?: string;

  @ApiPropertyOptional({ description: 'Only the account of this collection (UUID).', format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'collectionId must be a UUID.' })
  collectionId?: string;

  @ApiPropertyOptional({ description: 'Only the account with this partner identity.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  identity?: string;
}

export class ChecksumResultDto {
  @ApiProperty({
    description: 'SHA-256 over the canonical transaction lines, lower-case hex (docs/checksum.md).',
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  })
  checksum: string;

  @ApiProperty({ description: 'When the service computed it (ISO 8601).' })
  computedAt: string;

  @ApiProperty({ type: 'integer', description: 'Number of transactions (lines) hashed.' })
  rowCount: number;
}
