/** The status module's public face: what other modules may import (docs/modules.md). */
export { StatusModule } from './status.module.js';
export { API_VERSION } from './status.controller.js';
