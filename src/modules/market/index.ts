/** The market module's public face: what other modules may import (docs/modules.md). */
export { MarketModule } from './market.module.js';
export { MarketRefreshService } from './market-refresh.service.js';
export { utcDate, isCalendarDate, addDays, daysBetween } from './market-dates.js';
export { MarketDataService, type AssetScoringData } from './market-data.service.js';
