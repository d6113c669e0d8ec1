/**
 * The request's log line (request-log.ts): an error answer's line says what the client was told
 * (issue 31 item 4: 4xx lines lacked the problem's detail); a success's line has no problem member.
 */
import type { Level } from 'pino';
import type { ServiceRequest } from '../http/request-context.js';
import { RequestLog, type LineWriter } from './request-log.js';

function writer(): LineWriter & { lines: { level: Level; line: Record<string, unknown>; msg: string }[] } {
  const lines: { level: Level; line: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    enabled: () => true,
    write: (level, properties, msg) =>
      lines.push({ level, line: JSON.parse(`{${properties.slice(1)}}`), msg }),
  };
}

const request = (fields: Partial<ServiceRequest>) =>
  ({
    id: 'req-1',
    method: 'POST',
    originalUrl: '/v1/api/accounts?cursor=secret',
    ...fields,
  }) as ServiceRequest;

describe('RequestLog', () => {
  it('writes the problem’s detail and reason on a 4xx line, at warn', () => {
    const out = writer();
    new RequestLog(out).write(
      request({ problem: { detail: 'source: must be one of bitcoin, ethereum', reason: 'validation' } }),
      400,
      true,
      3,
    );
    expect(out.lines).toEqual([
      {
        level: 'warn',
        msg: 'request completed',
        line: {
          reqId: 'req-1',
          req: { id: 'req-1', method: 'POST', url: '/v1/api/accounts' },
          res: { statusCode: 400 },
          responseTime: 3,
          problem: { detail: 'source: must be one of bitcoin, ethereum', reason: 'validation' },
        },
      },
    ]);
  });

  it('writes it on a 5xx line too, and never on a success', () => {
    const out = writer();
    const log = new RequestLog(out);
    log.write(request({ problem: { detail: 'The database is unavailable; retry shortly.' } }), 503, true, 9);
    log.write(request({}), 200, true, 1);
    expect(out.lines.map((l) => [l.level, l.line.problem])).toEqual([
      ['error', { detail: 'The database is unavailable; retry shortly.' }],
      ['info', undefined],
    ]);
  });
});
