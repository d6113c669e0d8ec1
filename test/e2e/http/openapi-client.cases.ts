/**
 * A partner's typed client, generated from the served document, compiles and runs the README's
 * token → balances flow (issue #13 item 2). The test generates `paths` types from the live
 * /docs-json with openapi-typescript, writes a small program using openapi-fetch, type-checks and
 * compiles it with the TypeScript compiler API, and runs the output with node against this app
 * listening on an ephemeral port. A document that showed the bare result (as before the fix) fails
 * the type-check: `result` does not exist on the token's response type.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { SANDBOX, type TestApp } from '../../support/test-app.js';
import { startSuite } from '../../support/e2e-world.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const ACCOUNT = '92d6b2dc-0ff7-52b7-ab56-738707ad6540'; // sandbox:coinbase-main (README)

const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './paths.js';

const client = createClient<paths>({ baseUrl: process.env.BASE_URL });

/** Error bodies: the envelope with problem details, or plain text (a 503 while shutting down). */
const describe = (error: string | { responseException: { exceptionMessage: { title: string } } }) =>
  typeof error === 'string' ? error : error.responseException.exceptionMessage.title;

// The README's flow: a token from the body form, then the balances of a sandbox account.
const issued = await client.POST('/v1/api/token', {
  body: { clientId: ${JSON.stringify(SANDBOX.partner.clientId)}, clientSecret: ${JSON.stringify(SANDBOX.partner.secret)} },
});
if (issued.error !== undefined) throw new Error(describe(issued.error));
const accessToken: string = issued.data.result.accessToken;
const expiresIn: number = issued.data.result.expiresIn;

const read = await client.GET('/v1/api/account/{accountId}/balances', {
  params: { path: { accountId: ${JSON.stringify(ACCOUNT)} } },
  headers: { Authorization: \`Bearer \${accessToken}\` },
});
if (read.error !== undefined) throw new Error(describe(read.error));
const { result, isError, statusCode } = read.data;
const source: 'source_reported' | 'calculated' = result.balanceSource;
const holdings: { symbol: string; balance: string }[] = result.balances;

const missing = await client.GET('/v1/api/account/{accountId}/balances', {
  params: { path: { accountId: '00000000-0000-4000-8000-000000000000' } },
  headers: { Authorization: \`Bearer \${accessToken}\` },
});
const problemStatus: number | undefined =
  typeof missing.error === 'object' ? missing.error.responseException.exceptionMessage.status : undefined;

console.log(
  JSON.stringify({
    expiresIn,
    isError,
    statusCode,
    accountId: result.accountId,
    source,
    symbols: holdings.map((h) => h.symbol),
    marketValue: result.marketValue,
    problemStatus,
  }),
);
`;

describe('a client generated from the document (e2e)', () => {
  let t: TestApp;
  let dir: string;
  let base: string;

  beforeAll(async () => {
    t = await startSuite();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'openapi-client-'));
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  });
  afterAll(async () => {
    // The app is the file's and stays up: stop listening (and drop fetch's kept-alive sockets),
    // as closing the app did when the suite had its own; supertest listens per request again.
    const server = t.app.getHttpServer();
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('type-checks and runs the token → balances flow of the README', async () => {
    const document = await (await fetch(`${base}/docs-json`)).text();
    await writeFile(join(dir, 'openapi.json'), document);
    await run(
      process.execPath,
      [join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.json', '-o', 'paths.ts'],
      { cwd: dir },
    );
    expect(await readFile(join(dir, 'paths.ts'), 'utf8')).toContain('"/v1/api/account/{accountId}/balances"');
    await writeFile(join(dir, 'client.ts'), PROGRAM);

    const program = ts.createProgram([join(dir, 'client.ts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      strict: true,
      noEmitOnError: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      outDir: join(dir, 'out'),
    });
    const emitted = program.emit();
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) =>
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    );
    expect(diagnostics).toEqual([]);

    const { stdout } = await run(process.execPath, [join(dir, 'out', 'client.js')], {
      env: { ...process.env, BASE_URL: base },
      timeout: 30_000,
    });
    const printed = JSON.parse(stdout);
    expect(printed).toEqual({
      expiresIn: 3600,
      isError: false,
      statusCode: 200,
      accountId: ACCOUNT,
      source: expect.stringMatching(/^(source_reported|calculated)$/),
      symbols: expect.arrayContaining(['BTC']),
      marketValue: expect.stringMatching(/^\d+\.\d{2}$/),
      problemStatus: 404,
    });
  });
});
