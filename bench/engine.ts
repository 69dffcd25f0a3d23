/**
 * The engine (src/engine): depth reached and nodes per second in one second of search from the
 * start position and two middlegames, then what a hint costs with the controller's budget.
 */
import { suggestMove } from '../src/controller/hint.js';
import { searchBest } from '../src/engine/search.js';
import { makeIccs } from '../src/rules/iccs.js';
import { positionOf } from '../test/helpers/positions.js';

const POSITIONS: readonly [string, string][] = [
  ['start', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'],
  [
    'central cannon v screen horses',
    'r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3',
  ],
  ['open middlegame', 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1'],
];

const SECONDS = 1;

export async function benchEngine(): Promise<void> {
  // Warm-up so the first row is not charged for compilation.
  searchBest(positionOf(POSITIONS[0]![1]), { maxDepth: 6 });

  const header = `${'position'.padEnd(32)} ${'depth'.padStart(5)} ${'nodes'.padStart(10)} ${'knodes/s'.padStart(9)}  ${'score'.padStart(6)}  pv`;
  console.log(`${SECONDS} s of search each (iterative deepening; depth = last completed iteration)`);
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const [name, fen] of POSITIONS) {
    const pos = positionOf(fen);
    const started = performance.now();
    const r = searchBest(pos, { maxDepth: 64, deadline: Date.now() + SECONDS * 1000 });
    const ms = performance.now() - started;
    const pv = r.pv.slice(0, 8).map(makeIccs).join(' ');
    console.log(
      `${name.padEnd(32)} ${String(r.depth).padStart(5)} ${String(r.nodes).padStart(10)} ${((r.nodes / ms) | 0).toString().padStart(9)}  ${String(r.score).padStart(6)}  ${pv}`,
    );
  }

  console.log('\nhint with the controller budget (suggestMove defaults)');
  for (const [name, fen] of POSITIONS) {
    const pos = positionOf(fen);
    const started = performance.now();
    const h = suggestMove(pos);
    const ms = performance.now() - started;
    console.log(`${name.padEnd(32)} ${h?.iccs ?? '-'}  depth ${h?.depth ?? 0}  ${ms.toFixed(0)} ms`);
  }
}
