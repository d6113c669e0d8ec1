import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MarketModule } from '../market/index.js';
import { CapitalMarketAssumptionsRepository } from './capital-market-assumptions.repository.js';
import { CapitalMarketAssumptionEntity } from './entities/capital-market-assumption.entity.js';
import { MarketHistoryService } from './market-history.service.js';
import { ReturnAssumptionsService } from './return-assumptions.service.js';
import { RoiService } from './roi.service.js';
import { AssumptionsController, RoiController, SimulationController } from './simulation.controller.js';
import { SimulationPool } from './simulation-pool.js';
import { SimulationService } from './simulation.service.js';

/**
 * Simulation and ROI (design §9 /qsim/simulate, /roi/projection).
 *
 * Owns: the estimation window and alignment of stored daily history, the seed when none is
 * given, the benchmark from configuration, the tenants' capital-market assumptions
 * (/qsim/assumptions), request validation beyond the DTOs, and the worker pool simulations run
 * in (with its per-client and per-instance caps). Never: the model itself
 * (src/domain/simulation, pure; the worker runs it on plain data) or calls to a market provider
 * (the store only).
 */
@Module({
  imports: [TypeOrmModule.forFeature([CapitalMarketAssumptionEntity]), MarketModule],
  controllers: [SimulationController, AssumptionsController, RoiController],
  providers: [
    MarketHistoryService,
    SimulationPool,
    SimulationService,
    RoiService,
    CapitalMarketAssumptionsRepository,
    ReturnAssumptionsService,
  ],
  exports: [SimulationPool, SimulationService],
})
export class SimulationModule {}
