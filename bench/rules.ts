/**
 * Perft nodes/s of this rules core and, side by side in the same run, of Fairy-Stockfish
 * (npm fairy-stockfish-nnue.wasm, WebAssembly, `go perft`) on the positions of perft.json at depth 4;
 * then the start position at depth 5 with progress. Node counts are checked against perft.json.
 */
import { readFileSync } from 'node:fs';
import { perft } from '../src/rules/index.js';
import { FairyStockfish } from '../test/helpers/fairy-engine.js';
import { positionOf } from '../test/helpers/positions.js';

interface PerftCase {
  fen: string;
  perft: number[] | Record<string, number>;
}

/** Best of this many timed runs for each side (the first runs pay for compilation). */
const RUNS = 3;
const DEPTH = 4;

const expectedAt = (c: PerftCase, depth: number): number | undefined =>
  Array.isArray(c.perft) ? c.perft[depth - 1] : c.perft[String(depth)];

// ---------------------------------------------------------------- report

const mnps = (nodes: number, ms: number): string => (nodes / ms / 1000).toFixed(2);
const shortFen = (fen: string): string => {
  const board = fen.split(' ').slice(0, 2).join(' ');
  return board.length > 46 ? `${board.slice(0, 45)}…` : board;
};

function ourPerft(fen: string, depth: number): { nodes: number; ms: number } {
  let best = { nodes: 0, ms: Number.POSITIVE_INFINITY };
  for (let run = 0; run < RUNS; run++) {
    const pos = positionOf(fen);
    const started = performance.now();
    const nodes = perft(pos, depth);
    const ms = performance.now() - started;
    if (ms < best.ms) best = { nodes, ms };
  }
  return best;
}

async function theirPerft(
  engine: FairyStockfish,
  fen: string,
  depth: number,
): Promise<{ nodes: number; ms: number }> {
  let best = { nodes: 0, ms: Number.POSITIVE_INFINITY };
  for (let run = 0; run < RUNS; run++) {
    const r = await engine.perft(fen, depth);
    if (r.ms < best.ms) best = r;
  }
  return best;
}

export async function benchRules(): Promise<void> {
  const { cases } = JSON.parse(
    readFileSync(new URL('../../shared/data/perft.json', import.meta.url), 'utf8'),
  ) as {
    cases: PerftCase[];
  };
  const engine = await FairyStockfish.start();
  try {
    // Warm both up so the first row is not charged for compilation.
    ourPerft(cases[0]!.fen, 3);
    await engine.perft(cases[0]!.fen, 3);

    console.log(
      `perft ${DEPTH}, best of ${RUNS} runs each; Mn/s = million nodes per second; ratio = xqboard / FSF`,
    );
    const header = `${'#'.padStart(2)}  ${'position'.padEnd(46)} ${'nodes'.padStart(9)}  ${'xqboard'.padStart(8)}  ${'FSF wasm'.padStart(8)}  ${'ratio'.padStart(6)}  check`;
    console.log(header);
    console.log('-'.repeat(header.length));
    let ourNodes = 0;
    let ourMs = 0;
    let theirMs = 0;
    let allExact = true;
    for (const [k, c] of cases.entries()) {
      const ours = ourPerft(c.fen, DEPTH);
      const theirs = await theirPerft(engine, c.fen, DEPTH);
      const expected = expectedAt(c, DEPTH);
      const exact = ours.nodes === theirs.nodes && (expected === undefined || ours.nodes === expected);
      allExact &&= exact;
      ourNodes += ours.nodes;
      ourMs += ours.ms;
      theirMs += theirs.ms;
      console.log(
        `${String(k + 1).padStart(2)}  ${shortFen(c.fen).padEnd(46)} ${String(ours.nodes).padStart(9)}  ${mnps(ours.nodes, ours.ms).padStart(8)}  ${mnps(theirs.nodes, theirs.ms).padStart(8)}  ${`${(theirs.ms / ours.ms).toFixed(2)}×`.padStart(6)}  ${exact ? 'ok' : `MISMATCH (FSF ${theirs.nodes}, expected ${expected})`}`,
      );
    }
    console.log('-'.repeat(header.length));
    console.log(
      `${''.padStart(2)}  ${'total'.padEnd(46)} ${String(ourNodes).padStart(9)}  ${mnps(ourNodes, ourMs).padStart(8)}  ${mnps(ourNodes, theirMs).padStart(8)}  ${`${(theirMs / ourMs).toFixed(2)}×`.padStart(6)}  ${allExact ? 'ok' : 'MISMATCH'}`,
    );
    console.log(
      `time: xqboard ${ourMs.toFixed(0)} ms, Fairy-Stockfish ${theirMs.toFixed(0)} ms for ${ourNodes} nodes (goal: ratio ≥ 3×)`,
    );
  } finally {
    engine.stop();
  }
  deepStartPerft(cases[0]!);
}

/** The start position at depth 5 (133,312,995 nodes), one root move at a time so progress shows. */
function deepStartPerft(start: PerftCase): void {
  const expected = expectedAt(start, 5);
  const pos = positionOf(start.fen);
  const roots = pos.legalMoves();
  const tty = process.stdout.isTTY === true;
  console.log(`\nperft 5 of the start position (${roots.length} root moves):`);
  const started = performance.now();
  let nodes = 0;
  roots.forEach((move, k) => {
    pos.play(move);
    nodes += perft(pos, 4);
    pos.undo();
    const ms = performance.now() - started;
    const line = `  ${String(k + 1).padStart(2)}/${roots.length} root moves  ${String(nodes).padStart(11)} nodes  ${(ms / 1000).toFixed(1)} s  ${mnps(nodes, ms)} Mn/s`;
    if (tty) process.stdout.write(`\r${line}`);
    else if ((k + 1) % 11 === 0 || k + 1 === roots.length) console.log(line);
  });
  if (tty) process.stdout.write('\n');
  const ms = performance.now() - started;
  const verdict = nodes === expected ? 'ok' : `MISMATCH (expected ${expected})`;
  console.log(`  ${nodes} nodes in ${(ms / 1000).toFixed(2)} s: ${mnps(nodes, ms)} Mn/s  ${verdict}`);
}
