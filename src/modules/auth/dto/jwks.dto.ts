import { ApiProperty } from '@nestjs/swagger';

/** One public key (RFC 7517, EC P-256). */
export class JwkDto {
  @ApiProperty({ enum: ['EC'], description: 'Key type.' })
  kty: string;

  @ApiProperty({ enum: ['P-256'], description: 'Curve.' })
  crv: string;

  @ApiProperty({ description: 'X coordinate, base64url.' })
  x: string;

  @ApiProperty({ description: 'Y coordinate, base64url.' })
  y: string;

  @ApiProperty({ description: 'Key id: the `kid` header of the tokens it verifies.' })
  kid: string;

  @ApiProperty({ enum: ['ES256'], description: 'Algorithm.' })
  alg: 'ES256';

  @ApiProperty({ enum: ['sig'], description: 'Use: signatures.' })
  use: 'sig';
}

export class JwksDto {
  @ApiProperty({
    type: [JwkDto],
    description: 'Every key that verifies tokens now (several while keys rotate).',
  })
  keys: JwkDto[];
}
