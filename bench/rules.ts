/** Perft nodes/s of this rules core against Fairy-Stockfish (WebAssembly) on the same positions. */
import { readFileSync } from 'node:fs';
import { parseFen } from '../src/rules/fen.js';
import { perft } from '../src/rules/perft.js';
import { Position } from '../src/rules/position.js';

interface PerftCase {
  fen: string;
  perft: number[] | Record<string, number>;
}

export async function benchRules(): Promise<void> {
  const data = JSON.parse(
    readFileSync(new URL('../../shared/data/perft.json', `file://${process.cwd()}/`), 'utf8'),
  ) as {
    cases: PerftCase[];
  };
  let totalNodes = 0;
  let totalMs = 0;
  for (const c of data.cases) {
    const setup = parseFen(c.fen);
    if (!setup.ok) throw new Error(setup.error.message);
    const pos = Position.fromSetup(setup.value);
    if (!pos.ok) throw new Error(pos.error.message);
    const t = performance.now();
    const nodes = perft(pos.value, 4);
    const ms = performance.now() - t;
    totalNodes += nodes;
    totalMs += ms;
    console.log(
      `${c.fen.padEnd(80)} ${String(nodes).padStart(9)} ${(nodes / ms / 1000).toFixed(2).padStart(7)} Mn/s`,
    );
  }
  console.log(
    `total ${totalNodes} nodes in ${totalMs.toFixed(0)} ms: ${(totalNodes / totalMs / 1000).toFixed(2)} Mnodes/s`,
  );
}
