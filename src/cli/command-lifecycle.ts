import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectCommander } from 'nest-commander';
import { DataSource } from 'typeorm';
import { isUUID } from 'class-validator';
import { AppConfig } from '../config/app-config.js';
import { openDatabase } from '../database/database.module.js';
import { lockEmbeddedDataDirectory } from '../database/data-source-options.js';

/** The parts of commander's Command this uses (commander is nest-commander's, not ours). */
interface CommanderCommand {
  readonly commands: readonly CommanderCommand[];
  readonly registeredArguments: ReadonlyArray<{
    name(): string;
    argParser(parse: (value: string) => unknown): unknown;
  }>;
  hook(event: 'preAction', listener: (self: CommanderCommand, action: CommanderCommand) => unknown): unknown;
}

/** Positional arguments checked by name in every command, while parsing (before the database). */
const ARGUMENT_PARSERS: Record<string, (value: string) => string> = {
  accountId: (value) => {
    if (!isUUID(value, 'all')) throw new Error(`accountId must be a UUID (got "${value}").`);
    return value.toLowerCase();
  },
};

/**
 * What happens around a command once commander has parsed it. Commander handles --help,
 * --version and usage errors itself and exits before any of this, so they never touch the
 * database: it is locked (one process per embedded DATA_DIR), opened and migrated just before a
 * command's action runs, and not for a command group that only prints its help.
 */
@Injectable()
export class CommandLifecycle implements OnApplicationBootstrap {
  constructor(
    @InjectCommander() private readonly program: CommanderCommand,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** After nest-commander has built the command tree (its onModuleInit). */
  onApplicationBootstrap(): void {
    this.checkArguments(this.program);
    this.program.hook('preAction', async (_self, action) => {
      if (action.commands.length > 0) return;
      lockEmbeddedDataDirectory(this.config);
      await openDatabase(this.dataSource);
    });
  }

  private checkArguments(command: CommanderCommand): void {
    for (const argument of command.registeredArguments) {
      const parse = ARGUMENT_PARSERS[argument.name()];
      if (parse) argument.argParser(parse);
    }
    for (const sub of command.commands) this.checkArguments(sub);
  }
}
