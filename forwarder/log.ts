/** Log levels, least to most severe. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Readonly<Record<string, unknown>>;

/** A structured logger: one JSON object per line, `{time, level, msg, ...fields}`. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  readonly level: LogLevel;
  readonly write?: (line: string) => void;
  readonly now?: () => number;
}

/** A logger writing JSON lines (to stdout unless told otherwise). */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const threshold = LOG_LEVELS.indexOf(options.level);
  const emit = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    write(JSON.stringify({ time: new Date(now()).toISOString(), level, msg, ...fields }, replaceErrors));
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

/** A logger that drops everything (tests that assert on metrics, not logs). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Errors do not serialise to JSON on their own; keep their name, message and code. */
function replaceErrors(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
  }
  return value;
}
