/** pino's levels, most severe first (kept apart from log.ts so the configuration schema does not load pino). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
