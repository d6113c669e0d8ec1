/**
 * For tests only (the lint rule lets test/ import it, never src/): the signing keys, to rotate
 * them and check which key signs.
 */
export { SigningKeysService } from './signing-keys.service.js';
