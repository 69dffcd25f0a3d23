/**
 * Games played to their end, compared with Fairy-Stockfish's rules library (ffish 0.7.10) playing
 * the same moves: the same legal moves at every ply, the same checkmates and stalemates, and no
 * ending of ours that Fairy-Stockfish does not see. A second set of games shuffles pieces back
 * and forth so that positions repeat, and compares the repetition verdicts (perpetual check,
 * perpetual chase, draw) with Fairy-Stockfish's AXF rules.
 */
import type { FairyStockfish } from 'ffish';
import { beforeAll, describe, expect, it } from 'vitest';
import { chasedBy } from '../../src/game/chase.js';
import { Game } from '../../src/game/game.js';
import {
  attacksFrom,
  type Board,
  type Move,
  makeIccs,
  Position,
  parseFen,
  parseIccs,
  type Role,
  squaresOf,
} from '../../src/rules/index.js';
import { readSharedJson } from '../helpers/shared.js';
import { type FairyBoard, fairyLegalIccs, loadFairy, moveToFairy } from '../rules/fairy.js';
import { allowedSquares, fenOf, randomSetup, rng } from '../rules/support.js';

let ffish: FairyStockfish;
beforeAll(async () => {
  ffish = await loadFairy();
});

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Mates when it can, captures often, so games reach mates, stalemates and bare boards. */
function chooseMove(pos: Position, random: () => number): Move {
  const moves = pos.legalMoves();
  if (random() < 0.7) {
    for (const m of moves) {
      pos.play(m);
      const mate = !pos.hasLegalMove();
      pos.undo();
      if (mate) return m;
    }
  }
  const captures = moves.filter((m) => pos.pieceAt(m.to));
  if (captures.length > 0 && random() < 0.6) return pick(random, captures);
  return pick(random, moves);
}

/** Does the piece on `sq` attack (or check) an enemy piece on `board`? */
function threatens(board: Board, sq: number): boolean {
  const piece = board[sq]!;
  return [...squaresOf(attacksFrom(board, sq, piece))].some(
    (s) => board[s] && board[s].color !== piece.color,
  );
}

/**
 * A quiet move whose piece threatens something both where it goes and where it came from, when
 * there is one: shuffling it back and forth makes perpetual checks and chases.
 */
function forcingMove(pos: Position, random: () => number): Move {
  const quiet = pos.legalMoves().filter((m) => !pos.pieceAt(m.to));
  const before = pos.toSetup().board;
  const both: Move[] = [];
  const after: Move[] = [];
  for (const m of quiet) {
    pos.play(m);
    const board = pos.toSetup().board;
    const forcing = pos.isCheck() || chasedBy(before, board, m) !== 0n;
    pos.undo();
    // Going back (the other side idle) forces as well: a perpetual in the making.
    const back = chasedBy(board, before, { from: m.to, to: m.from }) !== 0n;
    if (forcing && back) both.push(m);
    else if (forcing || threatens(board, m.to)) after.push(m);
  }
  const r = random();
  if (both.length > 0 && r < 0.8) return pick(random, both);
  if (after.length > 0 && r < 0.9) return pick(random, after);
  return pick(random, quiet.length > 0 ? quiet : pos.legalMoves());
}

/** A quiet move that threatens nothing. */
function idleMove(pos: Position, random: () => number): Move {
  const idle = pos.legalMoves().filter((m) => {
    if (pos.pieceAt(m.to)) return false;
    pos.play(m);
    const board = pos.toSetup().board;
    const check = pos.isCheck();
    pos.undo();
    return !check && !threatens(board, m.to);
  });
  return pick(random, idle.length > 0 ? idle : pos.legalMoves());
}

/** A legal random placement with few pieces and a move to play. */
function sparsePosition(random: () => number): Position {
  for (;;) {
    const pos = Position.fromSetup(randomSetup(random, 0.15 + random() * 0.25));
    if (pos.ok && pos.value.hasLegalMove()) return pos.value;
  }
}

const ourResultOnFairy = (game: Game): string => game.outcome?.result ?? '*';

describe('random games to their end against Fairy-Stockfish', () => {
  it('300 games: same legal moves, same checkmates and stalemates, no false endings', () => {
    const random = rng(20261129);
    const endings: Record<string, number> = {};
    const mismatches: string[] = [];
    let plies = 0;
    for (let g = 0; g < 300; g++) {
      const game = Game.start(undefined, { moveLimit: 0 });
      if (!game.ok) throw new Error(game.error.message);
      const board: FairyBoard = new ffish.Board('xiangqi');
      try {
        for (let ply = 0; ply < 400; ply++) {
          const pos = game.value.position;
          const ours = pos
            .legalMoves()
            .map((m) => makeIccs(m))
            .sort()
            .join(' ');
          const theirs = fairyLegalIccs(board).join(' ');
          if (ours !== theirs) mismatches.push(`${fenOf(pos)}: legal moves differ`);
          const outcome = game.value.outcome;
          if (outcome?.reason === 'checkmate' || outcome?.reason === 'stalemate') {
            // No legal move: Fairy-Stockfish must see the game over with the same result.
            if (!board.isGameOver() || board.result() !== outcome.result) {
              mismatches.push(`${fenOf(pos)}: ours ${outcome.reason}, Fairy-Stockfish ${board.result()}`);
            }
            if (board.isCheck() !== (outcome.reason === 'checkmate'))
              mismatches.push(`${fenOf(pos)}: check differs`);
          } else {
            // Fairy-Stockfish declares dead positions drawn too: the same ones.
            const fairyDead = board.isGameOver() && board.result() === '1/2-1/2' && theirs.length > 0;
            if (fairyDead !== (outcome?.reason === 'insufficient_material')) {
              mismatches.push(
                `${fenOf(pos)}: Fairy-Stockfish ends ${board.result()}, ours ${outcome?.reason ?? 'playing'}`,
              );
            }
          }
          if (outcome) {
            endings[outcome.reason] = (endings[outcome.reason] ?? 0) + 1;
            break;
          }
          const move = chooseMove(pos, random);
          const played = game.value.play(move, ply);
          if (!played.ok) throw new Error(played.error.message);
          if (!board.push(moveToFairy(move)))
            mismatches.push(`${fenOf(pos)}: Fairy-Stockfish refused ${makeIccs(move)}`);
          plies++;
        }
        if (!game.value.outcome) endings.unfinished = (endings.unfinished ?? 0) + 1;
      } finally {
        board.delete();
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The games really reach the endings under test.
    expect(endings.checkmate ?? 0).toBeGreaterThan(50);
    expect(endings.stalemate ?? 0).toBeGreaterThan(0);
    expect(plies).toBeGreaterThan(10_000);
    console.log('endings of 300 random games:', endings, `${plies} plies`);
  });
});

describe('shuffling games against Fairy-Stockfish: repetition verdicts', () => {
  it('200 games that repeat positions: same perpetual check, chase and draw verdicts', () => {
    const random = rng(777);
    const verdicts: Record<string, number> = {};
    const mismatches: string[] = [];
    for (let g = 0; g < 200; g++) {
      // Half from the start position, half from sparse random placements where chases abound.
      const start = g % 2 === 0 ? undefined : sparsePosition(random);
      const game = Game.start(start, { moveLimit: 0 });
      if (!game.ok) throw new Error(game.error.message);
      const board: FairyBoard = new ffish.Board('xiangqi', game.value.fen);
      // Each side keeps the move it last made, to play it back (a cycle of four plies), and
      // sometimes picks a new one (a varied repetition).
      const last: Record<'red' | 'black', Move | undefined> = { red: undefined, black: undefined };
      const opening = start ? Math.floor(random() * 6) : 20 + Math.floor(random() * 60);
      const forcer = random() < 0.5 ? 'red' : 'black';
      try {
        for (let ply = 0; ply < 160; ply++) {
          const pos = game.value.position;
          const outcome = game.value.outcome;
          const fairyOver = board.isGameOver(true);
          const fairyResult = fairyOver ? board.result(true) : '*';
          if ((outcome !== undefined) !== fairyOver || ourResultOnFairy(game.value) !== fairyResult) {
            const moves = game.value.moves.map((m) => m.iccs).join(' ');
            mismatches.push(
              `ours ${outcome?.result ?? '*'} ${outcome?.reason ?? ''}, Fairy-Stockfish ${fairyResult}: ${moves}`,
            );
          }
          if (outcome || fairyOver) {
            verdicts[outcome?.reason ?? 'fairy only'] = (verdicts[outcome?.reason ?? 'fairy only'] ?? 0) + 1;
            break;
          }
          let move: Move;
          const previous = last[pos.turn];
          const back = previous && { from: previous.to, to: previous.from };
          if (ply >= opening && back && random() < 0.95 && pos.isLegal(back)) move = back;
          else if (ply < opening) move = chooseMove(pos, random);
          else
            move = pos.turn === forcer || random() < 0.2 ? forcingMove(pos, random) : idleMove(pos, random);
          last[pos.turn] = ply >= opening ? move : undefined;
          const played = game.value.play(move, ply);
          if (!played.ok) throw new Error(played.error.message);
          board.push(moveToFairy(move));
        }
      } finally {
        board.delete();
      }
    }
    console.log('repetition verdicts of 200 shuffling games:', verdicts);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(verdicts.perpetual_check ?? 0).toBeGreaterThan(0);
    expect(verdicts.repetition ?? 0).toBeGreaterThan(50);
  });
});

interface RepetitionCase {
  name: string;
  fen: string;
  moves: string[];
}
const CASES = readSharedJson<{ cases: RepetitionCase[] }>('data/repetition.json').cases;
const ROLES: readonly Role[] = ['advisor', 'elephant', 'horse', 'chariot', 'cannon', 'pawn'];

/**
 * The repetition cases with one piece added or taken away (a defender, a blocker, a pin, a
 * screen): the same moves, where they stay legal, judged by both implementations.
 */
describe('repetition cases with one piece more or less, against Fairy-Stockfish', () => {
  it('every variation gets the same verdict at every ply', () => {
    const random = rng(4242);
    const verdicts: Record<string, number> = {};
    const mismatches: string[] = [];
    let variations = 0;
    for (const c of CASES) {
      const base = parseFen(c.fen.replace(/\[[^\]]*\]/, ''));
      if (!base.ok) throw new Error(base.error.message);
      for (let k = 0; k < 30; k++) {
        const board = base.value.board.slice();
        const occupied = board.flatMap((p, sq) => (p && p.role !== 'king' ? [sq] : []));
        if (random() < 0.3 && occupied.length > 0) board[pick(random, occupied)] = undefined;
        else {
          const color = random() < 0.5 ? 'red' : 'black';
          const role = pick(random, ROLES);
          const free = allowedSquares(color, role).filter((sq) => !board[sq]);
          if (free.length === 0) continue;
          board[pick(random, free)] = { color, role };
        }
        const game = Game.start({ ...base.value, board }, { moveLimit: 0 });
        if (!game.ok) continue;
        const fairy: FairyBoard = new ffish.Board('xiangqi', game.value.fen);
        try {
          variations++;
          for (const text of c.moves) {
            const move = parseIccs(text);
            if (!move.ok || !game.value.play(move.value).ok) break;
            fairy.push(moveToFairy(move.value));
            const outcome = game.value.outcome;
            const theirs = fairy.isGameOver(true) ? fairy.result(true) : '*';
            if ((outcome?.result ?? '*') !== theirs) {
              mismatches.push(
                `${game.value.startFen} ${c.moves.join(' ')}: ours ${outcome?.reason} ${outcome?.result}, theirs ${theirs}`,
              );
            }
            if (outcome) {
              verdicts[outcome.reason] = (verdicts[outcome.reason] ?? 0) + 1;
              break;
            }
          }
        } finally {
          fairy.delete();
        }
      }
    }
    console.log(`verdicts of ${variations} variations of the repetition cases:`, verdicts);
    expect(mismatches.slice(0, 5)).toEqual([]);
    expect(variations).toBeGreaterThan(600);
    expect(verdicts.perpetual_chase ?? 0).toBeGreaterThan(80);
  });
});
