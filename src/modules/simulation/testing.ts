/**
 * For tests only (the lint rule lets test/ import it, never src/): the stored history the
 * simulation and the ROI projection read, and its window.
 */
export { HISTORY_LOOKBACK_YEARS, MarketHistoryService } from './market-history.service.js';
