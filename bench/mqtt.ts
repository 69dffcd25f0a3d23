/**
 * The controller end to end: the time from the sensor frame that completes a move on the simulated
 * board to the move message at an MQTT subscriber — move reader, journal append with fsync, bus,
 * bridge, embedded broker, TCP — for pieces that could not have gone further (announced after the
 * bounce window) and for those that could (after the settle window). And the cost of the fsync
 * that makes a move durable before it is announced.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { configSchema } from '../src/config/schema.js';
import { Controller } from '../src/controller/controller.js';
import { GameJournal } from '../src/record/journal.js';
import { readPgn } from '../src/record/pgn.js';
import { Position } from '../src/rules/index.js';
import { isExtendable } from '../src/tracker/reader.js';
import { createLogger } from '../src/util/log.js';
import { benchHints } from './hints.js';

const PLIES = 40;

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

const ms = (v: number): string => `${v.toFixed(1)} ms`;

export async function benchMqtt(): Promise<void> {
  const text = readFileSync(
    new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url),
    'utf8',
  );
  const first = readPgn(text)[0];
  if (!first?.ok) throw new Error('cannot read the benchmark game');
  const moves = first.value.moves.slice(0, PLIES).map((m) => m.move);

  const dir = mkdtempSync(join(tmpdir(), 'xqboard-bench-mqtt-'));
  const config = configSchema.parse({
    boards: [{ id: 'bench', source: { driver: 'simulator', heartbeatMs: 0 } }],
    mqtt: { wsPort: 0, baseTopic: 'bench' },
    archive: { dir },
    web: { enabled: false },
  });
  const controller = new Controller({
    config,
    listen: { mqttPort: 0 },
    ...(process.env.XQBOARD_BENCH_LOG ? { logger: createLogger() } : {}),
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const client = connect(`mqtt://127.0.0.1:${started.value.broker!.port}`, { reconnectPeriod: 0 });
  await new Promise<void>((r) => client.once('connect', () => r()));
  await client.subscribeAsync('bench/bench/move', { qos: 1 });
  let arrived: ((at: number) => void) | undefined;
  client.on('message', () => arrived?.(performance.now()));

  const session = controller.sessions.get('bench')!;
  const sim = session.simulator!;
  while (session.currentPhase !== 'playing') await new Promise((r) => setTimeout(r, 10));
  const quick: number[] = [];
  const slide: number[] = [];
  const pos = Position.default();
  for (const move of moves) {
    const extendable = isExtendable(pos, [move]);
    sim.lift(move.from);
    await new Promise((r) => setTimeout(r, 60));
    if (sim.pieceAt(move.to)) {
      // The captured piece aside, long enough for the sensors to believe its square empty.
      sim.remove(move.to);
      await new Promise((r) => setTimeout(r, 60));
    }
    const message = new Promise<number>((r) => {
      arrived = r;
    });
    const placedAt = performance.now();
    sim.place(move.to);
    const at = await message;
    (extendable ? slide : quick).push(at - placedAt);
    pos.play(move);
    await new Promise((r) => setTimeout(r, 60));
  }
  await client.endAsync();
  await controller.stop();

  // The fsync behind "durable before announced", alone.
  const journal = GameJournal.create(dir, { id: 'fsync-bench' });
  if (!journal.ok) throw new Error(journal.error.message);
  const appends: number[] = [];
  for (let ply = 1; ply <= 200; ply++) {
    const t0 = performance.now();
    journal.value.appendMove({ ply, iccs: 'h2e2', t: ply });
    appends.push(performance.now() - t0);
  }
  journal.value.close();
  rmSync(dir, { recursive: true, force: true });

  console.log(
    `completing frame → MQTT move message, piece that could not go further (${quick.length} moves): p50 ${ms(percentile(quick, 50))}, p99 ${ms(percentile(quick, 99))}`,
  );
  console.log(
    `completing frame → MQTT move message, piece that could slide further (${slide.length} moves): p50 ${ms(percentile(slide, 50))}, p99 ${ms(percentile(slide, 99))}`,
  );
  console.log(
    `journal move append + fsync (200 appends, ${tmpdir()}): p50 ${ms(percentile(appends, 50))}, p99 ${ms(percentile(appends, 99))}`,
  );
  // Hints run in a worker thread: they must not delay a move's announcement.
  await benchHints();
}
