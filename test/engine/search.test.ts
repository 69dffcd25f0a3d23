/**
 * The engine against the real rules core: mates, material, the known bad hint, legality over
 * random positions, the caller's position left as it was, and the same answer for the same budget.
 */
import { describe, expect, it } from 'vitest';
import { suggestMove } from '../../src/controller/hint.js';
import { evaluate, evaluateRed, moveDelta } from '../../src/engine/eval.js';
import { MATE, mateIn, searchBest } from '../../src/engine/search.js';
import { makeFen } from '../../src/rules/fen.js';
import { makeIccs, parseIccs } from '../../src/rules/iccs.js';
import { Position } from '../../src/rules/position.js';
import type { Move } from '../../src/rules/types.js';
import { positionOf } from '../helpers/positions.js';

const iccs = (m: Move | undefined): string => (m ? makeIccs(m) : '-');

function played(pos: Position, ...moves: string[]): Position {
  const p = pos.clone();
  for (const text of moves) {
    const m = parseIccs(text);
    if (!m.ok || !p.isLegal(m.value)) throw new Error(`${text} is not legal here`);
    p.play(m.value);
  }
  return p;
}

/** Does the side to move mate within `moves` of its own moves, whatever the defence? (brute force) */
function forcesMate(pos: Position, moves: number): boolean {
  for (const m of pos.legalMoves()) {
    pos.play(m);
    const mated = !pos.hasLegalMove();
    let ok = mated;
    if (!ok && moves > 1) {
      ok = pos.legalMoves().every((reply) => {
        pos.play(reply);
        const r = forcesMate(pos, moves - 1);
        pos.undo();
        return r;
      });
    }
    pos.undo();
    if (ok) return true;
  }
  return false;
}

/** The same position with colours swapped: ranks reversed, case swapped, the other side to move. */
function flipColours(fen: string): string {
  const [board = '', turn] = fen.split(' ');
  const swapped = [...board.split('/').reverse().join('/')]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  return `${swapped} ${turn === 'w' ? 'b' : 'w'} - - 0 1`;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('searchBest', () => {
  it('finds a mate in 1 (the only one: chariot to the back rank)', () => {
    const pos = positionOf('4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1');
    const r = searchBest(pos, { maxDepth: 4 });
    expect(iccs(r.move)).toBe('b1b9');
    expect(r.score).toBe(MATE - 1);
    expect(mateIn(r.score)).toBe(1);
    const after = played(pos, 'b1b9');
    expect(after.isCheckmate()).toBe(true);
  });

  it('finds a mate in 2 where there is no mate in 1, and its first move forces it', () => {
    const pos = positionOf('4k4/9/R8/9/9/9/9/9/1R7/3K5 w - - 0 1');
    expect(forcesMate(pos.clone(), 1)).toBe(false);
    const r = searchBest(pos, { maxDepth: 6 });
    expect(mateIn(r.score)).toBe(3);
    expect(r.pv).toHaveLength(3);
    const after = played(pos, iccs(r.move));
    const replies = after.legalMoves();
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      after.play(reply);
      expect(forcesMate(after, 1), `after ${iccs(r.move)} ${makeIccs(reply)}`).toBe(true);
      after.undo();
    }
    // The PV ends in checkmate on the board.
    const end = played(pos, ...r.pv.map(makeIccs));
    expect(end.isCheckmate()).toBe(true);
  });

  it('sees being mated: the side to move scores a mate against itself', () => {
    // Red passes with its general; Black, to move, cannot stop the chariots' mate.
    const pos = positionOf('4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1');
    const black = played(pos, 'd0d1');
    const r = searchBest(black, { maxDepth: 4 });
    expect(r.score).toBeLessThan(0);
    expect(mateIn(r.score)).toBeLessThan(0);
  });

  it('reports no move and a lost score when the side to move has no legal move', () => {
    const pos = played(positionOf('4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1'), 'b1b9');
    const r = searchBest(pos, { maxDepth: 3 });
    expect(r.move).toBeUndefined();
    expect(r.score).toBe(-MATE);
  });

  it('takes an undefended chariot with the horse', () => {
    // The start position with Black's i9 chariot standing on g2, where the h0 horse takes it.
    const pos = positionOf('rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4rC1/9/RNBAKABNR w - - 0 1');
    const r = searchBest(pos, { maxDepth: 4 });
    expect(iccs(r.move)).toBe('h0g2');
    expect(r.score).toBeGreaterThan(700);
  });

  it('does not give a cannon for a horse after h2e2 (the old hint said b7b0)', () => {
    const pos = played(Position.default(), 'h2e2');
    for (let depth = 1; depth <= 6; depth++) {
      const r = searchBest(pos, { maxDepth: depth });
      expect(iccs(r.move), `depth ${depth}`).not.toBe('b7b0');
      expect(Math.abs(r.score), `depth ${depth}`).toBeLessThan(150);
    }
    const hint = suggestMove(pos, { maxDepth: 8, maxNodes: 150_000 });
    expect(hint?.iccs).not.toBe('b7b0');
    expect(hint && Math.abs(hint.score)).toBeLessThan(150);
  });

  it('returns a legal move in many random positions and leaves each position untouched', () => {
    const random = rng(20261129);
    let searched = 0;
    for (let game = 0; game < 12; game++) {
      const pos = Position.default();
      for (let ply = 0; ply < 120; ply++) {
        const legal = pos.legalMoves();
        if (legal.length === 0) break;
        if (ply % 6 === 5) {
          const fen = makeFen(pos.toSetup());
          const hash = pos.hash;
          const r = searchBest(pos, { maxDepth: 3, maxNodes: 4000 });
          expect(legal.map(makeIccs), fen).toContain(iccs(r.move));
          for (const m of r.pv) expect(m.from).not.toBe(m.to);
          expect(makeFen(pos.toSetup())).toBe(fen);
          expect(pos.hash).toBe(hash);
          expect(pos.legalMoves()).toEqual(legal);
          searched++;
        }
        pos.play(legal[Math.floor(random() * legal.length)]!);
      }
    }
    expect(searched).toBeGreaterThan(150);
  });

  it('plays out its whole PV legally', () => {
    const pos = played(Position.default(), 'h2e2', 'h9g7', 'h0g2');
    const r = searchBest(pos, { maxDepth: 6 });
    expect(r.depth).toBe(6);
    const p = pos.clone();
    for (const m of r.pv) {
      expect(p.isLegal(m), makeIccs(m)).toBe(true);
      p.play(m);
    }
  });

  it('gives the same answer for the same node budget', () => {
    const pos = played(Position.default(), 'c3c4', 'b9c7', 'b2e2');
    const a = searchBest(pos, { maxDepth: 30, maxNodes: 60_000 });
    searchBest(Position.default(), { maxDepth: 5 }); // other work in between
    const b = searchBest(pos, { maxDepth: 30, maxNodes: 60_000 });
    expect(b).toEqual(a);
    expect(a.depth).toBeGreaterThanOrEqual(4);
    expect(a.nodes).toBeLessThanOrEqual(60_001);
  });

  it('stops at a deadline that has passed after depth 1, still with a move', () => {
    let t = 0;
    const r = searchBest(Position.default(), { maxDepth: 30, deadline: 0, now: () => t++ });
    expect(r.depth).toBe(1);
    expect(r.move).toBeDefined();
  });
});

describe('evaluate', () => {
  it('is zero for the symmetric start position and the same for the colour-flipped board', () => {
    expect(evaluate(Position.default())).toBe(0);
    for (const moves of [['h2e2'], ['h2e2', 'h9g7', 'h0g2', 'i9h9'], ['c3c4', 'b7b3', 'b0c2', 'b3g3']]) {
      const pos = played(Position.default(), ...moves);
      const fen = makeFen(pos.toSetup());
      expect(evaluate(positionOf(flipColours(fen))), fen).toBe(evaluate(pos));
    }
  });

  it('moveDelta (what the search adds per move) matches evaluating the board afresh', () => {
    const random = rng(7);
    const buf = new Int32Array(256);
    for (let game = 0; game < 6; game++) {
      const pos = Position.default();
      for (let ply = 0; ply < 100; ply++) {
        const n = pos.generateLegal(buf, 0);
        if (n === 0) break;
        const before = evaluateRed(pos);
        for (let k = 0; k < n; k++) {
          const m = buf[k]!;
          const delta = moveDelta(pos.board, m);
          pos.make(m);
          expect(evaluateRed(pos)).toBe(before + delta);
          pos.unmake();
        }
        pos.make(buf[Math.floor(random() * n)]!);
      }
    }
  });

  it('counts a crossed soldier double', () => {
    const home = positionOf('4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1');
    const crossed = positionOf('4k4/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1');
    expect(evaluate(crossed) - evaluate(home)).toBeGreaterThanOrEqual(100);
  });
});
