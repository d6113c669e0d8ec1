/**
 * The embedded database template (issue 16, start-up; src/database/pglite-template.ts): the build
 * makes it once per set of migrations; a fresh data directory is unpacked from it and starts with
 * no migration pending; it carries no secret (two data directories made from it sign with different
 * keys); a directory that holds a cluster is never overwritten by it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { holdsCluster, templateFileName, templateFor } from '../src/database/pglite-template.js';
import { run, startService, tempDataDir, type ServiceProcess } from './support/process.js';
import { usingPostgres } from './support/test-database.js';

const CLI = resolve('dist/src/database/pglite-template-cli.js');
const DIST_TEMPLATES = resolve('dist/pglite-template');

(usingPostgres() ? describe.skip : describe)('embedded database template (e2e, built service)', () => {
  const dirs: { remove: () => void }[] = [];
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    for (const service of services) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    for (const dir of dirs) dir.remove();
  });

  it('is made by the build step once, then found up to date', async () => {
    const first = await run(CLI, [], {}, 120_000);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/Embedded database template (made in \d+ ms: \d+ migrations|up to date)/);
    const second = await run(CLI, [], {}, 60_000);
    expect(second.stderr).toContain('Embedded database template up to date');
    // Named for this tree's migrations and PGlite version (the built copy hashes the compiled files).
    expect(existsSync(DIST_TEMPLATES)).toBe(true);
  }, 180_000);

  it('starts fresh data directories with no migration pending and with secrets of their own', async () => {
    const kids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const data = tempDataDir();
      dirs.push(data);
      const service = await startService({ DATA_DIR: data.dir, LOG_LEVEL: 'info' }, 120_000);
      services.push(service);
      const jwks = (await (await fetch(`${service.base}/.well-known/jwks.json`)).json()) as {
        keys: { kid: string }[];
      };
      kids.push(...jwks.keys.map((key) => key.kid));
      const token = await fetch(`${service.base}/v1/api/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
      });
      expect(token.status).toBe(200);
      expect(service.output()).not.toMatch(/"msg":"Applied /); // every migration came with the template
      expect(holdsCluster(join(data.dir, 'pglite'))).toBe(true);
    }
    expect(new Set(kids).size).toBe(kids.length); // no signing key was copied from the template
  }, 300_000);
});

describe('embedded database template (unit)', () => {
  it('is named by a hash of the migrations and PGlite version, the same each time', () => {
    const name = templateFileName();
    expect(name).toMatch(/^pglite-[0-9a-f]{20}\.tar\.gz$/);
    expect(templateFileName()).toBe(name);
  });

  it('never applies to a directory that holds a cluster already', () => {
    const data = tempDataDir();
    try {
      const cluster = join(data.dir, 'pglite');
      mkdirSync(cluster, { recursive: true });
      writeFileSync(join(cluster, 'PG_VERSION'), '17\n');
      expect(holdsCluster(cluster)).toBe(true);
      expect(templateFor(cluster)).toBeUndefined();
    } finally {
      data.remove();
    }
  });

  it('is absent, not an error, when no template was made for these migrations', () => {
    const data = tempDataDir();
    const templates = resolve('pglite-template'); // the source tree's location, under Jest
    const made = existsSync(join(templates, templateFileName()));
    try {
      const template = templateFor(join(data.dir, 'pglite'));
      if (made) expect(template).toBeInstanceOf(Blob);
      else expect(template).toBeUndefined();
    } finally {
      data.remove();
    }
  });
});
