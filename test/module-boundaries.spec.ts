/**
 * The module-boundary lint rule (eslint.config.js, docs/modules.md) catches what it is there for:
 * another module's internals, repositories or entities imported from src, and a split module's
 * internals imported from a test; the faces pass.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
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
      // Every module now has a face the rule holds (issue 29): market's internals too.
      '4:no-restricted-imports',
      '4:@typescript-eslint/no-restricted-imports',
    ]);
  });

  it("holds every module to its face, and not a module's own folder that shares a module's name", async () => {
    const code = [
      "import { ScoringModule } from '../../scoring/scoring.module.js';",
      "import { SandboxConnector } from '../sandbox/sandbox.connector.js';",
      "import { TenancyModule } from '../../tenancy/index.js';",
      'export const used = [ScoringModule, SandboxConnector, TenancyModule];',
    ].join('\n');
    expect(await restricted('src/modules/sources/refresh/boundary-example.ts', code)).toEqual([
      '1:no-restricted-imports',
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

  it('lets tests use index.ts and testing.ts, not the internals, of every module', async () => {
    const code = [
      "import { AccountsRepository } from '../src/modules/accounts/repositories/accounts.repository.js';",
      "import { AccountsRepository as Repo } from '../src/modules/accounts/testing.js';",
      "import { LedgerService } from '../src/modules/ledger/index.js';",
      "import { MarketRepository } from '../src/modules/market/market.repository.js';",
      "import { MarketRepository as Prices } from '../src/modules/market/testing.js';",
      "import { ClientsService } from '../../src/modules/tenancy/clients.service.js';",
      'export const used = [AccountsRepository, Repo, LedgerService, MarketRepository, Prices, ClientsService];',
    ].join('\n');
    expect(await restricted('test/boundary-example.e2e-spec.ts', code)).toEqual([
      '1:no-restricted-imports',
      // Not only the split modules (issue 29): market and tenancy too, at any depth under test/.
      '4:no-restricted-imports',
      '6:no-restricted-imports',
    ]);
  });

  it("keeps a module's testing.ts out of src", async () => {
    const code = [
      "import { MarketRepository } from '../market/testing.js';",
      "import { MarketRefreshService } from '../market/index.js';",
      'export const used = [MarketRepository, MarketRefreshService];',
    ].join('\n');
    expect(await restricted('src/modules/tax/boundary-example.ts', code)).toEqual([
      '1:no-restricted-imports',
    ]);
  });
});

/**
 * The modules' imports form a DAG (issue 29): every import from one folder of src/modules into
 * another is an edge of the module graph, type-only imports included. An entity may name another
 * module's entity for a foreign key (the lint rule above allows it), but that too is an edge here.
 */
const MODULES_DIR = join(process.cwd(), 'src', 'modules');
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'(\.[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** module -> the modules it imports, with one importing file each (for the failure message). */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of readdirSync(MODULES_DIR, { withFileTypes: true })) {
    if (!module.isDirectory()) continue;
    const edges = new Map<string, string>();
    graph.set(module.name, edges);
    for (const file of sourceFiles(join(MODULES_DIR, module.name))) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = relative(MODULES_DIR, resolve(dirname(file), specifier!)).split(sep);
        if (target.length < 2 || target[0] === '..' || target[0] === module.name) continue;
        if (!edges.has(target[0]!)) edges.set(target[0]!, relative(process.cwd(), file));
      }
    }
  }
  return graph;
}

/** The cycles of a graph (one per strongly connected component of more than one node, or a self-loop). */
function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('module graph', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['ledger', new Map([['accounts', 'ledger/x.ts']])],
      ['accounts', new Map([['sources', 'accounts/y.ts']])],
      ['sources', new Map([['ledger', 'sources/z.ts']])],
      ['tax', new Map([['ledger', 'tax/t.ts']])],
    ]);
    expect(cyclesOf(graph)).toEqual([['accounts', 'ledger', 'sources']]);
    expect(cyclesOf(new Map([['tax', new Map([['ledger', 'tax/t.ts']])]]))).toEqual([]);
  });

  it("the modules' imports form a DAG (no module imports one that imports it back)", () => {
    const graph = moduleGraph();
    expect(graph.size).toBeGreaterThan(20);
    const cycles = cyclesOf(graph).map((cycle) =>
      cycle.map((from) => {
        const to = cycle.find((other) => graph.get(from)!.has(other))!;
        return `${from} -> ${to} (${graph.get(from)!.get(to)})`;
      }),
    );
    expect(cycles).toEqual([]);
  });
});
