/**
 * For tests only (the lint rule lets test/ import it, never src/): the lot selections and safe
 * harbor services, to drive them without HTTP.
 */
export { LotSelectionsService } from './lot-selections/lot-selections.service.js';
export { SafeHarborService } from './safe-harbor/safe-harbor.service.js';
