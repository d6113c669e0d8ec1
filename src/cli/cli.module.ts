import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { TenancyModule } from '../modules/tenancy/tenancy.module.js';
import { TENANCY_COMMANDS } from './tenancy.commands.js';
import { AccountsCliModule } from './accounts.commands.js';

/** The admin CLI: the same services and database as the API, without the HTTP layer. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, TenancyModule, AccountsCliModule],
      providers: [...TENANCY_COMMANDS],
    };
  }
}
