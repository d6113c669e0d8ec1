import { Writable } from 'node:stream';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApp } from '../src/app.factory.js';
import { createTestSchema, testConfig, usingPostgres } from './support/test-app.js';

/** Collects the service's JSON log lines. */
class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      this.raw.push(line);
      this.lines.push(JSON.parse(line));
    }
    done();
  }
}

describe('structured logging (e2e)', () => {
  let app: NestExpressApplication;
  let logs: LogCapture;
  let dropSchema: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const schema = usingPostgres() ? await createTestSchema() : undefined;
    dropSchema = schema?.drop;
    logs = new LogCapture();
    app = await createApp(testConfig({ LOG_LEVEL: 'info' }, schema?.schema), { logDestination: logs });
    await app.init();
  });
  afterAll(async () => {
    await app.close();
    await dropSchema?.();
  });

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
});
