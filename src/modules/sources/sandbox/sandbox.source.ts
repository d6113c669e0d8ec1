import type { SourceDescription } from '../connectors/source-connector.js';
import type { SandboxProfile } from './sandbox-fixtures.js';

export const SANDBOX_PROFILES: readonly SandboxProfile[] = [
  'normal',
  'slow_initial_sync',
  'reconnect_required',
  'outage_after_first_sync',
];

/** The `sandbox` source: synthetic histories, with a profile that plays a sync behaviour. */
export const SANDBOX_SOURCE: SourceDescription = {
  summary: '`sandbox` (synthetic; not in production)',
  synthetic: true,
  options: {
    sandboxProfile: {
      type: 'string',
      enum: SANDBOX_PROFILES,
      description: 'Sandbox source only: how the synthetic source behaves (default normal).',
    },
    syncDelayMinutes: {
      type: 'integer',
      minimum: 0,
      maximum: 1_440,
      description: 'Sandbox slow_initial_sync only: minutes until the initial sync completes (default 15).',
    },
  },
  examples: {
    sandbox: {
      summary: 'Sandbox: a synthetic history, synced within a minute (not in production)',
      body: { platform: 'coinbase', source: 'sandbox', sandboxProfile: 'normal' },
    },
  },
};
