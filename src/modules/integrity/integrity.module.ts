/**
 * Integrity (design §6): the partner-reproducible checksum of a tenant's transactions. Reads the
 * accounts module's transactions; never writes anything.
 */
import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/index.js';
import { ChecksumLinesRepository } from './checksum-lines.repository.js';
import { ChecksumController } from './checksum.controller.js';
import { ChecksumService } from './checksum.service.js';

@Module({
  imports: [LedgerModule],
  controllers: [ChecksumController],
  providers: [ChecksumService, ChecksumLinesRepository],
  exports: [ChecksumService],
})
export class IntegrityModule {}
