/**
 * Where an import file is parsed (issue 28): one worker thread (piscina), so a 20 MB upload
 * (~290,000 rows: 3–5 s of parsing on a busy 2-core host) never holds the request thread. Not the
 * compute pool: the parser is this module's (csv-parse, the exports' layouts), and the compute
 * module imports no module. Started at the first import, ended at shutdown like the compute pool.
 */
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ImportParseAnswer, ImportParseTask } from './import-parse.worker.js';

/** An idle parse thread ends after this; the next import starts one again. */
const IDLE_THREAD_MS = 60_000;

/** Below the request thread's priority, as the compute pool's threads. */
const WORKER_NICE_INCREMENT = 10;

/** The compiled worker next to this module; under Jest (TypeScript in src/) the one in dist/. */
export function importParseWorkerFilename(moduleUrl: string = import.meta.url): string {
  const here = fileURLToPath(moduleUrl);
  if (here.endsWith('.js')) return join(dirname(here), 'import-parse.worker.js');
  return fileURLToPath(
    new URL('../../../../dist/src/modules/sources/exports/import-parse.worker.js', moduleUrl),
  );
}

@Injectable()
export class ImportParsePool implements OnApplicationShutdown {
  private pool?: Piscina<ImportParseTask, ImportParseAnswer>;
  private closed = false;

  /** Parses in the worker thread; `onProgress` hears the rows parsed so far (the CLI's bar). */
  async run(
    task: Omit<ImportParseTask, 'progress'>,
    onProgress?: (parsed: number) => void,
  ): Promise<ImportParseAnswer> {
    if (!onProgress) return this.workers().run({ ...task, progress: undefined });
    const channel = new MessageChannel();
    let done = false;
    channel.port1.on('message', (rows: number) => {
      if (!done) onProgress(rows);
    });
    try {
      const answer = await this.workers().run(
        { ...task, progress: channel.port2 },
        { transferList: [channel.port2] },
      );
      done = true;
      // A progress message may arrive after the answer: the last figure is reported here, once more.
      if (answer.parsed !== null) onProgress(answer.parsed);
      return answer;
    } finally {
      done = true;
      channel.port1.close();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }

  private workers(): Piscina<ImportParseTask, ImportParseAnswer> {
    if (this.closed) throw new Error('The import parse pool is closed (shutting down).');
    if (this.pool) return this.pool;
    const filename = importParseWorkerFilename();
    if (!existsSync(filename)) {
      throw new Error(`Import parse worker ${filename} is missing: build the service first (npm run build).`);
    }
    this.pool = new Piscina<ImportParseTask, ImportParseAnswer>({
      filename,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_THREAD_MS,
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    return this.pool;
  }
}
