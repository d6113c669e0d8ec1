import { databaseEnv, run, DIST_CLI, DIST_MAIN, startService } from './support/process.js';

describe('the service as a process (e2e)', () => {
  it('refuses to start in production without database, JWT keys and encryption key, naming each', async () => {
    const result = await run(DIST_MAIN, [], { NODE_ENV: 'production', PORT: '0' });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/DATABASE_URL: required/);
    expect(result.stderr).toMatch(/JWT_PRIVATE_KEYS: required/);
    expect(result.stderr).toMatch(/ENCRYPTION_KEY: required/);
  });

  it('refuses a malformed variable with a message naming it', async () => {
    const result = await run(DIST_MAIN, [], { PORT: 'eighty' });
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/PORT:/);
  });

  it('on SIGTERM: in-flight requests finish, new ones get 503 with Connection: close, readiness 503, clean exit', async () => {
    const db = await databaseEnv();
    try {
      const service = await startService({ ...db.env, SHUTDOWN_GRACE_MS: '4000', LOG_LEVEL: 'info' });
      const issue = () =>
        fetch(`${service.base}/v1/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
        }).then((r) => ({ status: r.status, connection: r.headers.get('connection') }));
      // Token issuance takes tens of ms (argon2id): once the first answer is back, the rest of the
      // batch is queued inside the service, i.e. in flight, when SIGTERM lands.
      const batch = Array.from({ length: 24 }, issue);
      await Promise.race(batch);
      service.child.kill('SIGTERM');
      // The flip happens as soon as the process handles the signal (later on a loaded machine).
      // A 503 without `Connection: close` is the readiness probe's own database ping timing out
      // under this load, not the shutdown; keep polling for the shutdown's answer.
      const shuttingDown = (r: Response) => r.status === 503 && r.headers.get('connection') === 'close';
      let ready = await fetch(`${service.base}/health/ready`);
      for (let i = 0; i < 150 && !shuttingDown(ready); i++) {
        await new Promise((r) => setTimeout(r, 20));
        ready = await fetch(`${service.base}/health/ready`);
      }
      expect(ready.status).toBe(503);
      expect(ready.headers.get('connection')).toBe('close');
      const late = await issue();
      expect(late).toEqual({ status: 503, connection: 'close' });

      const results = await Promise.all(batch); // rejects on any reset or network error
      const accepted = results.filter((r) => r.status === 200).length;
      expect(accepted).toBeGreaterThan(1);
      expect(
        results.filter((r) => r.status !== 200).every((r) => r.status === 503 && r.connection === 'close'),
      ).toBe(true);
      // Nest closes the app, then re-raises the signal so the exit status tells the supervisor why.
      expect([0, 'SIGTERM']).toContain(await service.exited);
      await expect(fetch(`${service.base}/health/live`)).rejects.toThrow();

      // The logs survive the re-raised signal (which skips 'exit' handlers): the shutdown is
      // announced, and every token request the service answered has its line. The 503s above were
      // answered by the closing server before any middleware, so they have none.
      const lines = service
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) =>
            JSON.parse(line) as { msg?: string; req?: { url?: string }; res?: { statusCode?: number } },
        );
      expect(lines.some((l) => l.msg?.startsWith('Shutting down on SIGTERM'))).toBe(true);
      const tokenLines = lines.filter((l) => l.msg === 'request completed' && l.req?.url === '/v1/api/token');
      expect(tokenLines.map((l) => l.res?.statusCode)).toEqual(Array(accepted).fill(200));
    } finally {
      await db.cleanup();
    }
  }, 120_000);
});

describe('admin CLI (e2e)', () => {
  it('creates a tenant and a client whose secret is printed once and works; rotate and disable take effect', async () => {
    const db = await databaseEnv();
    const cli = (...args: string[]) => run(DIST_CLI, args, { ...db.env, SANDBOX: 'false' });
    try {
      const tenant = await cli('tenant', 'create', 'acme', '--name', 'Acme Advisors');
      expect(tenant.code).toBe(0);
      expect(JSON.parse(tenant.stdout)).toMatchObject({
        slug: 'acme',
        name: 'Acme Advisors',
        tenantId: expect.any(String),
      });

      const created = await cli(
        'client',
        'create',
        '--tenant',
        'acme',
        '--scopes',
        'partner',
        '--client-id',
        'acme-app',
      );
      expect(created.code).toBe(0);
      const issued = JSON.parse(created.stdout);
      expect(issued).toMatchObject({
        clientId: 'acme-app',
        scopes: ['partner'],
        clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });

      const duplicate = await cli('tenant', 'create', 'acme');
      expect(duplicate.code).toBe(1);
      expect(duplicate.stderr).toMatch(/already exists/);
      const badScope = await cli('client', 'create', '--tenant', 'acme', '--scopes', 'root');
      expect(badScope.code).toBe(1);
      expect(badScope.stderr).toMatch(/Unknown scope/);

      const rotated = await cli('client', 'rotate', 'acme-app');
      const newSecret = JSON.parse(rotated.stdout).clientSecret;
      expect(newSecret).not.toBe(issued.clientSecret);
      expect((await cli('client', 'disable', 'acme-app')).code).toBe(0);

      // The service sees what the CLI wrote: old secret dead, new one refused while disabled.
      const service = await startService({ ...db.env, SANDBOX: 'false' });
      try {
        const token = (secret: string) =>
          fetch(`${service.base}/v1/api/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ clientId: 'acme-app', clientSecret: secret }),
          }).then((r) => r.status);
        expect(await token(issued.clientSecret)).toBe(401);
        expect(await token(newSecret)).toBe(401);
        service.child.kill('SIGTERM');
        await service.exited;
        expect((await cli('client', 'enable', 'acme-app')).code).toBe(0);
        const again = await startService({ ...db.env, SANDBOX: 'false' });
        const ok = await fetch(`${again.base}/v1/api/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: 'acme-app', clientSecret: newSecret }),
        });
        expect(ok.status).toBe(200);
        again.child.kill('SIGTERM');
        await again.exited;
      } finally {
        service.child.kill('SIGKILL');
      }
    } finally {
      await db.cleanup();
    }
  }, 240_000);
});
