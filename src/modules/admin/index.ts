/** The admin module's public face: what other modules may import (docs/modules.md). */
export { AdminModule } from './admin.module.js';
