/**
 * The match that decided which engine xqboard keeps: Fairy-Stockfish WebAssembly (`go movetime`)
 * against xqboard's own search (src/engine/search.ts, iterative deepening to a deadline), the same
 * time a move, from the most frequent openings of a PGN file, each opening played with both colours.
 * Games are judged by the game model (src/game: mate, stalemate, AXF repetition, the 60-move rule);
 * a game still going at the ply cap is a draw.
 *
 *   node scripts/build.mjs && node dist/engine-match.js [--ms 300] [--openings 10] [--plies 6] [--pgn FILE]
 */
import { readFileSync } from 'node:fs';
import { searchBest } from '../src/engine/search.js';
import { Game } from '../src/game/game.js';
import { parseGame, splitGames } from '../src/record/pgn.js';
import { makeFen } from '../src/rules/fen.js';
import { makeIccs } from '../src/rules/iccs.js';
import type { Color, Move } from '../src/rules/types.js';
import { FairyStockfish } from '../test/helpers/fairy-engine.js';
import { fairyToMove } from '../test/rules/fairy.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
};
const MS = Number(arg('ms', '300'));
const OPENINGS = Number(arg('openings', '10'));
const OPENING_PLIES = Number(arg('plies', '6'));
const MAX_PLIES = Number(arg('max-plies', '300'));
const PGN = arg('pgn', new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url).pathname);

/** The most frequent first `plies` moves of the file's games, most frequent first. */
function openings(text: string): string[][] {
  const count = new Map<string, number>();
  for (const [i, chunk] of splitGames(text).entries()) {
    const game = parseGame(chunk, i + 1);
    if (!game.ok || game.value.moves.length < OPENING_PLIES) continue;
    const key = game.value.moves
      .slice(0, OPENING_PLIES)
      .map((m) => m.iccs)
      .join(' ');
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return [...count.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, OPENINGS)
    .map(([k]) => k.split(' '));
}

const toFairy = (iccs: string): string => `${iccs[0]}${Number(iccs[1]) + 1}${iccs[2]}${Number(iccs[3]) + 1}`;

async function play(fairy: FairyStockfish, opening: string[], fairyColor: Color) {
  const started = Game.start();
  if (!started.ok) throw new Error(started.error.message);
  const game = started.value;
  const startFen = game.fen;
  const played: string[] = [];
  for (const iccs of opening) {
    const pos = game.position;
    const move = pos.legalMoves().find((m) => makeIccs(m) === iccs);
    if (!move || !game.play(move).ok) throw new Error(`opening move ${iccs} is illegal`);
    played.push(iccs);
  }
  fairy.send('ucinewgame');
  await fairy.request('isready', /^readyok$/);
  while (!game.isOver && played.length < MAX_PLIES) {
    let move: Move | undefined;
    if (game.turn === fairyColor) {
      fairy.send(`position fen ${startFen} moves ${played.map(toFairy).join(' ')}`);
      const line = await fairy.request(`go movetime ${MS}`, /^bestmove /);
      const uci = line.split(' ')[1]!;
      move = uci === '(none)' ? undefined : fairyToMove(uci);
    } else {
      move = searchBest(game.position, { maxDepth: 64, deadline: Date.now() + MS }).move;
    }
    if (!move) break;
    const r = game.play(move);
    if (!r.ok) throw new Error(`${r.error.message} (${game.turn === fairyColor ? 'fairy' : 'ours'})`);
    played.push(makeIccs(move));
  }
  const outcome = game.outcome;
  const result = outcome?.result ?? '1/2-1/2';
  const fairyScore = result === '1/2-1/2' ? 0.5 : (result === '1-0') === (fairyColor === 'red') ? 1 : 0;
  return {
    result,
    reason: outcome?.reason ?? 'ply cap',
    plies: played.length,
    fairyScore,
    fen: makeFen(game.position.toSetup()),
  };
}

const list = openings(readFileSync(PGN, 'utf8'));
const fairy = await FairyStockfish.start();
let fairyTotal = 0;
const tally = { fairyWins: 0, draws: 0, oursWins: 0 };
const reasons = new Map<string, number>();
console.log(
  `Fairy-Stockfish (go movetime ${MS}) v xqboard search (deadline ${MS} ms), ${list.length} openings of ${OPENING_PLIES} plies, both colours`,
);
for (const [i, opening] of list.entries()) {
  for (const fairyColor of ['red', 'black'] as const) {
    const t0 = Date.now();
    const g = await play(fairy, opening, fairyColor);
    fairyTotal += g.fairyScore;
    if (g.fairyScore === 1) tally.fairyWins++;
    else if (g.fairyScore === 0) tally.oursWins++;
    else tally.draws++;
    reasons.set(g.reason, (reasons.get(g.reason) ?? 0) + 1);
    console.log(
      `opening ${i + 1} [${opening.join(' ')}] fairy ${fairyColor.padEnd(5)}: ${g.result.padEnd(7)} ${g.reason.padEnd(16)} ${String(g.plies).padStart(3)} plies  ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
}
const games = list.length * 2;
console.log(
  `Fairy-Stockfish ${fairyTotal}/${games} (${((100 * fairyTotal) / games).toFixed(1)} %): ${tally.fairyWins} wins, ${tally.draws} draws, ${tally.oursWins} losses; endings: ${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')}`,
);
fairy.stop();
process.exit(0);
