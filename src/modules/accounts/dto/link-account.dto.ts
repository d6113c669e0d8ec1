/**
 * The partner link flow's bodies (issue 15): POST /v1/api/accounts and PUT
 * /v1/api/accounts/{id}/credentials. The admin API's reconnect takes the same credentials body.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID, Matches, MaxLength, Validate } from 'class-validator';
import { IDENTITY_MAX_LENGTH, IsAccountIdentity } from '../../../common/validation/account-identity.js';
import { CredentialsShape } from './admin-accounts.dto.js';

const CREDENTIALS_DESCRIPTION =
  'Read-only API credentials of an exchange account, for platforms linked with credentials: `apiKey` and `secret` (or `apiSecret`), plus `password` (or `passphrase`; OKX) and `uid` where the exchange needs them; any other field is a 400. Checked with the source before the answer where it can; encrypted at rest (AES-256-GCM); never returned or logged.';

export class LinkAccountDto {
  @ApiProperty({
    description:
      'Platform of the account, lower-case: `bitcoin` (address or xpub), an EVM chain `ethereum`, `base`, `arbitrum`, `optimism` or `polygon` (address), `solana` (address), or an exchange linked with read-only API credentials through ccxt: `coinbase`, `kraken`, `gemini`, `binanceus`, `bitstamp`, `okx`, and the ccxt exchange ids the operator allows (EXCHANGE_GENERIC_IDS). An unknown platform is a 400 listing the known ones. With `source: "csv"`, any platform (where the uploaded files come from, e.g. `coinbase`, `robinhood`).',
    example: 'bitcoin',
  })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9._-]{1,63}$/, { message: 'platform must be 2-64 characters of a-z 0-9 . _ -' })
  platform: string;

  @ApiPropertyOptional({
    description:
      "Only `csv`: an account whose transactions arrive in files the partner uploads (`POST /v1/api/accounts/{accountId}/import`: an exchange export or the service's CSV); send none of `credentials`, `address`, `xpub`. Absent: the source serving `platform`. Any other value is a 400 naming `source`.",
    example: 'csv',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  source?: string;

  @ApiProperty({
    description:
      "The partner's identifier for the account, unique per tenant (a duplicate is a 409). 1-200 characters with at least one visible one; no control characters and no bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069): otherwise a 400 naming `identity`.",
    example: 'household-1001/cold-wallet',
    minLength: 1,
    maxLength: IDENTITY_MAX_LENGTH,
  })
  @IsAccountIdentity()
  identity: string;

  @ApiPropertyOptional({
    description: 'Collection id (UUID) of the end client connection; generated when absent.',
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID('all', { message: 'collectionId must be a UUID.' })
  collectionId?: string;

  @ApiPropertyOptional({
    description: CREDENTIALS_DESCRIPTION,
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsOptional()
  @IsObject()
  @Validate(CredentialsShape)
  credentials?: Record<string, string>;

  @ApiPropertyOptional({
    description:
      'A watched on-chain address of the platform’s chain (bitcoin: any mainnet address type, checksum checked; ethereum, base, arbitrum, optimism, polygon: 0x + 40 hex digits, EIP-55 checksum checked when mixed case).',
    example: '0x52908400098527886E0F7030069857D2E4169EE7',
    maxLength: 128,
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  address?: string;

  @ApiPropertyOptional({
    description:
      'Bitcoin only: an account-level extended PUBLIC key (xpub BIP44, ypub BIP49, zpub BIP84); its receive and change addresses are watched with a gap limit of 20. A private key (xprv…) is refused.',
    example:
      'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
    maxLength: 120,
  })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  @Matches(/^[1-9A-HJ-NP-Za-km-z]+$/, { message: 'xpub must be a base58 extended public key.' })
  xpub?: string;
}

export class ReconnectCredentialsDto {
  @ApiProperty({
    description: CREDENTIALS_DESCRIPTION,
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsObject({ message: 'credentials is required: an object of string fields.' })
  @Validate(CredentialsShape)
  credentials: Record<string, string>;
}
