/**
 * The game model and every article of rule 4 it decides, each with a position where it applies
 * and a near miss where it does not.
 */
import { describe, expect, it } from 'vitest';
import { Game, type GameOptions } from '../../src/game/game.js';
import { isInsufficientMaterial } from '../../src/game/material.js';
import { TOURNAMENT } from '../../src/game/policy.js';
import { type Move, makeFen, makeIccs, parseFen, parseIccs } from '../../src/rules/index.js';
import { rng } from '../rules/support.js';

function start(fen?: string, options: GameOptions = {}): Game {
  const game = Game.start(fen, options);
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

const move = (text: string): Move => {
  const m = parseIccs(text);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

function playAll(game: Game, ...moves: string[]): void {
  for (const text of moves) {
    const played = game.play(move(text));
    if (!played.ok) throw new Error(played.error.message);
  }
}

describe('4.1.1 checkmate and 4.1.3 stalemate: the side to move loses', () => {
  it('checkmate', () => {
    const game = start('4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1');
    playAll(game, 'i0i9');
    expect(game.outcome).toMatchObject({
      result: '1-0',
      reason: 'checkmate',
      article: '4.1.1',
      loser: 'black',
      ply: 1,
    });
  });

  it('near miss: a check that can be answered', () => {
    const game = start('4k4/R5n2/9/9/9/9/9/9/9/3K4R w - - 0 1');
    playAll(game, 'i0i9');
    expect(game.moves.at(-1)?.check).toBe(true);
    expect(game.outcome).toBeUndefined();
    playAll(game, 'g8i9');
    expect(game.outcome).toBeUndefined();
  });

  it('stalemate (no legal move, not in check) loses', () => {
    const game = start('4k4/9/R8/9/9/9/9/9/9/3K1R3 w - - 0 1');
    playAll(game, 'a7a8');
    expect(game.outcome).toMatchObject({
      result: '1-0',
      reason: 'stalemate',
      article: '4.1.3',
      loser: 'black',
    });
  });

  it('near miss: a soldier that can still move', () => {
    const game = start('4k4/9/R8/9/9/9/p8/9/9/3K1R3 w - - 0 1');
    playAll(game, 'a7a8');
    expect(game.outcome).toBeUndefined();
  });

  it('a start position that is already mate is over at once', () => {
    const game = start('4k3R/R8/9/9/9/9/9/9/9/3K5 b - - 0 1');
    expect(game.outcome).toMatchObject({ result: '1-0', reason: 'checkmate', ply: 0 });
  });
});

describe('4.2.1 insufficient material', () => {
  it('drawn as soon as neither side has a chariot, horse, cannon or soldier', () => {
    const game = start('4k4/9/9/9/9/9/9/9/4r4/3K1A3 w - - 0 1');
    playAll(game, 'f0e1');
    expect(game.outcome).toMatchObject({
      result: '1/2-1/2',
      reason: 'insufficient_material',
      article: '4.2.1',
    });
  });

  it('near miss: one soldier left is enough to play on', () => {
    const game = start('4k4/9/9/9/9/p8/9/9/4r4/3K1A3 w - - 0 1');
    playAll(game, 'f0e1');
    expect(game.outcome).toBeUndefined();
  });

  it('advisors and elephants alone cannot attack', () => {
    const bare = parseFen('2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1');
    const horse = parseFen('2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAK1N2 w - - 0 1');
    if (!bare.ok || !horse.ok) throw new Error('bad FEN');
    expect(isInsufficientMaterial(bare.value.board)).toBe(true);
    expect(isInsufficientMaterial(horse.value.board)).toBe(false);
  });
});

describe('4.2.4 the move limit', () => {
  // Kings and far-apart chariots: quiet moves that never capture.
  const FEN = (halfmoves: number) => `3k5/9/9/9/9/9/9/r8/9/4K3R w - - ${halfmoves} 40`;

  it('119 plies without a capture go on, the 120th draws', () => {
    const game = start(FEN(118));
    playAll(game, 'i0i1');
    expect(game.movesTowardLimit).toBe(119);
    expect(game.outcome).toBeUndefined();
    playAll(game, 'a2a3');
    expect(game.outcome).toMatchObject({ result: '1/2-1/2', reason: 'move_limit', article: '4.2.4', ply: 2 });
  });

  it('a mate on the 120th ply is a mate, not a draw', () => {
    const game = start('4k4/R8/9/9/9/9/9/9/9/3K4R w - - 119 40');
    playAll(game, 'i0i9');
    expect(game.outcome).toMatchObject({ result: '1-0', reason: 'checkmate' });
  });

  it('near miss: a capture on the 120th ply starts the count again', () => {
    const game = start('3k5/9/9/9/9/9/9/r8/9/4K3R w - - 118 40');
    playAll(game, 'i0i2');
    expect(game.outcome).toBeUndefined();
    playAll(game, 'a2i2'); // Black takes the chariot on the 120th ply
    expect(game.outcome).toBeUndefined();
    expect(game.movesTowardLimit).toBe(0);
  });

  it('a whole 120-ply game without a capture, played from the start position', () => {
    const random = rng(60);
    const game = start();
    for (let ply = 1; ply <= 120; ply++) {
      expect(game.outcome).toBeUndefined();
      const pos = game.position;
      // Quiet moves that neither mate nor repeat: the limit is the only thing that can end it.
      const quiet = pos.legalMoves().filter((m) => !pos.pieceAt(m.to));
      const m = quiet[Math.floor(random() * quiet.length)]!;
      const played = game.play(m, ply * 1000);
      expect(played.ok).toBe(true);
      if (ply === 119) expect(game.outcome).toBeUndefined();
    }
    expect(game.outcome).toMatchObject({ reason: 'move_limit', ply: 120 });
  });

  it('is a competition setting (a lower limit, or none)', () => {
    const low = start(FEN(0), { moveLimit: 2 });
    playAll(low, 'i0i1');
    expect(low.outcome).toBeUndefined();
    playAll(low, 'a2a3');
    expect(low.outcome?.reason).toBe('move_limit');
    const none = start(FEN(500), { moveLimit: 0 });
    playAll(none, 'i0i1');
    expect(none.outcome).toBeUndefined();
  });

  it('with a check cap, checks beyond the cap do not count', () => {
    // Red checks from i9/i8… with every move; cap 0: none of its checks count.
    const game = start('4k4/9/9/9/9/9/9/9/9/3K4R w - - 118 40', { moveLimitCheckCap: 0 });
    playAll(game, 'i0i9', 'e9e8');
    expect(game.movesTowardLimit).toBe(119);
    expect(game.outcome).toBeUndefined();
    const plain = start('4k4/9/9/9/9/9/9/9/9/3K4R w - - 118 40');
    playAll(plain, 'i0i9', 'e9e8');
    expect(plain.outcome?.reason).toBe('move_limit');
  });

  it('refuses a bad setting', () => {
    expect(Game.start(undefined, { moveLimit: -1 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
  });
});

describe('moves', () => {
  it('refuses an illegal move with a coded error and goes on', () => {
    const game = start();
    const refused = game.play(move('h2h8'));
    expect(refused).toMatchObject({ ok: false, error: { code: 'illegal_move' } });
    if (!refused.ok) expect(refused.error.message).toContain('ply 1');
    expect(game.play(move('h7h0')).ok).toBe(false); // Black's piece on Red's move
    expect(game.play(move('e3e5')).ok).toBe(false); // a soldier two steps
    expect(game.play({ from: 91, to: 3 })).toMatchObject({ ok: false, error: { code: 'illegal_move' } });
    expect(game.play(move('h2e2')).ok).toBe(true);
    expect(game.moves).toHaveLength(1);
  });

  it('refuses generals facing (4.1.2) as an illegal move', () => {
    const game = start('4k4/9/9/9/9/9/p8/9/9/3K5 w - - 0 1');
    expect(game.play(move('d0e0'))).toMatchObject({ ok: false, error: { code: 'illegal_move' } });
  });

  it('records moves with times, captures, checks, hashes and the history', () => {
    const game = start();
    playAll(game, 'h2e2', 'h9g7');
    const played = game.play(move('e2e6'), 5000);
    expect(played).toMatchObject({
      ok: true,
      value: {
        ply: 3,
        iccs: 'e2e6',
        color: 'red',
        piece: { role: 'cannon' },
        captured: { role: 'pawn' },
        t: 5000,
      },
    });
    expect(game.history).toHaveLength(4);
    expect(game.history[3]?.hash).toBe(game.position.hash);
    expect(game.history[3]?.key).toBe(`${game.position.boardFen} b`);
    expect(game.fen).toBe(game.moves.at(-1)?.fen);
    expect(game.play(move('a9a8'), 4000)).toMatchObject({ ok: false, error: { code: 'time_backwards' } });
  });

  it('hands out copies of the position', () => {
    const game = start();
    const pos = game.position;
    pos.play(move('h2e2'));
    expect(game.position.pieceAt(move('h2e2').from)?.role).toBe('cannon');
    expect(game.turn).toBe('red');
  });

  it('a move after the end is an error', () => {
    const game = start('4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1');
    playAll(game, 'i0i9');
    expect(game.play(move('e9f9'))).toMatchObject({ ok: false, error: { code: 'game_over' } });
  });

  it('undoLast takes a move back, also the one that ended the game by the rules', () => {
    const game = start('4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1');
    const before = game.position.hash;
    playAll(game, 'i0i9');
    expect(game.outcome?.reason).toBe('checkmate');
    expect(game.undoLast()).toMatchObject({ ok: true, value: { iccs: 'i0i9' } });
    expect(game.outcome).toBeUndefined();
    expect(game.position.hash).toBe(before);
    expect(game.history).toHaveLength(1);
    expect(game.undoLast()).toMatchObject({ ok: false, error: { code: 'nothing_to_undo' } });
    playAll(game, 'i0i8');
    expect(game.moves.map((m) => m.iccs)).toEqual(['i0i8']);
  });

  it('positionAfter gives the position after each ply, and undoLast walks back through the same ones', () => {
    const random = rng(7);
    const game = start(undefined, { moveLimit: 0 });
    while (game.moves.length < 150 && !game.isOver) {
      const moves = game.position.legalMoves();
      playAll(game, makeIccs(moves[Math.floor(random() * moves.length)]!));
    }
    const n = game.moves.length;
    expect(n).toBeGreaterThan(20);
    expect(makeFen(game.positionAfter(0)!.toSetup())).toBe(game.startFen);
    for (let k = 1; k <= n; k++)
      expect(makeFen(game.positionAfter(k)!.toSetup())).toBe(game.moves[k - 1]!.fen);
    expect(game.positionAfter(n + 1)).toBeUndefined();
    // A copy: changing it does not change the game.
    const copy = game.positionAfter(n)!;
    copy.play(copy.legalMoves()[0]!);
    expect(game.fen).toBe(game.moves[n - 1]!.fen);
    for (let k = n - 1; k >= 0; k--) {
      expect(game.undoLast().ok).toBe(true);
      expect(game.fen).toBe(k === 0 ? game.startFen : game.moves[k - 1]!.fen);
      expect(makeFen(game.position.toSetup())).toBe(game.fen);
      expect(game.position.hash).toBe(game.history.at(-1)!.hash);
    }
  });

  it('a resigned game cannot be undone', () => {
    const game = start();
    playAll(game, 'h2e2');
    game.resign('black');
    expect(game.undoLast()).toMatchObject({ ok: false, error: { code: 'cannot_undo' } });
  });
});

describe('results by the players and the arbiter', () => {
  it('4.1.9 resignation', () => {
    const game = start();
    expect(game.resign('red', 100)).toMatchObject({
      ok: true,
      value: { result: '0-1', reason: 'resignation', article: '4.1.9' },
    });
    expect(game.resign('black')).toMatchObject({ ok: false, error: { code: 'game_over' } });
  });

  it('4.2.2 a draw offered and accepted', () => {
    const game = start();
    playAll(game, 'h2e2');
    expect(game.offerDraw('red').ok).toBe(true);
    expect(game.acceptDraw('red')).toMatchObject({ ok: false, error: { code: 'no_draw_offer' } });
    expect(game.acceptDraw('black')).toMatchObject({
      ok: true,
      value: { result: '1/2-1/2', reason: 'agreement', article: '4.2.2' },
    });
  });

  it('near miss: an offer lapses when the other side plays on, or is declined', () => {
    const game = start();
    game.offerDraw('red');
    playAll(game, 'h2e2'); // the offerer's own move keeps it standing
    expect(game.pendingDrawOffer).toBe('red');
    playAll(game, 'h9g7'); // Black plays on: declined
    expect(game.pendingDrawOffer).toBeUndefined();
    expect(game.acceptDraw('black').ok).toBe(false);
    game.offerDraw('black');
    expect(game.declineDraw('red').ok).toBe(true);
    expect(game.acceptDraw('red').ok).toBe(false);
    expect(game.outcome).toBeUndefined();
  });

  it('4.1.5 / 4.1.10 an arbiter decides, with a reason', () => {
    const game = start();
    expect(game.arbiter('1-0', 'Black arrived 20 minutes late', '4.1.5')).toMatchObject({
      ok: true,
      value: {
        result: '1-0',
        reason: 'arbiter',
        article: '4.1.5',
        detail: 'Black arrived 20 minutes late',
        loser: 'black',
      },
    });
    const other = start();
    expect(other.arbiter('0-1', 'refused to follow the rules')).toMatchObject({
      ok: true,
      value: { article: '4.1.10' },
    });
    expect(start().arbiter('2-0' as never, 'x')).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});

describe('illegal moves on the board: the policy (4.1.2, 4.1.6, 4.1.8)', () => {
  it('casual: an alert only, never a foul', () => {
    const game = start();
    const verdict = game.reportIllegal({ color: 'red', kind: 'illegal_move', uncorrectedMs: 60_000 });
    expect(verdict).toMatchObject({ ok: true, value: { foul: false, fouls: 0 } });
    expect(game.outcome).toBeUndefined();
  });

  it('tournament: corrected in time is no foul; the third uncorrected one loses', () => {
    const game = start(undefined, { policy: TOURNAMENT });
    expect(game.reportIllegal({ color: 'red', kind: 'illegal_move', uncorrectedMs: 9_999 })).toMatchObject({
      ok: true,
      value: { foul: false, fouls: 0 },
    });
    expect(game.reportIllegal({ color: 'red', kind: 'illegal_move', uncorrectedMs: 10_000 })).toMatchObject({
      ok: true,
      value: { foul: true, fouls: 1 },
    });
    game.reportIllegal({ color: 'black', kind: 'facing_generals', uncorrectedMs: 20_000 });
    game.reportIllegal({ color: 'red', kind: 'facing_generals', uncorrectedMs: 20_000 });
    expect(game.outcome).toBeUndefined();
    const third = game.reportIllegal({ color: 'red', kind: 'illegal_move', uncorrectedMs: 30_000 });
    expect(third).toMatchObject({
      ok: true,
      value: { foul: true, fouls: 3, outcome: { result: '0-1', reason: 'fouls' } },
    });
    expect(game.outcome).toMatchObject({ reason: 'fouls', article: '4.1.8', loser: 'red' });
    expect(game.fouls('black')).toBe(1);
  });

  it('strict tournament: a completed illegal move loses at once', () => {
    const game = start(undefined, { policy: { ...TOURNAMENT, completedIllegalLoses: true } });
    game.reportIllegal({ color: 'black', kind: 'facing_generals', uncorrectedMs: 0 });
    expect(game.outcome).toMatchObject({ result: '1-0', reason: 'facing_generals', article: '4.1.2' });
    const other = start(undefined, { policy: { ...TOURNAMENT, completedIllegalLoses: true } });
    other.reportIllegal({ color: 'red', kind: 'illegal_move', uncorrectedMs: 0 });
    expect(other.outcome).toMatchObject({ result: '0-1', reason: 'illegal_move', article: '4.1.6' });
  });
});

describe('starting', () => {
  it('from a record: the moves played again with their times, a bad one named', () => {
    const moves = ['h2e2', 'h9g7', 'h0g2'].map((text, k) => ({ move: move(text), t: 1000 * (k + 1) }));
    const game = Game.fromRecord({ moves });
    expect(game.ok && game.value.moves.map((m) => [m.iccs, m.t])).toEqual([
      ['h2e2', 1000],
      ['h9g7', 2000],
      ['h0g2', 3000],
    ]);
    const bad = Game.fromRecord({ moves: [...moves, { move: move('a0a9'), t: 4000 }] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'illegal_move' } });
    if (!bad.ok) expect(bad.error.message).toContain('ply 4');
  });

  it('from a FEN, a setup or a position; bad ones are coded errors', () => {
    expect(Game.start('rnbakabnr/9 w')).toMatchObject({ ok: false, error: { code: 'bad_position' } });
    expect(Game.start('4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1')).toMatchObject({
      ok: false,
      error: { code: 'bad_position' },
    });
    const setup = parseFen('4k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1');
    if (!setup.ok) throw new Error('bad FEN');
    const game = start();
    expect(Game.start(setup.value).ok).toBe(true);
    expect(Game.start(game.position).ok).toBe(true);
    expect(game.startFen).toBe('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
  });
});
