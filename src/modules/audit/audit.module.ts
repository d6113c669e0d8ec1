import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { READ_AUDIT } from '../../common/ports/read-audit.port.js';
import { TenancyModule } from '../tenancy/index.js';
import { AuditController } from './audit.controller.js';
import { AuditInterceptor } from './audit.interceptor.js';
import { AuditScheduler } from './audit.scheduler.js';
import { AuditService } from './audit.service.js';
import { AuditTransactionSubscriber } from './audit-transaction.subscriber.js';

/**
 * The audit trail (issue 18 item 4, docs/audit.md).
 *
 * Owns: the `audit_entry` table and its chain head `audit_chain` (append-only, hash-chained), the
 * global interceptor that records audited routes and admin writes, the retention job and the
 * admin API `/admin/audit`. Global: any module may append (AuditService.append, in its own
 * transaction) and whatever answers a read without the interceptor records it through READ_AUDIT. Calls
 * nobody but the database, and `tenancy` for the tenant a `/admin/audit` filter names by slug.
 */
@Global()
@Module({
  imports: [TenancyModule],
  controllers: [AuditController],
  providers: [
    AuditService,
    AuditScheduler,
    AuditTransactionSubscriber,
    { provide: READ_AUDIT, useExisting: AuditService },
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [AuditService, READ_AUDIT],
})
export class AuditModule {}
