/**
 * The 1,125 master games of the reference data as the real-play scripts play them. The caller
 * gives the file's address from its own (the scripts run bundled from dist/; a shared chunk's
 * own address would be elsewhere).
 */
import { readFileSync } from 'node:fs';
import { readPgn } from '../src/record/pgn.js';
import { Position } from '../src/rules/index.js';
import type { GameSpec } from '../src/simulation/real-play-judge.js';

export function masterGames(pgn: URL): GameSpec[] {
  return readPgn(readFileSync(pgn, 'utf8')).map((r, i) => {
    if (!r.ok) throw new Error(`game ${i + 1}: ${r.error.message}`);
    const start = Position.fromFen(r.value.fen);
    if (!start.ok) throw new Error(`game ${i + 1}: ${start.error.message}`);
    return { label: `master ${i + 1}`, start: start.value, moves: r.value.moves.map((m) => m.move) };
  });
}
