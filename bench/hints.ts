/**
 * Do hints delay moves? The time from the frame that completes a move on a simulated board to
 * its MQTT move message, with nobody asking for hints, then with hints asked back to back the
 * whole time (the embedded Fairy-Stockfish, in its worker thread, at the configured hint strength).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { configSchema } from '../src/config/schema.js';
import { Controller } from '../src/controller/controller.js';
import { readPgn } from '../src/record/pgn.js';
import { type Move, Position } from '../src/rules/index.js';
import { isExtendable } from '../src/tracker/reader.js';

const PLIES = 30;

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (v: number): string => `${v.toFixed(1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

type Load = 'none' | 'engine';

interface Measured {
  /** Pieces that could not have gone further (announced after the bounce window). */
  readonly quick: number[];
  /** Pieces that could still slide (announced after the settle window). */
  readonly slide: number[];
  readonly hints: number;
}

async function measure(moves: readonly Move[], load: Load): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-bench-hints-'));
  const config = configSchema.parse({
    boards: [{ id: 'bench', source: { driver: 'simulator', heartbeatMs: 0 } }],
    mqtt: { baseTopic: 'bench', wsPort: 0 },
    archive: { dir },
    web: { enabled: false },
    engine: { hint: { movetimeMs: 300 } },
  });
  const controller = new Controller({ config, listen: { mqttPort: 0 } });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const client = connect(`mqtt://127.0.0.1:${started.value.broker!.port}`, { reconnectPeriod: 0 });
  await new Promise<void>((r) => client.once('connect', () => r()));
  await client.subscribeAsync('bench/bench/move', { qos: 1 });
  let arrived: ((at: number) => void) | undefined;
  client.on('message', () => arrived?.(performance.now()));
  const session = controller.sessions.get('bench')!;
  const sim = session.simulator!;
  await session.untilPlaying(10_000);

  let running = true;
  let hints = 0;
  const hinting = (async () => {
    while (running && load !== 'none') {
      await session.hint();
      hints++;
    }
  })();

  const quick: number[] = [];
  const slide: number[] = [];
  const pos = Position.default();
  for (const move of moves) {
    const extendable = isExtendable(pos, [move]);
    sim.lift(move.from);
    await sleep(60);
    if (sim.pieceAt(move.to)) {
      sim.remove(move.to);
      await sleep(60);
    }
    const message = new Promise<number>((r) => {
      arrived = r;
    });
    const placedAt = performance.now();
    sim.place(move.to);
    (extendable ? slide : quick).push((await message) - placedAt);
    pos.play(move);
    await sleep(60);
  }
  running = false;
  await hinting;
  await client.endAsync();
  await controller.stop();
  rmSync(dir, { recursive: true, force: true });
  return { quick, slide, hints };
}

export async function benchHints(): Promise<void> {
  const text = readFileSync(
    new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url),
    'utf8',
  );
  const first = readPgn(text)[0];
  if (!first?.ok) throw new Error('cannot read the benchmark game');
  const moves = first.value.moves.slice(0, PLIES).map((m) => m.move);
  for (const load of ['none', 'engine'] as const) {
    const { quick, slide, hints } = await measure(moves, load);
    const what =
      load === 'none' ? 'no hints' : `hints back to back, Fairy-Stockfish in its worker (${hints} hints)`;
    const figures = (v: number[]) => `p50 ${ms(percentile(v, 50))}, p99 ${ms(percentile(v, 99))}`;
    console.log(
      `completing frame → MQTT move message, ${what}: could not go further (${quick.length}) ${figures(quick)}; could slide (${slide.length}) ${figures(slide)}`,
    );
  }
}
