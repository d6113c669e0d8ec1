import type { DestinationStream } from 'pino';

/** The streams with lines still to write; written at 'exit' (process.exit mid-turn). */
const unflushed = new Set<TurnBatchedStream>();
let exitHook = false;

/**
 * Lines logged during one turn of the event loop, handed to `destination` together at the turn's
 * end (setImmediate), in the order they were logged: under load one write (one system call on
 * stdout) carries the request lines of every request answered in that turn, instead of one each.
 *
 * A line waits only until the turn ends, never for more lines or a timer: a graceful shutdown
 * (which spans many turns) and an idle service write each line as soon as its turn is over, and a
 * `process.exit()` in the middle of a turn writes what is pending from the 'exit' event. Only a
 * kill without warning (SIGKILL) in that turn loses its lines.
 */
export class TurnBatchedStream implements DestinationStream {
  private pending = '';

  constructor(private readonly destination: DestinationStream) {
    if (!exitHook) {
      exitHook = true;
      process.once('exit', () => {
        for (const stream of unflushed) stream.flush();
      });
    }
  }

  write(line: string): void {
    if (this.pending === '') {
      unflushed.add(this);
      setImmediate(this.flush);
    }
    this.pending += line;
  }

  /** Hands the pending lines to the destination now. */
  readonly flush = (): void => {
    const text = this.pending;
    if (text === '') return;
    this.pending = '';
    unflushed.delete(this);
    this.destination.write(text);
  };
}
