/** The aggregation module's public face: what other modules may import (docs/modules.md). */
export { AggregationModule } from './aggregation.module.js';
