import { Module } from '@nestjs/common';
import { MarketModule } from '../market/market.module.js';
import { MarketHistoryService } from './market-history.service.js';
import { RoiService } from './roi.service.js';
import { RoiController, SimulationController } from './simulation.controller.js';
import { SimulationPool } from './simulation-pool.js';
import { SimulationService } from './simulation.service.js';

/**
 * Simulation and ROI (design §9 /qsim/simulate, /roi/projection).
 *
 * Owns: the estimation window and alignment of stored daily history, the seed when none is
 * given, the benchmark from configuration, request validation beyond the DTOs, and the worker
 * pool simulations run in (with its per-client and per-instance caps). Never: the model itself
 * (src/domain/simulation, pure; the worker runs it on plain data) or calls to a market provider
 * (the store only).
 */
@Module({
  imports: [MarketModule],
  controllers: [SimulationController, RoiController],
  providers: [MarketHistoryService, SimulationPool, SimulationService, RoiService],
  exports: [SimulationPool],
})
export class SimulationModule {}
