/** Position's friendly API: play/undo over long games, clones, queries. */
import { describe, expect, it } from 'vitest';
import { INITIAL_FEN, type Move, Position, parseIccs, parseSquare } from '../../src/rules/index.js';
import { fenOf, load } from './support.js';

const move = (iccs: string): Move => {
  const m = parseIccs(iccs);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

describe('Position', () => {
  it('legalCodes hands out an array of its own: a later query on any position does not change it', () => {
    const start = Position.default();
    const codes = start.legalCodes();
    const copy = [...codes];
    expect(codes).toHaveLength(44);
    const other = load('4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1');
    other.legalCodes();
    other.legalMoves();
    start.hasLegalMove();
    expect([...codes]).toEqual(copy);
  });

  it('makeNull passes the move (side and key as the same board with the other side to move); unmakeNull undoes it', () => {
    const pos = Position.default();
    const before = { hash: pos.hash, low: pos.hashLow, high: pos.hashHigh };
    pos.makeNull();
    expect(pos.turn).toBe('black');
    expect(pos.hash).toBe(load(INITIAL_FEN.replace(' w ', ' b ')).hash);
    pos.unmakeNull();
    expect(pos.turn).toBe('red');
    expect({ hash: pos.hash, low: pos.hashLow, high: pos.hashHigh }).toEqual(before);
  });

  it('takes back every move of a game longer than 1024 plies', () => {
    // Regression: the undo stack had a fixed 1024 entries and undo() past them corrupted the board.
    const pos = load('3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1');
    const cycle = ['e0e1', 'd9d8', 'e1e0', 'd8d9'].map(move);
    const fens: string[] = [];
    for (let ply = 0; ply < 2100; ply++) {
      fens.push(fenOf(pos));
      const m = cycle[ply % 4]!;
      expect(pos.isLegal(m)).toBe(true);
      pos.play(m);
    }
    for (let ply = 2099; ply >= 0; ply--) {
      pos.undo();
      expect(fenOf(pos)).toBe(fens[ply]);
    }
    expect(() => pos.undo()).toThrow(/nothing to undo/);
  });

  it('plays a capture, reports the captured piece and resets the halfmove clock', () => {
    const pos = load('3k5/9/1r7/9/9/1N7/9/1C7/9/4K4 w - - 7 20');
    expect(pos.play(move('b2b7'))).toEqual({ color: 'black', role: 'chariot' });
    expect(pos.halfmoves).toBe(0);
    expect(pos.turn).toBe('black');
    pos.undo();
    expect(fenOf(pos)).toBe('3k5/9/1r7/9/9/1N7/9/1C7/9/4K4 w - - 7 20');
  });

  it('counts full moves after Black moves', () => {
    const pos = Position.default();
    pos.play(move('h2e2'));
    expect(pos.fullmoves).toBe(1);
    pos.play(move('h9g7'));
    expect(pos.fullmoves).toBe(2);
    expect(pos.halfmoves).toBe(2);
  });

  it('clones are independent', () => {
    const pos = Position.default();
    const copy = pos.clone();
    copy.play(move('h2e2'));
    expect(fenOf(pos)).toBe(fenOf(Position.default()));
    expect(copy.hash).not.toBe(pos.hash);
    expect(copy.pieceAt(parseSquare('e2')!)).toEqual({ color: 'red', role: 'cannon' });
  });

  it('answers the queries of the start position', () => {
    const pos = Position.default();
    expect(pos.kingSquare('red')).toBe(parseSquare('e0'));
    expect(pos.kingSquare('black')).toBe(parseSquare('e9'));
    expect(pos.piecesOf('red', 'pawn')).toEqual(['a3', 'c3', 'e3', 'g3', 'i3'].map((s) => parseSquare(s)));
    expect(pos.piecesOf('black', 'cannon').sort()).toEqual([parseSquare('b7'), parseSquare('h7')]);
    expect(pos.legalDestinations(parseSquare('h2')!)).toHaveLength(12);
    expect(pos.isCheck() || pos.isCheckmate() || pos.isStalemate()).toBe(false);
    expect(pos.boardFen).toBe('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR');
  });

  it('tells checkmate from stalemate (both lose, rule 4.1)', () => {
    const mate = load('3k5/3R5/3R5/9/9/9/9/9/9/4K4 b'); // double chariot on the d file
    expect(mate.isCheckmate()).toBe(true);
    expect(mate.isStalemate()).toBe(false);
    const stale = load('3k5/R8/4R4/9/9/9/9/9/9/5K3 b'); // not in check, d8 and e9 are covered
    expect(stale.isCheck()).toBe(false);
    expect(stale.isStalemate()).toBe(true);
  });
});
