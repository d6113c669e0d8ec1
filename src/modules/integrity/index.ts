/** The integrity module's public face: what other modules may import (docs/modules.md). */
export { IntegrityModule } from './integrity.module.js';
export { ChecksumService } from './checksum.service.js';
