/** The cost-basis module's public face: what other modules may import (docs/modules.md). */
export { CostBasisModule } from './cost-basis.module.js';
