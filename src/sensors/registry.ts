/**
 * Builds each configured board's sensor source. Drivers with heavy dependencies (serialport,
 * johnny-five) are imported only when a board uses them, so the controller starts fast and one
 * driver that fails to load stops only its own boards.
 *
 * Adding a driver: add its source schema to `sourceSchema` in `src/config/schema.ts` (a
 * `driver` literal), then an entry in `SOURCE_FACTORIES` below that turns that config into a
 * `SensorSource` (import the module lazily with `await import('./x.js')`). TypeScript then
 * insists every driver of the schema has a factory.
 */
import type { BoardConfig, SourceConfig } from '../config/schema.js';
import type { Clock } from '../util/clock.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import type { SerialSourceOptions } from './serial.js';
import type { SensorSource } from './source.js';

export type SourceErrorCode = 'unavailable' | 'bad_log' | 'sensing_mismatch' | 'bad_config';

export interface SourceError extends CodedError<SourceErrorCode> {
  readonly board: string;
}

/** What tests and simulations inject; live use passes nothing. */
export interface SourceContext {
  /** Time for the drivers (default: the system clock). */
  readonly clock?: Clock;
  /** serialport binding for the serial and johnny-five drivers (tests: `SerialPortMock.binding`). */
  readonly binding?: SerialSourceOptions['binding'];
}

type Factory<C extends SourceConfig> = (
  id: string,
  config: C,
  context: SourceContext,
) => Promise<Result<SensorSource, SourceError>>;

type Factories = { readonly [D in SourceConfig['driver']]: Factory<Extract<SourceConfig, { driver: D }>> };

const fail = (board: string, code: SourceErrorCode, message: string): { ok: false; error: SourceError } =>
  err({ code, board, message: `board ${board}: ${message}` });

/** A driver module that cannot be loaded is that board's error, not the controller's crash. */
async function load<M>(
  board: string,
  driver: string,
  importer: () => Promise<M>,
): Promise<Result<M, SourceError>> {
  try {
    return ok(await importer());
  } catch (e) {
    return fail(board, 'unavailable', `the ${driver} driver cannot be loaded: ${(e as Error).message}`);
  }
}

export const SOURCE_FACTORIES: Factories = {
  async simulator(id, c, context) {
    const { BoardSimulator } = await import('./simulator.js');
    try {
      return ok(
        new BoardSimulator({
          id,
          sensing: c.sensing,
          heartbeatMs: c.heartbeatMs,
          ...(c.position !== undefined ? { position: c.position } : {}),
          ...(context.clock ? { clock: context.clock } : {}),
        }),
      );
    } catch (e) {
      return fail(id, 'bad_config', (e as Error).message);
    }
  },

  async replay(id, c, context) {
    const { ReplaySource, readSensorLogFile, asFastAsPossible, realTime } = await import('./replay.js');
    const log = await readSensorLogFile(c.file);
    if (!log.ok) return fail(id, 'bad_log', `${c.file}: ${log.error.message}`);
    const logSensing = log.value.header.sensing;
    if (c.sensing !== undefined && c.sensing !== logSensing) {
      return fail(
        id,
        'sensing_mismatch',
        `configured for ${c.sensing} sensing, but ${c.file} is ${logSensing}`,
      );
    }
    const pace =
      c.speed === 0
        ? asFastAsPossible()
        : realTime({ speed: c.speed, ...(context.clock ? { clock: context.clock } : {}) });
    return ok(new ReplaySource({ id, log: log.value, pace }));
  },

  async serial(id, c, context) {
    const mod = await load(id, 'serial', () => import('./serial.js'));
    if (!mod.ok) return mod;
    return ok(
      new mod.value.SerialSource({
        id,
        path: c.port,
        sensing: c.sensing,
        baudRate: c.baudRate,
        ...(c.reconnect ? { backoff: c.reconnect } : {}),
        ...(context.clock ? { clock: context.clock } : {}),
        ...(context.binding ? { binding: context.binding } : {}),
      }),
    );
  },

  async 'johnny-five'(id, c, context) {
    const mod = await load(id, 'johnny-five', () => import('./johnny-five.js'));
    if (!mod.ok) return mod;
    return ok(
      new mod.value.JohnnyFiveSource({
        id,
        path: c.port,
        baudRate: c.baudRate,
        addresses: c.addresses,
        heartbeatMs: c.heartbeatMs,
        ...(c.buttons ? { buttons: c.buttons } : {}),
        ...(context.clock ? { clock: context.clock } : {}),
        ...(context.binding ? { binding: context.binding } : {}),
      }),
    );
  },
};

/** The source of one board (not started: the caller starts it). */
export function createSource(
  board: BoardConfig,
  context: SourceContext = {},
): Promise<Result<SensorSource, SourceError>> {
  const factory = SOURCE_FACTORIES[board.source.driver] as Factory<SourceConfig>;
  return factory(board.id, board.source, context);
}

export interface CreatedSources {
  /** By board id, in configuration order. */
  readonly sources: Map<string, SensorSource>;
  /** Boards whose source could not be made; the others run. */
  readonly errors: readonly SourceError[];
}

/** The sources of all boards: one board's fault never stops another. */
export async function createSources(
  boards: readonly BoardConfig[],
  context: SourceContext = {},
): Promise<CreatedSources> {
  const results = await Promise.all(boards.map((b) => createSource(b, context)));
  const sources = new Map<string, SensorSource>();
  const errors: SourceError[] = [];
  results.forEach((r, i) => {
    if (r.ok) sources.set(boards[i]!.id, r.value);
    else errors.push(r.error);
  });
  return { sources, errors };
}
