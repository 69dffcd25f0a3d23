/**
 * Game records: the streaming PGN reader on the 1,125-game ICCS file (read, decode, replay every
 * move legally), writing it in each notation, reading WXF and Chinese back, and a memory figure
 * for streaming a large file (the 1,125 games repeated 20 times, 22,500 games).
 */
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { NotationName } from '../src/notation/index.js';
import { type PgnGame, readPgn, writePgnFile } from '../src/record/pgn.js';
import { readPgnStream } from '../src/record/stream.js';

const FILE = fileURLToPath(new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url));
const RUNS = 3;

async function readAll(source: AsyncIterable<Uint8Array>): Promise<PgnGame[]> {
  const games: PgnGame[] = [];
  for await (const r of readPgnStream(source)) {
    if (!r.ok) throw new Error(r.error.message);
    games.push(r.value);
  }
  return games;
}

export async function benchRecord(): Promise<void> {
  let games: PgnGame[] = [];
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    games = await readAll(createReadStream(FILE, { highWaterMark: 64 * 1024 }));
    best = Math.min(best, performance.now() - t0);
  }
  const plies = games.reduce((s, g) => s + g.moves.length, 0);
  console.log(
    `stream-read liu-dahua-1125-iccs.pgn: ${games.length} games, ${plies} plies in ${best.toFixed(0)} ms = ` +
      `${Math.round(games.length / (best / 1000))} games/s, ${Math.round(plies / (best / 1000))} moves/s (best of ${RUNS})`,
  );
  for (const notation of ['iccs', 'wxf', 'chinese'] as NotationName[]) {
    const t0 = performance.now();
    const text = writePgnFile(games, { notation });
    const t1 = performance.now();
    const back = readPgn(text);
    const t2 = performance.now();
    if (back.some((r) => !r.ok)) throw new Error(`${notation}: a game did not read back`);
    console.log(
      `  ${notation.padEnd(7)} write ${Math.round(games.length / ((t1 - t0) / 1000))} games/s, ` +
        `read back ${Math.round(games.length / ((t2 - t1) / 1000))} games/s (${Math.round(plies / ((t2 - t1) / 1000))} moves/s)`,
    );
  }
  // Memory while streaming 20 copies of the file: what the heap retains (after a collection, with
  // --expose-gc as npm run bench runs) stays near its start.
  const bytes = readFileSync(FILE);
  const copies = 20;
  const source = Readable.from(
    (function* () {
      for (let k = 0; k < copies; k++)
        for (let o = 0; o < bytes.length; o += 65536) yield bytes.subarray(o, o + 65536);
    })(),
  );
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let n = 0;
  const t0 = performance.now();
  for await (const r of readPgnStream(source)) {
    if (!r.ok) throw new Error(r.error.message);
    if (++n % 2500 === 0) {
      (globalThis as { gc?: () => void }).gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  const ms = performance.now() - t0;
  console.log(
    `stream ${n} games (${((bytes.length * copies) / 1e6).toFixed(1)} MB): ${Math.round(n / (ms / 1000))} games/s, ` +
      `heap retained ${(before / 1e6).toFixed(0)} MB at start, at most ${(peak / 1e6).toFixed(0)} MB`,
  );
}
