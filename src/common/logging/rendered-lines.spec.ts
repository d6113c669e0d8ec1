import pino, { type LoggerOptions } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';
import { RenderedLines } from './rendered-lines.js';
import { RequestLog } from './request-log.js';

/** A pino logger writing into `lines`, its clock fixed so two loggers' lines can be compared. */
function logger(lines: string[], options: LoggerOptions = {}) {
  return pino(
    {
      level: 'info',
      formatters: { level: (label) => ({ level: label }) },
      timestamp: () => ',"time":1764000000000',
      ...options,
    },
    { write: (line: string) => lines.push(line) },
  );
}

function request(fields: Partial<ServiceRequest>): ServiceRequest {
  return { method: 'GET', originalUrl: '/v1/api/status', ...fields } as ServiceRequest;
}

describe('RenderedLines and RequestLog', () => {
  const cases: [string, Partial<ServiceRequest>, number, boolean, number][] = [
    ['a partner read', { id: 'req-1', user: { clientId: 'c1', tenantId: 't1' } as never }, 200, true, 3],
    [
      'a query string, never logged',
      { id: 'req-2', originalUrl: '/v1/api/account/x/transactions?cursor=abc' },
      200,
      true,
      0,
    ],
    ['a 4xx', { id: 'a"b\\c', originalUrl: '/v1/api/account/%22/balances' }, 404, true, 1],
    ['a 5xx', { id: 'req-4', method: 'POST', originalUrl: '/v1/api/token' }, 503, true, 12],
    ['a client that left', { id: 'req-5', originalUrl: '/ünïcödé/\u0001/\u2028' }, 200, false, 7],
    ['no id, a user without a tenant', { user: { clientId: 'c2' } as never }, 201, true, 2],
  ];

  it.each(cases)(
    'writes %s exactly as pino writes the same object',
    (_name, fields, status, finished, ms) => {
      const rendered: string[] = [];
      const viaPino: string[] = [];
      new RequestLog(new RenderedLines(logger(rendered))).write(request(fields), status, finished, ms);
      // What RequestLog logged before it rendered lines itself: the object, through pino.
      const req = request(fields);
      const url = req.originalUrl.split('?')[0];
      const line: Record<string, unknown> = {
        reqId: req.id,
        req: { id: req.id, method: req.method, url },
        res: { statusCode: status },
        responseTime: ms,
      };
      if (req.user) Object.assign(line, { clientId: req.user.clientId, tenantId: req.user.tenantId });
      const log = logger(viaPino);
      if (status >= 500 || !finished) log.error(line, 'request errored');
      else if (status >= 400) log.warn(line, 'request completed');
      else log.info(line, 'request completed');
      expect(rendered).toEqual(viaPino);
      expect(JSON.parse(rendered[0]!)).toMatchObject({ req: { url }, res: { statusCode: status } });
    },
  );

  it('writes nothing below the logger’s level: a health probe is a debug line', () => {
    const lines: string[] = [];
    const log = new RequestLog(new RenderedLines(logger(lines)));
    log.write(request({ id: 'p', originalUrl: '/health/live' }), 200, true, 0);
    expect(lines).toEqual([]);
    log.write(request({ id: 'p', originalUrl: '/health/ready' }), 503, true, 0);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', msg: 'request errored' });
  });

  it('goes through the logger’s own method when it is configured beyond what it renders (a mixin)', () => {
    const rendered: string[] = [];
    const viaPino: string[] = [];
    const mixin = () => ({ service: 'cass' });
    new RenderedLines(logger(rendered, { mixin })).write('warn', ',"a":{"b":1},"c":"d"', 'hello');
    logger(viaPino, { mixin }).warn({ a: { b: 1 }, c: 'd' }, 'hello');
    expect(rendered).toEqual(viaPino);
    expect(JSON.parse(rendered[0]!)).toMatchObject({ service: 'cass', a: { b: 1 } });
  });

  it('keeps the root logger’s bindings (pid, hostname) and a custom message key', () => {
    const rendered: string[] = [];
    const viaPino: string[] = [];
    const options = { messageKey: 'message', base: { pid: 7, hostname: 'h' } };
    new RenderedLines(logger(rendered, options)).write('info', ',"x":1', 'm');
    logger(viaPino, options).info({ x: 1 }, 'm');
    expect(rendered).toEqual(viaPino);
    expect(rendered[0]).toBe(
      '{"level":"info","time":1764000000000,"pid":7,"hostname":"h","x":1,"message":"m"}\n',
    );
  });
});
