import { rollUpSyncStatus } from './sync-status.js';

describe('rollUpSyncStatus', () => {
  it.each([
    [['synced', 'synced'], 'synced'],
    [['synced', 'syncing'], 'syncing'],
    [['syncing', 'error', 'synced'], 'error'],
    [['error', 'reconnect_required', 'syncing'], 'reconnect_required'],
    [['reconnect_required'], 'reconnect_required'],
    [[], 'synced'],
  ] as const)('%j → %s (worst first)', (statuses, expected) => {
    expect(rollUpSyncStatus(statuses)).toBe(expected);
  });
});
