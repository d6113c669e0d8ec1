import { Injectable } from '@nestjs/common';

export interface SandboxSeedStep {
  /** Lower runs first: tenants (0) before accounts (20) before portfolios (30). */
  order: number;
  name: string;
  run(): Promise<void>;
}

/** Domain modules register their sandbox fixtures here in onModuleInit; the seeder runs them at start-up. */
@Injectable()
export class SandboxSeedRegistry {
  private readonly steps: SandboxSeedStep[] = [];

  register(step: SandboxSeedStep): void {
    this.steps.push(step);
  }

  ordered(): SandboxSeedStep[] {
    return [...this.steps].sort((a, b) => a.order - b.order);
  }
}
