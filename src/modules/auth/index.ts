/** The auth module's public face: what other modules may import (docs/modules.md). */
export { AuthModule } from './auth.module.js';
