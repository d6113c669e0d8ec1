import { Test } from '@nestjs/testing';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { loadConfig } from '../../config/app-config.js';
import { LoggingModule, loggerParams } from './logging.module.js';

interface SonicBoomLike {
  sync: boolean;
  fd: number;
}

describe('LoggingModule', () => {
  it('writes to stdout synchronously, so no line waits in a buffer a re-raised signal would drop', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [LoggingModule.forRoot(loggerParams(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' })))],
    }).compile();
    try {
      const root = (await moduleRef.resolve(PinoLogger)).logger as unknown as Record<symbol, SonicBoomLike>;
      const stream = root[pino.symbols.streamSym];
      expect(stream).toMatchObject({ sync: true, fd: 1 });
    } finally {
      await moduleRef.close();
    }
  });

  it('writes readable lines on a terminal and JSON elsewhere, unless LOG_FORMAT says which', () => {
    const format = (env: Record<string, string>, terminal: boolean) => loadConfig(env).logFormat(terminal);
    expect(format({}, true)).toBe('pretty');
    expect(format({}, false)).toBe('json');
    expect(format({ NODE_ENV: 'test' }, true)).toBe('json');
    expect(format({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(format({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT: LOG_FORMAT must be one of/);
  });
});
