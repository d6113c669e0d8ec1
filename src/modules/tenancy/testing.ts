/**
 * For tests only (the lint rule lets test/ import it, never src/): the client-state cache's
 * timings, to step a test clock across them.
 */
export {
  CLIENT_LOOKUP_SHARED_MS,
  CLIENT_STATE_CACHE_MS,
  CLIENT_STATE_REFRESH_AHEAD_MS,
} from './clients.service.js';
