/**
 * Rules 4.1.7 and 4.2.3: the 32 repetition endings of ../shared/data/repetition.json (from
 * Fairy-Stockfish's test.py), each played through the game model, and near misses.
 */
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/game/game.js';
import { judgeRepetition } from '../../src/game/repetition.js';
import { parseIccs } from '../../src/rules/index.js';
import { readSharedJson } from '../helpers/shared.js';

interface RepetitionCase {
  name: string;
  fen: string;
  moves: string[];
  result: string;
  reason: string;
}
const CASES = readSharedJson<{ cases: RepetitionCase[] }>('data/repetition.json').cases;
/** The data keeps Fairy-Stockfish's empty holdings `[]` on one FEN. */
const cleanFen = (fen: string): string => fen.replace(/\[[^\]]*\]/, '');

function startGame(fen: string, options = {}): Game {
  const game = Game.start(cleanFen(fen), options);
  if (!game.ok) throw new Error(game.error.message);
  return game.value;
}

function playAll(game: Game, moves: readonly string[]): { endedAt: number | undefined } {
  for (const [k, text] of moves.entries()) {
    const move = parseIccs(text);
    if (!move.ok) throw new Error(move.error.message);
    const played = game.play(move.value, (game.moves.length + 1) * 1000);
    if (!played.ok) throw new Error(played.error.message);
    if (game.outcome) return { endedAt: k + 1 };
  }
  return { endedAt: undefined };
}

describe('repetition.json: every case decides with its result and reason', () => {
  it('has the 32 cases', () => {
    expect(CASES).toHaveLength(32);
  });

  for (const [index, c] of CASES.entries()) {
    const title = `#${index + 1} ${c.name || '(unnamed)'}: ${c.result} ${c.reason}`;
    it(title, () => {
      const game = startGame(c.fen);
      const { endedAt } = playAll(game, c.moves);
      expect(game.outcome?.result).toBe(c.result);
      expect(game.outcome?.reason).toBe(c.reason);
      expect(game.outcome?.article).toBe(c.reason === 'repetition' ? '4.2.3' : '4.1.7');
      // The game ends on the third occurrence; a case that runs past it (the chaser to move)
      // is also judged on its full history, as Fairy-Stockfish's test does.
      expect(endedAt).toBeDefined();
      if (endedAt !== c.moves.length) {
        expect(c.name).toBe('Chase with chasing side to move');
        expect(endedAt).toBe(9);
        const game2 = startGame(c.fen, { moveLimit: 0 });
        const states: Parameters<typeof judgeRepetition>[0][number][] = [];
        // Rebuild the full history without stopping at the first verdict.
        const pos = game2.position;
        const stateOf = (move?: { from: number; to: number }) => ({
          hash: pos.hash,
          key: `${pos.boardFen} ${pos.turn}`,
          board: pos.toSetup().board,
          check: pos.isCheck(),
          ...(move ? { move } : {}),
        });
        states.push(stateOf());
        for (const text of c.moves) {
          const move = parseIccs(text);
          if (!move.ok) throw new Error(move.error.message);
          pos.play(move.value);
          states.push(stateOf(move.value));
        }
        const verdict = judgeRepetition(states, pos.halfmoves);
        expect(verdict?.reason).toBe(c.reason);
        expect(verdict?.loser).toBe(c.result === '1-0' ? 'black' : 'red');
      }
    });
  }
});

describe('the verdict says why', () => {
  it('names the chased piece and the checker', () => {
    const chase = startGame(CASES[0]!.fen);
    playAll(chase, CASES[0]!.moves);
    expect(chase.outcome?.detail).toContain("red chased black's chariot on a7 with every move");
    const check = CASES.find((c) => c.name === 'Perpetual check by soldier')!;
    const game = startGame(check.fen);
    playAll(game, check.moves);
    expect(game.outcome?.detail).toContain('black checked with every move');
  });
});

describe('near misses', () => {
  const chase = CASES[0]!; // Direct chase by cannon: Black's chariot chases Red's cannon

  it('a position occurring twice does not end the game', () => {
    const game = startGame(chase.fen);
    const { endedAt } = playAll(game, chase.moves.slice(0, 8));
    expect(endedAt).toBeUndefined();
    expect(game.outcome).toBeUndefined();
  });

  it('a cycle with a varied move is no repetition', () => {
    // Same dance, but Red goes round by a different square once: positions never recur 3 times
    // with the same side to move inside 9 plies.
    const game = startGame(chase.fen);
    const varied = ['c2a2', 'a7b7', 'a2b2', 'b7a7', 'b2c2', 'a7b7', 'c2a2', 'b7a7', 'a2b2'];
    const { endedAt } = playAll(game, varied);
    expect(endedAt).toBeUndefined();
  });

  it('idle shuffling draws on the third occurrence, not before', () => {
    const game = startGame('3k5/9/9/p8/9/9/P8/9/9/4K4 w - - 0 1');
    const shuffle = ['e0e1', 'd9d8', 'e1e0', 'd8d9'];
    expect(playAll(game, [...shuffle, ...shuffle.slice(0, 3)]).endedAt).toBeUndefined();
    expect(playAll(game, ['d8d9']).endedAt).toBe(1);
    expect(game.outcome).toMatchObject({ result: '1/2-1/2', reason: 'repetition', ply: 8 });
  });

  it('intermittent checks are not perpetual check', () => {
    // Red checks only every other move: an idle repetition, a draw.
    const game = startGame('3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1');
    const { endedAt } = playAll(game, ['a0d0', 'd9e9', 'd0a0', 'e9d9', 'a0d0', 'd9e9', 'd0a0', 'e9d9']);
    expect(endedAt).toBe(8);
    expect(game.outcome).toMatchObject({ result: '1/2-1/2', reason: 'repetition' });
  });

  it('checking with every move loses', () => {
    const game2 = startGame('4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1');
    const { endedAt } = playAll(game2, [
      'a0a9',
      'e9e8',
      'a9a8',
      'e8e9',
      'a8a9',
      'e9e8',
      'a9a8',
      'e8e9',
      'a8a9',
    ]);
    expect(endedAt).toBe(9);
    expect(game2.outcome).toMatchObject({ result: '0-1', reason: 'perpetual_check', loser: 'red' });
  });
});
