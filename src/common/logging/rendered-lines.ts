import pino, { type Level, type Logger } from 'pino';

/** pino.symbols, pino's integration point, by name (not all of them are in its types). */
const symbols = pino.symbols as unknown as Readonly<Record<string, symbol>>;

interface Stream {
  write(line: string): void;
}

/** The parts of a pino logger a line is assembled from. */
function partOf<T>(logger: Logger, name: string): T {
  return (logger as unknown as Record<symbol, T>)[symbols[name]!]!;
}

/**
 * Lines whose properties the caller has rendered as JSON itself, written with a pino logger's own
 * parts: its level field, time, bindings (pid, hostname), message key and line end, to its stream.
 * The line is the one `logger[level](object, msg)` writes for the object those properties render,
 * without pino walking the object: for the nested `req`/`res` of a request line that walk (safe
 * JSON of each nested object) was most of a line's cost, ~8 % of a cached balances read.
 *
 * A logger configured with something this does not reproduce (a mixin, a nested key, a log
 * formatter, a stream-write hook, a message prefix, a stream that wants pino's metadata) gets the
 * parsed properties through its own method instead: the same line, at pino's cost.
 */
export class RenderedLines {
  /** `{"level":"info"` and the like, by level number. */
  private readonly levelField: Readonly<Record<number, string>>;
  /** `,"time":…` now. */
  private readonly time: () => string;
  /** `,"pid":…,"hostname":…`. */
  private readonly bindings: string;
  private readonly messageKey: string;
  private readonly end: string;
  private readonly stream: Stream;
  private readonly direct: boolean;

  constructor(private readonly logger: Logger) {
    this.levelField = partOf(logger, 'lsCacheSym');
    this.time = partOf<() => string>(logger, 'timeSym').bind(logger);
    this.bindings = partOf(logger, 'chindingsSym');
    this.messageKey = partOf(logger, 'messageKeySym');
    this.end = partOf(logger, 'endSym');
    this.stream = partOf(logger, 'streamSym');
    const stream = this.stream as unknown as Record<symbol, unknown>;
    this.direct =
      !partOf<unknown>(logger, 'mixinSym') &&
      !partOf<unknown>(logger, 'nestedKeySym') &&
      !partOf<{ log?: unknown }>(logger, 'formattersSym').log &&
      !partOf<{ streamWrite?: unknown }>(logger, 'hooksSym').streamWrite &&
      !partOf<unknown>(logger, 'msgPrefixSym') &&
      stream[symbols.needsMetadataGsym!] !== true;
  }

  /** Whether lines of `level` are written at the logger's current level. */
  enabled(level: Level): boolean {
    return this.logger.isLevelEnabled(level);
  }

  /**
   * Writes one line at `level` (the caller checked `enabled`): `properties` is the rendered
   * object's members, each preceded by a comma (`,"key":value,…`), `msg` the message.
   */
  write(level: Level, properties: string, msg: string): void {
    if (!this.direct) {
      this.logger[level](JSON.parse(`{${properties.slice(1)}}`) as object, msg);
      return;
    }
    this.stream.write(
      this.levelField[this.logger.levels.values[level]!] +
        this.time() +
        this.bindings +
        properties +
        ',"' +
        this.messageKey +
        '":' +
        JSON.stringify(msg) +
        this.end,
    );
  }
}
