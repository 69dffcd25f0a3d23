/**
 * Hints from the embedded Fairy-Stockfish (WebAssembly, in its worker thread) on a controller
 * with a simulated board: a hint names its move in three notations with the evaluation and the
 * depth; a hint searching while a move is played does not delay its announcement; a
 * hint whose position changes before the engine answers is cancelled; both clock buttons pressed
 * together ask for a hint.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BoardSession } from '../../src/controller/board-session.js';
import type { BusEvents } from '../../src/controller/bus.js';
import { parseGame, splitGames } from '../../src/record/pgn.js';
import { type Move, Position } from '../../src/rules/index.js';
import { useControllerRig } from '../engine/rig.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const rig = useControllerRig('xqboard-hints-');
const start = (engine: Record<string, unknown> = {}) =>
  rig.start({ engine: { hint: { movetimeMs: 300 }, ...engine } });

/**
 * Plays `moves` on the simulated board as a hand would; the time from the piece set down to its
 * announcement. `before(i)` runs before the i-th move is lifted.
 */
async function playMoves(
  session: BoardSession,
  moves: readonly Move[],
  before?: (i: number) => void | Promise<void>,
): Promise<number[]> {
  const sim = session.simulator!;
  const latencies: number[] = [];
  const pos = Position.fromFen(session.view().fen);
  if (!pos.ok) throw new Error('bad position');
  for (const [i, move] of moves.entries()) {
    await before?.(i);
    sim.lift(move.from);
    await sleep(60);
    if (sim.pieceAt(move.to)) {
      sim.remove(move.to);
      await sleep(60);
    }
    const announced = new Promise<number>((resolve) => {
      const off = rig.controller!.bus.on('game.move', () => {
        off();
        resolve(performance.now());
      });
    });
    const placed = performance.now();
    sim.place(move.to);
    latencies.push((await announced) - placed);
    pos.value.play(move);
    await sleep(60);
  }
  return latencies;
}

function gameMoves(): Move[] {
  const text = readFileSync(
    new URL('../../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url),
    'utf8',
  );
  const game = parseGame(splitGames(text)[0]!);
  if (!game.ok) throw new Error('cannot read the game');
  return game.value.moves.map((m) => m.move);
}

describe('hints from the embedded engine', () => {
  it('a hint: the move in three notations, the evaluation and the depth, announced for the LEDs and viewers', async () => {
    const session = await start();
    const seen: BusEvents['game.hint'][] = [];
    rig.controller!.bus.on('game.hint', (e) => seen.push(e));
    const r = await session.hint();
    if (!r.ok) throw new Error(r.error.message);
    const h = r.value;
    expect(h.iccs).toMatch(/^[a-i]\d[a-i]\d$/);
    expect(h.engine).toMatch(/Fairy-Stockfish/);
    expect(h.depth).toBeGreaterThan(3);
    expect(h.ply).toBe(1);
    expect(h.message).toContain(h.wxf);
    expect(h.message).toContain(h.zh);
    expect(h.message).toMatch(/(pawns|mate in \d+), depth \d+$/);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ board: 'b1', kind: 'hint', iccs: h.iccs, ply: 1 });
  });

  it('a hint searching while a move is played: the move is announced as fast as without one', async () => {
    const session = await start();
    const moves = gameMoves().slice(0, 24);
    await session.hint(); // the engine loaded: what is measured is searching, not loading
    // Every other move is played while a hint searches (300 ms, asked 50 ms before the lift; the
    // move cancels it): the moves with and without a search interleave, so a change in the
    // machine's load between two halves of the test cannot pass for the engine's doing.
    const hints: ReturnType<BoardSession['hint']>[] = [];
    const latencies = await playMoves(session, moves, async (i) => {
      if (i % 2 === 0) return;
      hints.push(session.hint());
      await sleep(50);
    });
    const outcomes = await Promise.all(hints);
    const busy = latencies.filter((_, i) => i % 2 === 1);
    const quiet = latencies.filter((_, i) => i % 2 === 0);
    // The searches were under way when the moves landed: the moves cut them short.
    const cut = outcomes.filter((r) => !r.ok && /position changed/.test(r.error.message));
    expect(cut.length, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(6);
    const worst = (v: number[]) => Math.max(...v);
    // Normal latency: the settle window (130 ms) for a piece that could slide on, the bounce
    // window (35 ms) otherwise, plus the journal's write. A search adds nothing to it.
    expect(
      worst(busy),
      `busy ${busy.map((v) => v.toFixed(0))} quiet ${quiet.map((v) => v.toFixed(0))}`,
    ).toBeLessThan(worst(quiet) + 100);
  }, 60_000);

  it('a hint is cancelled when the position changes before the engine answers', async () => {
    const session = await start({ hint: { movetimeMs: 5000 } });
    await session.hint().catch(() => undefined); // loaded
    const asked = performance.now();
    const pending = session.hint();
    await sleep(200);
    await playMoves(session, gameMoves().slice(0, 1));
    const r = await pending;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/position changed/);
    // Stopped, not searched to the end of its 5 s (the move itself takes a few hundred ms).
    expect(performance.now() - asked).toBeLessThan(4500);
  }, 30_000);

  it('both clock buttons pressed together ask for a hint', async () => {
    const session = await start({ hintGesture: 'both-buttons', gestureMs: 400 });
    const hint = new Promise<BusEvents['game.hint']>((resolve) =>
      rig.controller!.bus.on('game.hint', resolve),
    );
    session.simulator!.press('red');
    await sleep(50);
    session.simulator!.press('black');
    const e = await hint;
    expect(e).toMatchObject({ board: 'b1', kind: 'hint', ply: 1 });
  }, 30_000);
});
