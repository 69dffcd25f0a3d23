/**
 * A match between two engines through xqboard's engine interface (src/engine), the same time a
 * move, from the most frequent openings of a PGN file, each opening played with both colours.
 * Games are judged by the game model (src/game: mate, stalemate, AXF repetition, the 60-move
 * rule); a game still going at the ply cap is a draw. Each engine is `fairy` (the embedded
 * Fairy-Stockfish WebAssembly), `uci:PATH` or `ucci:PATH`, optionally `@skill` (0–20).
 *
 * It first decided which engine xqboard keeps: Fairy-Stockfish against xqboard's own alpha-beta
 * search (that version of this script is in the history, commit bab48ca), 300 ms a move, the 10
 * most frequent 6-ply openings of liu-dahua-1125-iccs.pgn, both colours: Fairy-Stockfish 18/20
 * (90 %), 18 wins, 0 draws, 2 losses (17 mates, 2 perpetual checks, 1 stalemate). The search was
 * removed.
 *
 *   node scripts/build.mjs && node dist/engine-match.js --a fairy --b uci:/usr/local/bin/pikafish
 *     [--ms 300] [--openings 10] [--plies 6] [--max-plies 300] [--pgn FILE]
 */
import { readFileSync } from 'node:fs';
import { configSchema } from '../src/config/schema.js';
import { engineOf } from '../src/controller/hint.js';
import type { Engine } from '../src/engine/engine.js';
import { Game } from '../src/game/game.js';
import { parseGame, splitGames } from '../src/record/pgn.js';
import { type Color, makeIccs } from '../src/rules/index.js';

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

interface Player {
  readonly label: string;
  readonly engine: Engine;
  readonly skill: number | undefined;
}

function player(spec: string): Player {
  const [what, skillText] = spec.split('@') as [string, string | undefined];
  const [kind, ...rest] = what.split(':');
  const path = rest.join(':');
  const config = configSchema.parse({
    engine: kind === 'fairy' ? { kind: 'fairy' } : { kind, path },
  }).engine;
  const engine = engineOf(config, (e) => {
    if (e.type !== 'started') console.error(`${spec}: ${e.message}`);
  });
  return { label: spec, engine, skill: skillText === undefined ? undefined : Number(skillText) };
}

async function play(a: Player, b: Player, opening: string[], aColor: Color) {
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
  while (!game.isOver && played.length < MAX_PLIES) {
    const mover = game.turn === aColor ? a : b;
    const r = await mover.engine.search({
      fen: startFen,
      moves: played,
      limits: { movetimeMs: MS, ...(mover.skill !== undefined ? { skill: mover.skill } : {}) },
    });
    const move = r.move ? game.position.legalMoves().find((m) => makeIccs(m) === r.move) : undefined;
    if (!move) throw new Error(`${mover.label} answered ${r.move ?? 'no move'} at ply ${played.length + 1}`);
    const done = game.play(move);
    if (!done.ok) throw new Error(`${done.error.message} (${mover.label})`);
    played.push(r.move!);
  }
  const outcome = game.outcome;
  const result = outcome?.result ?? '1/2-1/2';
  const aScore = result === '1/2-1/2' ? 0.5 : (result === '1-0') === (aColor === 'red') ? 1 : 0;
  return { result, reason: outcome?.reason ?? 'ply cap', plies: played.length, aScore };
}

const list = openings(readFileSync(PGN, 'utf8'));
const a = player(arg('a', 'fairy'));
const b = player(arg('b', 'fairy@10'));
let aTotal = 0;
const tally = { wins: 0, draws: 0, losses: 0 };
const reasons = new Map<string, number>();
console.log(
  `${a.label} v ${b.label}, ${MS} ms a move, ${list.length} openings of ${OPENING_PLIES} plies, both colours`,
);
for (const [i, opening] of list.entries()) {
  for (const aColor of ['red', 'black'] as const) {
    const t0 = Date.now();
    const g = await play(a, b, opening, aColor);
    aTotal += g.aScore;
    if (g.aScore === 1) tally.wins++;
    else if (g.aScore === 0) tally.losses++;
    else tally.draws++;
    reasons.set(g.reason, (reasons.get(g.reason) ?? 0) + 1);
    console.log(
      `opening ${i + 1} [${opening.join(' ')}] ${a.label} ${aColor.padEnd(5)}: ${g.result.padEnd(7)} ${g.reason.padEnd(16)} ${String(g.plies).padStart(3)} plies  ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
}
const games = list.length * 2;
console.log(
  `${a.label} ${aTotal}/${games} (${((100 * aTotal) / games).toFixed(1)} %): ${tally.wins} wins, ${tally.draws} draws, ${tally.losses} losses; endings: ${[...reasons].map(([r, n]) => `${r} ${n}`).join(', ')}`,
);
await Promise.all([a.engine.close(), b.engine.close()]);
