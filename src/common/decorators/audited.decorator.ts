import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';

export const AUDITED = 'audit:action';

/** Where the entry's target (an account) comes from. */
export type AuditTarget =
  /** A path parameter, e.g. `accountId`. */
  | { readonly param: string }
  /** A query parameter, e.g. `account_id` (absent: the tenant as a whole). */
  | { readonly query: string }
  /** A field of the handler's result, e.g. `id` of a linked account. */
  | { readonly result: string }
  /** A top-level field of the JSON body that holds an id, e.g. `account_id` (never a whole body). */
  | { readonly body: string };

export interface AuditedRoute {
  /** Dotted name, e.g. `account.linked`, `account.read.balances`. */
  readonly action: string;
  /** `read`: a read of account data, appended in batches; `write`: appended before the answer goes out. */
  readonly kind: 'read' | 'write';
  readonly target?: AuditTarget;
  /** Query parameters copied into `details` (never a body: bodies may hold credentials). */
  readonly query?: readonly string[];
}

/**
 * Marks a route for the audit trail (docs/audit.md). Every write under `/admin` is recorded even
 * without it (as `admin.write`); this names the action and its target.
 */
export const Audited = (
  action: string,
  options: Omit<AuditedRoute, 'action' | 'kind'> & { kind?: 'read' | 'write' } = {},
) => SetMetadata(AUDITED, { action, kind: options.kind ?? 'write', ...options } satisfies AuditedRoute);

/** A read of account data. */
export const AuditedRead = (action: string, options: Omit<AuditedRoute, 'action' | 'kind'> = {}) =>
  Audited(action, { ...options, kind: 'read' });

/** The service's request id (nestjs-pino's genReqId: X-Request-Id or a new UUID), for audit entries. */
export const RequestId = createParamDecorator((_data: unknown, context: ExecutionContext): string | null => {
  const id = context.switchToHttp().getRequest<{ id?: unknown }>().id;
  return id === undefined || id === null ? null : String(id);
});
