import { Test } from '@nestjs/testing';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { ConfigModule } from '../../config/config.module.js';
import { loadConfig } from '../../config/app-config.js';
import { LoggingModule } from './logging.module.js';

interface SonicBoomLike {
  sync: boolean;
  fd: number;
}

describe('LoggingModule', () => {
  it('writes to stdout synchronously, so no line waits in a buffer a re-raised signal would drop', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(loadConfig({ LOG_LEVEL: 'info' })), LoggingModule.forRoot()],
    }).compile();
    try {
      const root = (await moduleRef.resolve(PinoLogger)).logger as unknown as Record<symbol, SonicBoomLike>;
      const stream = root[pino.symbols.streamSym];
      expect(stream).toMatchObject({ sync: true, fd: 1 });
    } finally {
      await moduleRef.close();
    }
  });
});
