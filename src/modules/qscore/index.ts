/** The qscore module's public face: what other modules may import (docs/modules.md). */
export { QScoreModule } from './qscore.module.js';
