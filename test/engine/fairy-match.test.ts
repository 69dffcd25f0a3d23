/**
 * A strength floor against the real Fairy-Stockfish (npm fairy-stockfish-nnue.wasm, WebAssembly
 * UCI engine, classical evaluation): two games, one with each colour, our engine on a small node
 * budget against Fairy-Stockfish at depth 3. Both are deterministic, so the games are too.
 * The engine must win both (it wins comfortably; losing one means the search or evaluation broke).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchBest } from '../../src/engine/search.js';
import { makeFen } from '../../src/rules/fen.js';
import { makeIccs } from '../../src/rules/iccs.js';
import { Position } from '../../src/rules/position.js';
import type { Color, Move } from '../../src/rules/types.js';
import { FairyStockfish } from '../helpers/fairy-engine.js';
import { fairyToMove } from '../rules/fairy.js';

const FAIRY_DEPTH = 3;
const OUR_NODES = 20_000;
const MAX_PLIES = 200;

let fairy: FairyStockfish;
beforeAll(async () => {
  fairy = await FairyStockfish.start();
});
afterAll(() => fairy.stop());

/** Plays one game; returns the winner ('draw' at the ply limit or a threefold repetition) and the moves. */
async function playGame(ours: Color): Promise<{ winner: Color | 'draw'; moves: string[] }> {
  const pos = Position.default();
  const seen = new Map<number, number>();
  const moves: string[] = [];
  fairy.send('ucinewgame');
  await fairy.request('isready', /^readyok$/);
  for (let ply = 0; ply < MAX_PLIES; ply++) {
    if (!pos.hasLegalMove()) return { winner: pos.turn === 'red' ? 'black' : 'red', moves };
    const count = (seen.get(pos.hash) ?? 0) + 1;
    seen.set(pos.hash, count);
    if (count >= 3) return { winner: 'draw', moves };
    let move: Move | undefined;
    if (pos.turn === ours) {
      move = searchBest(pos, { maxDepth: 64, maxNodes: OUR_NODES }).move;
    } else {
      fairy.send(`position fen ${makeFen(pos.toSetup())}`);
      const line = await fairy.request(`go depth ${FAIRY_DEPTH}`, /^bestmove /);
      move = fairyToMove(line.split(' ')[1]!);
    }
    expect(move && pos.isLegal(move), `ply ${ply}`).toBe(true);
    pos.play(move!);
    moves.push(makeIccs(move!));
  }
  return { winner: 'draw', moves };
}

describe('against Fairy-Stockfish at depth 3', () => {
  it.each(['red', 'black'] as const)('wins playing %s', async (ours) => {
    const game = await playGame(ours);
    expect(game.winner, game.moves.join(' ')).toBe(ours);
  });
});
