/** The wallets module's public face: what other modules may import (docs/modules.md). */
export { WalletsModule } from './wallets.module.js';
