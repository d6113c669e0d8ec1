/** For tests only (the lint rule lets test/ import it, never src/): the lots service, to page lots. */
export { TaxLotsService } from './tax-lots.service.js';
