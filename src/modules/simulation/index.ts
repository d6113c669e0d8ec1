/** The simulation module's public face: what other modules may import (docs/modules.md). */
export { SimulationModule } from './simulation.module.js';
export { SimulationPool } from './simulation-pool.js';
export { SimulationService, type SimulationOutcome } from './simulation.service.js';
