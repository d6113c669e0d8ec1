/** The scoring module's public face: what other modules may import (docs/modules.md). */
export { ScoringModule } from './scoring.module.js';
export { AssetScoringService } from './asset-scoring.service.js';
