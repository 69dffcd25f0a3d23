/** Shared helpers of the rules tests: loading FENs, a seeded random generator, random games and placements. */

import { describe, expect, it } from 'vitest';
import {
  type Color,
  type Move,
  makeFen,
  type Piece,
  Position,
  perft,
  type Role,
  type Setup,
  type Square,
} from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';
import { readSharedJson } from '../helpers/shared.js';

export interface PerftCase {
  src: string;
  fen: string;
  perft: number[] | Record<string, number>;
}
export const PERFT_CASES = readSharedJson<{ cases: PerftCase[] }>('data/perft.json').cases;

/** A case's counts as [depth, nodes] (perft.json gives them as a list from depth 1, or by depth). */
export const perftDepths = (c: PerftCase): [number, number][] =>
  Array.isArray(c.perft)
    ? c.perft.map((n, k) => [k + 1, n] as [number, number])
    : Object.entries(c.perft).map(([d, n]) => [Number(d), n] as [number, number]);

/** Each case's perft at the depths `wanted` keeps, make/unmake leaving the position as it was. */
export function describePerft(title: string, wanted: (depth: number) => boolean): void {
  describe(title, () => {
    for (const c of PERFT_CASES) {
      for (const [depth, nodes] of perftDepths(c).filter(([d]) => wanted(d))) {
        it(`${c.fen} depth ${depth} = ${nodes}`, () => {
          const pos = positionOf(c.fen);
          const before = pos.hash;
          expect(perft(pos, depth)).toBe(nodes);
          // make/unmake leaves the position exactly as it was
          expect(pos.hash).toBe(before);
        });
      }
    }
  });
}

export { positionOf as load } from '../helpers/positions.js';

export const fenOf = (pos: Position): string => makeFen(pos.toSetup());

export { rng } from '../../src/simulation/random.js';

export const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;

/**
 * Plays a random game from `start` and calls `visit` on every position before each move (and on the
 * last one). Captures and checkmates are preferred some of the time so games reach sparse boards and
 * mates instead of shuffling.
 */
export function randomGame(
  start: Position,
  random: () => number,
  maxPlies: number,
  visit: (pos: Position, ply: number) => void,
): void {
  const pos = start.clone();
  for (let ply = 0; ; ply++) {
    visit(pos, ply);
    const moves = pos.legalMoves();
    if (moves.length === 0 || ply >= maxPlies) return;
    pos.play(chooseMove(pos, moves, random));
  }
}

function chooseMove(pos: Position, moves: Move[], random: () => number): Move {
  const r = random();
  if (r < 0.3) {
    const mates = moves.filter((m) => {
      pos.play(m);
      const mate = !pos.hasLegalMove();
      pos.undo();
      return mate;
    });
    if (mates.length) return pick(random, mates);
  }
  if (r < 0.6) {
    const captures = moves.filter((m) => pos.pieceAt(m.to) !== undefined);
    if (captures.length) return pick(random, captures);
  }
  return pick(random, moves);
}

const LIMITS: [Role, number][] = [
  ['advisor', 2],
  ['elephant', 2],
  ['horse', 2],
  ['chariot', 2],
  ['cannon', 2],
  ['pawn', 5],
];

const allSquares: Square[] = Array.from({ length: 90 }, (_, sq) => sq);

/** Squares where a piece of this colour and role may stand in a legal position. */
export function allowedSquares(color: Color, role: Role): Square[] {
  return allSquares.filter((sq) => {
    const file = sq % 9;
    const rank = Math.floor(sq / 9);
    const rel = color === 'red' ? rank : 9 - rank;
    switch (role) {
      case 'king':
        return file >= 3 && file <= 5 && rel <= 2;
      case 'advisor': // d0 f0 e1 d2 f2
        return (file === 4 && rel === 1) || ((file === 3 || file === 5) && (rel === 0 || rel === 2));
      case 'elephant': // c0 g0 a2 e2 i2 c4 g4
        return ((file === 2 || file === 6) && (rel === 0 || rel === 4)) || (file % 4 === 0 && rel === 2);
      case 'pawn':
        return rel >= 5 || (rel >= 3 && file % 2 === 0);
      default:
        return true;
    }
  });
}

/**
 * A random placement of pieces on their allowed points, as a setup (it may still be illegal:
 * generals facing, or the side not to move in check). `density` 0..1 is how full the armies are.
 */
export function randomSetup(random: () => number, density = random()): Setup {
  const board: (Piece | undefined)[] = new Array(90).fill(undefined);
  for (const color of ['red', 'black'] as const) {
    board[pick(random, allowedSquares(color, 'king'))] = { color, role: 'king' };
    for (const [role, max] of LIMITS) {
      const free = allowedSquares(color, role).filter((sq) => !board[sq]);
      for (let k = 0; k < max && free.length; k++) {
        if (random() > density) continue;
        const at = free.splice(Math.floor(random() * free.length), 1)[0]!;
        board[at] = { color, role };
      }
    }
  }
  return { board, turn: random() < 0.5 ? 'red' : 'black', halfmoves: 0, fullmoves: 1 };
}

/** Random legal positions by placement: draws setups until one is legal. */
export function randomPlacement(random: () => number): Position {
  for (;;) {
    const pos = Position.fromSetup(randomSetup(random));
    if (pos.ok) return pos.value;
  }
}
