/** Every migration, in order. `npm run migration:generate` appends here. */
import { InitialTenancy1795261121274 } from './1795261121274-InitialTenancy.js';
export const MIGRATIONS: Function[] = [InitialTenancy1795261121274];
