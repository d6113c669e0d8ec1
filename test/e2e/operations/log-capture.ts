/**
 * The log lines of operations.e2e-spec.ts's app, from its first line on (the file passes `logs` to
 * useE2eWorld): the logging and admin-api suites read them. One module instance per test file, so
 * the suites and the file share it.
 */
import { Writable } from 'node:stream';

class LogCapture extends Writable {
  /** Every chunk as the service wrote it. */
  readonly chunks: string[] = [];
  /** Every line, raw and parsed. */
  readonly raw: string[] = [];
  readonly lines: Record<string, unknown>[] = [];

  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    const text = chunk.toString('utf8');
    this.chunks.push(text);
    for (const line of text.split('\n').filter(Boolean)) {
      this.raw.push(line);
      this.lines.push(JSON.parse(line));
    }
    done();
  }
}

export const logs = new LogCapture();
