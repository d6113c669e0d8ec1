/**
 * The account events port (issue 18, docs/events.md): what the refresh engine and the accounts
 * module tell the outside world about an account. Implemented by the webhooks module (its outbox);
 * the emitters only know this interface, so the layering of docs/modules.md holds (sources and
 * accounts never import webhooks).
 *
 * `record` runs INSIDE the caller's database transaction (`manager` is that transaction's): the
 * event is stored with the change that causes it, or not at all. It never does network I/O.
 */
import type { EntityManager } from 'typeorm';

export const ACCOUNT_EVENTS = Symbol('ACCOUNT_EVENTS');

export const ACCOUNT_EVENT_TYPES = [
  'account.synced',
  'account.sync_failed',
  'account.reconnect_required',
  'account.linked',
  'account.unlinked',
  'balances.updated',
  'transactions.updated',
] as const;

export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

export interface AccountEvent {
  readonly type: AccountEventType;
  readonly tenantId: string;
  readonly accountId: string;
  /** The event's `data` (docs/events.md); plain JSON, decimals as text. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly occurredAt: Date;
}

export interface AccountEventsPort {
  /** Stores the events in the caller's transaction (the outbox); delivery happens later. */
  record(events: readonly AccountEvent[], manager: EntityManager): Promise<void>;
}

/** Where no implementation is wired (e.g. a CLI context without webhooks): events are dropped. */
export const NO_ACCOUNT_EVENTS: AccountEventsPort = { record: async () => undefined };
