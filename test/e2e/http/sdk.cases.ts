/**
 * The TypeScript SDK (clients/typescript) type-checks against the document the service serves now:
 * its types are regenerated from /docs-json by the same function as `npm run sdk:generate`
 * (scripts/openapi-artifacts.mjs) and stand in for the committed ones while the SDK, its example
 * and the assertions below are compiled. An operation, field or envelope the SDK relies on that
 * changed in the document fails here, whether or not the committed copy was regenerated. (That the
 * committed copy is current is `npm run sdk:check`, a CI step.)
 */
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { renderOperations, renderTypes, renderVersion } from '../../../scripts/openapi-artifacts.mjs';
import { type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const SDK = resolve(import.meta.dirname, '../../../clients/typescript');

/** Compile-time facts about the SDK's surface; each `@ts-expect-error` must be an error. */
const ASSERTIONS = `
import { createServiceClient, unwrap, ApiError, type Schema, type ProblemDetails } from '../src/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(_: T) => undefined;

const api = createServiceClient({ baseUrl: 'http://x', clientId: 'c', clientSecret: 's' });
export async function surface() {
  const balances = await unwrap(
    api.GET('/v1/api/account/{accountId}/balances', { params: { path: { accountId: 'a' } } }),
  );
  check<Equal<typeof balances, Schema<'BalancesResultDto'>>>(true);
  const page = await unwrap(api.GET('/v1/api/accounts'));
  check<Equal<typeof page, Schema<'AccountListDto'>>>(true);
  const summary = await unwrap(api.GET('/portfolio/summary'));
  check<Equal<typeof summary, Schema<'PortfolioSummaryDto'>>>(true);
  const problem: ProblemDetails | undefined = new ApiError(new Response(), null).problem;
  // @ts-expect-error: the envelope is unwrapped, so there is no \`result\` on the result
  void balances.result;
  // @ts-expect-error: path parameters are required
  void api.GET('/v1/api/account/{accountId}/balances');
  // @ts-expect-error: not an operation of the document
  void api.GET('/v1/api/nowhere');
  return problem;
}
`;

describe('TypeScript SDK against the served document (e2e)', () => {
  let t: TestApp;
  // Booting the app takes seconds; more on a loaded machine than the 60 s default allows a hook.
  beforeAll(async () => {
    t = await startSuite();
  }, 180_000);
  afterAll(() => t.close());

  it('type-checks the SDK, its example and its surface with types generated from /docs-json', async () => {
    const document = (await t.http.get('/docs-json').expect(200)).body;
    const fresh = new Map([
      [join(SDK, 'src/generated/openapi.ts'), await renderTypes(document)],
      [join(SDK, 'src/generated/version.ts'), renderVersion(document)],
      [join(SDK, 'src/generated/operations.ts'), renderOperations(document)],
      [join(SDK, 'examples/__surface__.ts'), ASSERTIONS],
    ]);
    expect(fresh.get(join(SDK, 'src/generated/openapi.ts'))).toContain('"/v1/api/accounts": {');

    const configFile = ts.readConfigFile(join(SDK, 'tsconfig.json'), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, SDK);
    const host = ts.createCompilerHost(parsed.options);
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (file) => fresh.get(resolve(file)) ?? readFile(file);
    host.fileExists = (file) => fresh.has(resolve(file)) || fileExists(file);
    const roots = [...new Set([...parsed.fileNames.map((f) => resolve(f)), ...fresh.keys()])];
    const program = ts.createProgram({
      rootNames: roots,
      options: { ...parsed.options, noEmit: true },
      host,
    });

    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(dirname(SDK).length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(diagnostics).toEqual([]);
    // The program really compiled the SDK and the example, not an empty set.
    const compiled = program.getSourceFiles().map((f) => resolve(f.fileName));
    expect(compiled).toEqual(
      expect.arrayContaining([
        join(SDK, 'src/token.ts'),
        join(SDK, 'src/errors.ts'),
        join(SDK, 'examples/accounts-and-balances.ts'),
        join(SDK, 'examples/__surface__.ts'),
      ]),
    );
  });
});
