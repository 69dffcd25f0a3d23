/**
 * The controller's service log: pino behind the small interface the call sites use. One JSON line
 * per event when the output is not a terminal (journald, log shippers), readable lines on a
 * terminal (pino-pretty, loaded only then). Both write synchronously: the last lines before an exit are never lost.
 * A board's parts log through `logger.child({ board })`, so every line of a board carries its id.
 */
import pino from 'pino';
import type prettyFactory from 'pino-pretty';

import type { LogLevel } from './log-level.js';
import { requirePackage } from './require.js';

export { LOG_LEVELS, type LogLevel } from './log-level.js';

/** Fields of a log line besides its message (`board`, `port`, …). */
export type LogFields = Readonly<Record<string, unknown>>;

/** Where the controller's parts report; `silentLogger` for tests. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose every line carries `bindings` (`{ board: 'board1' }`). */
  child(bindings: LogFields): Logger;
}

export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Readable lines instead of JSON; default: when the destination is a terminal. */
  readonly pretty?: boolean;
  /** A file descriptor (default 2, standard error). */
  readonly fd?: number;
}

/** A pino logger on standard error (or `fd`), JSON unless it is a terminal. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const fd = options.fd ?? 2;
  const tty = fd === 2 ? process.stderr.isTTY === true : fd === 1 ? process.stdout.isTTY === true : false;
  const readable = options.pretty ?? tty;
  const stream = readable
    ? (requirePackage('pino-pretty') as typeof prettyFactory)({
        destination: fd,
        sync: true,
        colorize: tty,
        ignore: 'pid,hostname,board',
        singleLine: true,
        translateTime: 'SYS:HH:MM:ss.l',
        messageFormat: '{if board}board {board}: {end}{msg}',
      })
    : pino.destination({ fd, sync: true });
  return wrap(pino({ level: options.level ?? 'info', base: { pid: process.pid } }, stream));
}

function wrap(p: pino.Logger): Logger {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: LogFields): void => {
      if (fields) p[level](fields, message);
      else p[level](message);
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (bindings) => wrap(p.child(bindings)),
  };
}
