/**
 * Structured logging: one JSON line a request (request id, client id, status, latency), never a
 * credential; an error's line with the problem's detail; level names; Nest's framework lines,
 * health probes and the sandbox's simulated failures left out at info. Reads the log lines of the
 * file's app from its start (operations.e2e-spec.ts passes them to useE2eWorld, with
 * LOG_LEVEL=info), so it runs first: its checks of the start-up lines (the seed's simulated
 * failures) see what the seed wrote.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { startSuite, type SuiteApp } from '../../support/e2e-world.js';
import { logs } from './log-capture.js';

describe('structured logging (e2e)', () => {
  let t: SuiteApp;
  let app: NestExpressApplication;

  beforeAll(async () => {
    t = await startSuite({ LOG_LEVEL: 'info' });
    app = t.app;
  });
  afterAll(() => t.close());

  it('logs each request as JSON with request id, client id, status and latency, and never a credential', async () => {
    const http = request(app.getHttpServer());
    const token = await http
      .post('/v1/api/token')
      .set('clientId', 'sandbox-client')
      .set('clientSecret', 'sandbox-secret')
      .set('Cookie', 'session=cookie-value-secret')
      .expect(200);
    const accessToken = token.body.result.accessToken as string;
    await http
      .post('/v1/api/token')
      .send({ clientId: 'sandbox-client', clientSecret: 'wrong-secret-value' })
      .expect(401);
    const status = await http
      .get('/api/status')
      .set('Authorization', `Bearer ${accessToken}`)
      .set('X-Request-Id', 'trace-log-1')
      .expect(200);
    await new Promise((resolve) => setImmediate(resolve));

    const completed = logs.lines.filter((l) => l.msg === 'request completed');
    const statusLine = completed.find((l) => (l.req as { id?: string })?.id === 'trace-log-1');
    expect(statusLine).toMatchObject({
      reqId: 'trace-log-1',
      req: { id: 'trace-log-1', method: 'GET', url: '/api/status' },
      res: { statusCode: 200 },
      clientId: 'sandbox-client',
      responseTime: expect.any(Number),
    });
    expect(status.headers['x-request-id']).toBe('trace-log-1');
    expect(completed.find((l) => (l.res as { statusCode?: number })?.statusCode === 401)).toBeDefined();

    const everything = logs.raw.join('\n');
    for (const secret of [
      'sandbox-secret',
      'wrong-secret-value',
      'cookie-value-secret',
      accessToken,
      accessToken.split('.')[2]!,
    ]) {
      expect(everything).not.toContain(secret);
    }
  });

  describe('for operators', () => {
    const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

    it('names the level of every line ("info", "warn"...) instead of pino\'s numbers', async () => {
      await request(app.getHttpServer()).get('/api/status').set('X-Request-Id', 'level-name-1').expect(401);
      await new Promise((resolve) => setImmediate(resolve));
      expect(logs.lines.length).toBeGreaterThan(0);
      expect(logs.lines.filter((l) => !LEVELS.includes(l.level as string))).toEqual([]);
      const starting = logs.lines.find((l) => l.msg === 'Starting Nest application...');
      expect(starting).toMatchObject({ level: 'info', context: 'NestFactory' });
      expect(logs.lines.find((l) => l.reqId === 'level-name-1')).toMatchObject({
        level: 'warn',
        msg: 'request completed',
        res: { statusCode: 401 },
        // What the client was told (issue 31 item 4).
        problem: { detail: 'Bearer token missing or invalid.' },
      });
    });

    it("leaves Nest's module-loading and route-mapping lines out at info", () => {
      const contexts = new Set(logs.lines.map((l) => l.context));
      expect(contexts.has('NestFactory')).toBe(true); // the start-up itself is logged
      for (const framework of ['InstanceLoader', 'RoutesResolver', 'RouterExplorer'])
        expect(contexts.has(framework)).toBe(false);
      expect(logs.raw.filter((line) => line.includes('Mapped {'))).toEqual([]);
    });

    it('leaves health probe requests out at info; other requests keep their line', async () => {
      const http = request(app.getHttpServer());
      await http.get('/health/live').set('X-Request-Id', 'probe-live').expect(200);
      await http.get('/health/ready').set('X-Request-Id', 'probe-ready').expect(200);
      await http.get('/api/status').set('X-Request-Id', 'not-a-probe').expect(401);
      await new Promise((resolve) => setImmediate(resolve));
      expect(
        logs.lines.filter((l) => String((l.req as { url?: string })?.url).startsWith('/health')),
      ).toEqual([]);
      expect(logs.lines.filter((l) => l.reqId === 'probe-live' || l.reqId === 'probe-ready')).toEqual([]);
      expect(logs.lines.filter((l) => l.reqId === 'not-a-probe')).toHaveLength(1);
    });

    it("keeps the sandbox's simulated source failures out of info and warn (debug, marked simulated)", () => {
      // Seeding syncs each sandbox tenant's accounts, the outage account and the expired
      // authorization among them: scripted failures, logged at debug (issue 31 item 4: at info
      // they were two lines per account every 30-60 s).
      expect(logs.lines.filter((l) => String(l.msg).startsWith('Refresh failed: Sandbox:'))).toEqual([]);
      for (const context of ['RefreshService', 'LedgerWriter'])
        expect(logs.lines.filter((l) => l.level === 'warn' && l.context === context)).toEqual([]);
    });
  });
});
