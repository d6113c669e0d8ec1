/** The audit module's public face (docs/audit.md). */
export { AuditModule } from './audit.module.js';
export { AuditInterceptor } from './audit.interceptor.js';
export {
  AuditService,
  type ActorKind,
  type AuditDraft,
  type AuditEntryRecord,
  type AuditFilters,
  type AuditVerification,
} from './audit.service.js';
export { canonicalJson, canonicalLine, entryHash, ChainWalker, GENESIS_HASH } from './audit-chain.js';
