/**
 * The module-boundary lint rule (eslint.config.js, docs/modules.md) catches what it is there for:
 * another module's internals, repositories or entities imported from src, and a split module's
 * internals imported from a test; the faces pass.
 */
import { ESLint } from 'eslint';

const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter(
      (m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports',
    )
    .map((m) => `${m.line}:${m.ruleId}`);
}

describe('module boundaries (lint rule)', () => {
  it('rejects internals, repositories and entities of another module from src', async () => {
    const code = [
      "import { BalanceSnapshotsRepository } from '../ledger/repositories/balance-snapshots.repository.js';",
      "import { RefreshService } from '../sources/refresh/refresh.service.js';",
      "import { AccountEntity } from '../accounts/entities/account.entity.js';",
      "import { MarketRepository } from '../market/repositories/market.repository.js';",
      "import { LedgerService } from '../ledger/index.js';",
      "import { AccountsService } from '../accounts/index.js';",
      'export const used = [BalanceSnapshotsRepository, RefreshService, AccountEntity, MarketRepository, LedgerService, AccountsService];',
    ].join('\n');
    expect(await restricted('src/modules/tax/boundary-example.ts', code)).toEqual([
      '1:no-restricted-imports',
      '1:@typescript-eslint/no-restricted-imports',
      '2:no-restricted-imports',
      '3:no-restricted-imports',
      '3:@typescript-eslint/no-restricted-imports',
      '4:@typescript-eslint/no-restricted-imports',
    ]);
  });

  it("lets an entity point at another module's entity (a foreign key), nothing else", async () => {
    const code = [
      "import { AccountEntity } from '../../accounts/entities/account.entity.js';",
      "import { AccountsService } from '../../accounts/accounts.service.js';",
      'export const used = [AccountEntity, AccountsService];',
    ].join('\n');
    expect(await restricted('src/modules/ledger/entities/example.entity.ts', code)).toEqual([
      '2:no-restricted-imports',
    ]);
  });

  it('lets tests use index.ts and testing.ts, not the internals', async () => {
    const code = [
      "import { AccountsRepository } from '../src/modules/accounts/repositories/accounts.repository.js';",
      "import { AccountsRepository as Repo } from '../src/modules/accounts/testing.js';",
      "import { LedgerService } from '../src/modules/ledger/index.js';",
      'export const used = [AccountsRepository, Repo, LedgerService];',
    ].join('\n');
    expect(await restricted('test/boundary-example.e2e-spec.ts', code)).toEqual(['1:no-restricted-imports']);
  });
});
