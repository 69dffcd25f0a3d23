/**
 * The engine (src/engine, the embedded Fairy-Stockfish WebAssembly in its worker thread): the depth
 * it reaches in 1 s from the start and from three middlegames (goal: 12), then, in a fresh
 * controller process (so the figures are the controller's alone), the time from start-up to the
 * first hint and the resident set after start and after that hint.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema } from '../src/config/schema.js';
import { Controller } from '../src/controller/controller.js';
import { EngineService, scoreWords } from '../src/controller/hint.js';

const POSITIONS: readonly [string, string][] = [
  ['start', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'],
  [
    'central cannon v screen horses',
    'r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3',
  ],
  ['open middlegame', 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1'],
  ['rooks and cannons', '2bak4/4a4/2n1b1c2/p3p1R1p/2p6/6r2/P1P1P3P/2N1C4/4A4/2BAK1B2 w - - 0 1'],
];

const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export const ENGINE_CHILD = '--engine-memory-child';

export async function benchEngine(): Promise<void> {
  const service = new EngineService(configSchema.parse({}).engine);
  // Started (and warmed) before the clock: the start-up time is measured below, in the controller.
  await service.engine.search({ fen: POSITIONS[0]![1], moves: [], limits: { depth: 4 } });
  // Figures in wall time: a machine busy with other work shows fewer nodes and less depth.
  const load = loadavg()[0]!.toFixed(1);
  console.log(
    `${service.name}: 1 s of search (go movetime 1000) each; load average ${load} on ${availableParallelism()} cores`,
  );
  const header = `${'position'.padEnd(32)} ${'depth'.padStart(5)} ${'nodes'.padStart(9)} ${'knodes/s'.padStart(8)}  ${'evaluation'.padStart(12)}  best`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const [name, fen] of POSITIONS) {
    const r = await service.engine.search({ fen, moves: [], limits: { movetimeMs: 1000 } });
    const knps = r.nodes !== undefined ? ((r.nodes / r.ms) | 0).toString() : '-';
    console.log(
      `${name.padEnd(32)} ${String(r.depth).padStart(5)} ${String(r.nodes ?? '-').padStart(9)} ${knps.padStart(8)}  ${scoreWords(r.score).padStart(12)}  ${r.move ?? '-'}`,
    );
  }
  await service.close();

  // A fresh process: the controller with one simulated board, nothing else loaded.
  const out = execFileSync(process.execPath, ['--expose-gc', process.argv[1]!, ENGINE_CHILD], {
    encoding: 'utf8',
  });
  process.stdout.write(out);
}

/** The child: a controller started, its first hint, and its memory at both points. */
export async function engineMemoryChild(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-bench-engine-'));
  const config = configSchema.parse({
    boards: [{ id: 'bench', source: { driver: 'simulator', heartbeatMs: 0 } }],
    mqtt: { wsPort: 0 },
    archive: { dir },
    web: { enabled: false },
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  const controller = new Controller({ config, listen: { mqttPort: 0 } });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const session = controller.sessions.get('bench')!;
  await session.untilPlaying(10_000);
  gc?.();
  const rssStart = process.memoryUsage().rss;
  const t0 = performance.now();
  const hint = await session.hint();
  const ms = performance.now() - t0;
  gc?.();
  const rssHint = process.memoryUsage().rss;
  if (!hint.ok) throw new Error(hint.error.message);
  const t1 = performance.now();
  await session.hint();
  const again = performance.now() - t1;
  console.log(
    `\nfirst hint after start-up (engine loaded on demand, then ${config.engine.hint.movetimeMs} ms of search): ${ms.toFixed(0)} ms (${hint.value.message}); the next one: ${again.toFixed(0)} ms`,
  );
  console.log(`controller resident set: after start ${MB(rssStart)}, after the first hint ${MB(rssHint)}`);
  await controller.stop();
  rmSync(dir, { recursive: true, force: true });
}
