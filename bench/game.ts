/**
 * The game model's cost per move (legality, history, every ending rule) over seeded random games,
 * the time to judge a repetition (chase detection over the cycle) on the cases of
 * repetition.json, and a takeback late in a long game (no replay from the start).
 */
import { readFileSync } from 'node:fs';
import { Game } from '../src/game/game.js';
import { parseIccs } from '../src/rules/index.js';
import { rng } from '../src/simulation/random.js';

export async function benchGame(): Promise<void> {
  const random = rng(1);
  let plies = 0;
  let played = 0;
  const started = performance.now();
  for (let g = 0; g < 200; g++) {
    const game = Game.start();
    if (!game.ok) throw new Error(game.error.message);
    for (let ply = 0; !game.value.outcome && ply < 300; ply++) {
      const pos = game.value.position;
      const moves = pos.legalMoves();
      const captures = moves.filter((m) => pos.pieceAt(m.to));
      const pool = captures.length > 0 && random() < 0.3 ? captures : moves;
      const m = pool[Math.floor(random() * pool.length)]!;
      const t0 = performance.now();
      game.value.play(m, ply);
      played += performance.now() - t0;
      plies++;
    }
  }
  const total = performance.now() - started;
  console.log(`Game.play: ${plies} plies in 200 random games, ${(played / plies).toFixed(3)} ms/ply`);
  console.log(
    `  (${((plies / played) * 1000).toFixed(0)} plies/s; whole loop with move choice ${total.toFixed(0)} ms)`,
  );

  const data = JSON.parse(
    readFileSync(new URL('../../shared/data/repetition.json', import.meta.url), 'utf8'),
  ) as {
    cases: { fen: string; moves: string[] }[];
  };
  const judged: number[] = [];
  for (let run = 0; run < 5; run++) {
    for (const c of data.cases) {
      const game = Game.start(c.fen.replace(/\[[^\]]*\]/, ''));
      if (!game.ok) throw new Error(game.error.message);
      const moves = c.moves.map((text) => {
        const m = parseIccs(text);
        if (!m.ok) throw new Error(m.error.message);
        return m.value;
      });
      for (const [k, m] of moves.entries()) {
        const t0 = performance.now();
        game.value.play(m, k);
        const dt = performance.now() - t0;
        if (game.value.outcome) {
          if (run > 0) judged.push(dt);
          break;
        }
      }
    }
  }
  judged.sort((a, b) => a - b);
  const at = (q: number) => judged[Math.min(judged.length - 1, Math.floor(q * judged.length))]!.toFixed(3);
  console.log(`repetition judged (the move that completes it): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  benchTakeback();
}

/**
 * A takeback and the position before the last move, at ply 100 and ply 400 of one game: with the
 * positions kept per ply their cost does not grow with the game.
 */
export function benchTakeback(): void {
  const random = rng(3);
  const game = Game.start(undefined, { moveLimit: 0 });
  if (!game.ok) throw new Error(game.error.message);
  const g = game.value;
  const at: Record<number, string> = {};
  for (const target of [100, 400]) {
    while (g.moves.length < target && !g.isOver) {
      const moves = g.position.legalMoves();
      g.play(moves[Math.floor(random() * moves.length)]!);
    }
    const runs = 2000;
    const t0 = performance.now();
    for (let k = 0; k < runs; k++) {
      const last = g.moves.at(-1)!;
      g.undoLast();
      g.play(last.move);
      g.positionAfter(g.moves.length - 1);
    }
    at[g.moves.length] = (((performance.now() - t0) / runs) * 1000).toFixed(1);
  }
  const plies = Object.keys(at);
  console.log(
    `takeback + replay of the move + position before it: ${plies.map((p) => `${at[Number(p)]} µs at ply ${p}`).join(', ')}`,
  );
}
