/** The portfolios module's public face: what other modules may import (docs/modules.md). */
export { PortfoliosModule } from './portfolios.module.js';
export { PortfoliosService, type PortfolioWithScore } from './portfolios.service.js';
