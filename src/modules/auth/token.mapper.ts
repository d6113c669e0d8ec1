import type { TokenResultDto } from './dto/token.dto.js';
import type { IssuedToken } from './token.service.js';

export function toTokenResult(issued: IssuedToken): TokenResultDto {
  return {
    accessToken: issued.accessToken,
    token: issued.accessToken,
    tokenType: 'Bearer',
    expiresIn: issued.expiresIn,
    // ISO 8601 with an explicit offset, as published ("+00:00", not "Z").
    expiresOn: issued.expiresAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
  };
}
