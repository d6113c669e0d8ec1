/**
 * An account's sync state (design §5: the four states clients are told to display) and how the
 * states of several accounts roll up into one.
 */
export type SyncStatus = 'syncing' | 'synced' | 'reconnect_required' | 'error';

export const SYNC_STATUSES: readonly SyncStatus[] = ['syncing', 'synced', 'reconnect_required', 'error'];

/** Worst first: the rolled-up status is the first of these any account has. */
export const SYNC_STATUS_SEVERITY: readonly SyncStatus[] = [
  'reconnect_required',
  'error',
  'syncing',
  'synced',
];

export function rollUpSyncStatus(statuses: readonly SyncStatus[]): SyncStatus {
  return SYNC_STATUS_SEVERITY.find((status) => statuses.includes(status)) ?? 'synced';
}
