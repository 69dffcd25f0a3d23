/**
 * Differential test: the legal moves, check and end flags of thousands of positions compared with
 * Fairy-Stockfish's rules library (ffish 0.7.10), an independent implementation. Positions come from
 * seeded random games from the start position and from every FEN of perft.json, and from random
 * placements of pieces.
 */
import type { FairyStockfish } from 'ffish';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeIccs, type Position } from '../../src/rules/index.js';
import { type FairyBoard, fairyLegalIccs, fairyToMove, loadFairy, moveToFairy } from './fairy.js';
import { fenOf, load, PERFT_CASES, randomGame, randomPlacement, rng } from './support.js';

let ffish: FairyStockfish;
beforeAll(async () => {
  ffish = await loadFairy();
});

interface Tally {
  positions: number;
  checks: number;
  checkmates: number;
  stalemates: number;
  mismatches: string[];
}
const newTally = (): Tally => ({ positions: 0, checks: 0, checkmates: 0, stalemates: 0, mismatches: [] });

/** Compares one position with the board Fairy-Stockfish holds for it; records any difference. */
function compare(pos: Position, board: FairyBoard, tally: Tally): void {
  const fen = fenOf(pos);
  const ours = pos
    .legalMoves()
    .map((m) => makeIccs(m))
    .sort();
  const theirs = fairyLegalIccs(board);
  tally.positions++;
  const differ = (what: string) => tally.mismatches.push(`${fen}: ${what}`);
  if (ours.join(' ') !== theirs.join(' ')) {
    const missing = theirs.filter((m) => !ours.includes(m));
    const extra = ours.filter((m) => !theirs.includes(m));
    differ(`moves: missing [${missing}] extra [${extra}]`);
  }
  const check = pos.isCheck();
  if (check !== board.isCheck()) differ(`check: ours ${check}`);
  if (check) tally.checks++;
  const mate = pos.isCheckmate();
  const stalemate = pos.isStalemate();
  if (mate) tally.checkmates++;
  if (stalemate) tally.stalemates++;
  if ((mate || stalemate) !== (theirs.length === 0)) differ(`end: ours mate ${mate} stalemate ${stalemate}`);
  if (theirs.length === 0) {
    // No legal move loses in xiangqi, in check or not (rules 4.1.1, 4.1.3).
    const loss = pos.turn === 'red' ? '0-1' : '1-0';
    if (!board.isGameOver() || board.result() !== loss) differ(`result: Fairy-Stockfish ${board.result()}`);
  }
}

/** Random games from `fen`: compared move by move, Fairy-Stockfish playing the same moves on its board. */
function diffGames(fen: string, seed: number, games: number, maxPlies: number): Tally {
  const tally = newTally();
  const random = rng(seed);
  const start = load(fen);
  for (let g = 0; g < games; g++) {
    const board = new ffish.Board('xiangqi', fenOf(start));
    let last: Position | undefined;
    try {
      randomGame(start, random, maxPlies, (pos, ply) => {
        if (last) {
          // Both sides played the same move: the boards must agree.
          const move = lastMove(last, pos);
          if (!board.push(moveToFairy(move)))
            tally.mismatches.push(`${fenOf(last)}: ffish refused ${makeIccs(move)}`);
          const theirs = board.fen().split(' ').slice(0, 2).join(' ');
          const ours = fenOf(pos).split(' ').slice(0, 2).join(' ');
          if (theirs !== ours) tally.mismatches.push(`after ply ${ply}: ${ours} vs ${theirs}`);
        }
        compare(pos, board, tally);
        last = pos.clone();
      });
    } finally {
      board.delete();
    }
  }
  return tally;
}

/** The move between two consecutive positions of a game (one piece left `from`, something arrived on `to`). */
function lastMove(before: Position, after: Position): { from: number; to: number } {
  let from = -1;
  let to = -1;
  for (let sq = 0; sq < 90; sq++) {
    const a = before.pieceAt(sq);
    const b = after.pieceAt(sq);
    if (a && !b) from = sq;
    else if (b && (a?.color !== b.color || a.role !== b.role)) to = sq;
  }
  return { from, to };
}

describe('legal moves against Fairy-Stockfish (ffish)', () => {
  it('loads ffish and reads its moves in ICCS', () => {
    const board = new ffish.Board('xiangqi');
    expect(board.legalMoves().split(' ')).toContain('h3e3');
    expect(fairyToMove('h3e3')).toEqual({ from: 25, to: 22 });
    expect(moveToFairy({ from: 25, to: 22 })).toBe('h3e3');
    expect(fairyToMove('a10a9')).toEqual({ from: 81, to: 72 });
    board.delete();
  });

  it('reports a difference when the two boards disagree (the comparison can fail)', () => {
    const board = new ffish.Board(
      'xiangqi',
      'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1',
    );
    const tally = newTally();
    compare(load(PERFT_CASES[0]!.fen), board, tally);
    board.delete();
    expect(tally.mismatches).toHaveLength(1);
    expect(tally.mismatches[0]).toMatch(/missing \[.*e2e1.*\] extra \[.*h2e2/);
  });

  it('agrees on random games from the start position', () => {
    const tally = diffGames(PERFT_CASES[0]!.fen, 1, 80, 200);
    expect(tally.mismatches.slice(0, 5)).toEqual([]);
    expect(tally.positions).toBeGreaterThan(8000);
    expect(tally.checks).toBeGreaterThan(200);
    expect(tally.checkmates).toBeGreaterThan(10);
    expect(tally.stalemates).toBeGreaterThan(10);
  });

  it('agrees on random games from every FEN of perft.json', () => {
    const total = newTally();
    PERFT_CASES.forEach((c, k) => {
      const tally = diffGames(c.fen, 100 + k, 15, 120);
      total.positions += tally.positions;
      total.checks += tally.checks;
      total.checkmates += tally.checkmates;
      total.stalemates += tally.stalemates;
      total.mismatches.push(...tally.mismatches);
    });
    expect(total.mismatches.slice(0, 5)).toEqual([]);
    expect(total.positions).toBeGreaterThan(12000);
    expect(total.checkmates).toBeGreaterThan(30);
    expect(total.stalemates).toBeGreaterThan(10);
  });

  it('agrees on random placements of pieces (odd palaces, crossed soldiers, open files)', () => {
    const tally = newTally();
    const random = rng(7);
    const board = new ffish.Board('xiangqi');
    try {
      for (let k = 0; k < 10000; k++) {
        const pos = randomPlacement(random);
        board.setFen(fenOf(pos));
        compare(pos, board, tally);
      }
    } finally {
      board.delete();
    }
    expect(tally.mismatches.slice(0, 5)).toEqual([]);
    expect(tally.checks).toBeGreaterThan(2000);
    expect(tally.checkmates).toBeGreaterThan(100);
  });
});
