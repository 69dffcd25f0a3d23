/**
 * The move reader: frames replayed per second (the whole pipeline: machine, judgement, game
 * model), the cost of one frame, and the time from the frame that completes a move to the move
 * event (p50/p99), for pieces that could still slide further and for those that could not.
 */
import { readFileSync } from 'node:fs';
import { assign, createActor, emit, setup } from 'xstate';
import type { Game } from '../src/game/game.js';
import { readPgn } from '../src/record/pgn.js';
import type { Move, Position } from '../src/rules/index.js';
import type { Sensing } from '../src/sensors/snapshot.js';
import { physicalPlay } from '../src/simulation/physical-play.js';
import { isExtendable } from '../src/tracker/reader.js';
import { runSensorEvents } from '../src/tracker/run.js';
import { positionOf } from '../test/helpers/positions.js';

const GAMES = 150;

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

export async function benchTracker(): Promise<void> {
  const text = readFileSync(
    new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url),
    'utf8',
  );
  const games = readPgn(text)
    .slice(0, GAMES)
    .map((r) => {
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    });
  console.log(`${GAMES} master games played physically (default handling model), default tracker settings`);
  console.log(
    'sensing    frames   frames/s  µs/frame   moves  slide p50/p99 ms  other p50/p99 ms  after evidence',
  );
  for (const sensing of ['occupancy', 'colour'] as Sensing[]) {
    let frames = 0;
    let ms = 0;
    const sliding: number[] = [];
    const other: number[] = [];
    let deferred = 0;
    let moves = 0;
    for (const [i, g] of games.entries()) {
      const start = { value: positionOf(g.fen) };
      const play = physicalPlay(
        start.value,
        g.moves.map((m) => m.move),
        { sensing, seed: i + 1, buttons: i % 2 === 0 },
      );
      frames += play.events.filter((e) => e.type === 'snapshot').length;
      const t0 = performance.now();
      const run = runSensorEvents(start.value, play.events, { sensing });
      ms += performance.now() - t0;
      if (!run.ok) throw new Error(run.error.message);
      const movesOut = run.value.emitted.filter((e) => e.type === 'move');
      // Latency per move as finally recorded (a takeback's replayed move counts once more).
      for (const e of movesOut) {
        const latency = e.t - e.frameT;
        const swapped = play.swapPlies.includes(e.ply) && sensing === 'occupancy';
        if (swapped) deferred++;
        else if (isExtendable(positionBefore(run.value.game, e.ply), [e.move])) sliding.push(latency);
        else other.push(latency);
      }
      moves += movesOut.length;
    }
    sliding.sort((a, b) => a - b);
    other.sort((a, b) => a - b);
    console.log(
      `${sensing.padEnd(9)} ${String(frames).padStart(7)} ${Math.round(frames / (ms / 1000))
        .toString()
        .padStart(10)} ${((ms * 1000) / frames).toFixed(1).padStart(9)} ${String(moves).padStart(7)}` +
        `  ${`${percentile(sliding, 50)}/${percentile(sliding, 99)}`.padStart(16)}  ${`${percentile(other, 50)}/${percentile(other, 99)}`.padStart(16)}  ${String(deferred).padStart(14)}`,
    );
  }
  console.log(
    '(latency is game time from the frame that completed the move to its move event; swapped captures',
  );
  console.log(' read by occupancy wait for evidence — the button or the reply — and are counted apart)');
  benchMachineFloor(games.slice(0, 20));
}

/**
 * What the 100,000 frames/s goal of the whole pipeline meets: xstate's own cost of one event (a
 * machine of two states, an assign and an emitted event, nothing of ours), and how many machine
 * steps the move reader takes a move and a frame. Their product is a floor no judgement can lower.
 */
function benchMachineFloor(games: readonly { fen: string; moves: readonly { move: Move }[] }[]): void {
  const toggle = setup({
    types: { events: {} as { type: 'go' }, emitted: {} as { type: 'went' } },
  }).createMachine({
    context: { n: 0 },
    initial: 'a',
    states: {
      a: { on: { go: { target: 'b', actions: assign({ n: ({ context }) => context.n + 1 }) } } },
      b: { entry: emit({ type: 'went' }), always: 'a' },
    },
  });
  const actor = createActor(toggle).start();
  const N = 200_000;
  for (let k = 0; k < N / 10; k++) actor.send({ type: 'go' });
  const t0 = performance.now();
  for (let k = 0; k < N; k++) actor.send({ type: 'go' });
  const perEvent = ((performance.now() - t0) * 1000) / N;
  actor.stop();
  let steps = 0;
  let frames = 0;
  let moves = 0;
  for (const [i, g] of games.entries()) {
    const start = positionOf(g.fen);
    const play = physicalPlay(
      start,
      g.moves.map((m) => m.move),
      { sensing: 'colour', seed: i + 1, buttons: i % 2 === 0 },
    );
    frames += play.events.filter((e) => e.type === 'snapshot').length;
    let counting = false;
    runSensorEvents(start, play.events, {
      sensing: 'colour',
      onEvent: (_, tracker) => {
        if (counting) return;
        counting = true;
        tracker.subscribeStates(() => steps++);
      },
    });
    moves += g.moves.length;
  }
  console.log(
    `xstate floor: ${perEvent.toFixed(1)} µs an event (two states, an assign, an emit); the move reader ` +
      `takes ${(steps / moves).toFixed(1)} machine steps a move, ${(steps / frames).toFixed(2)} a frame ` +
      `(${games.length} games, colour): xstate alone at that cost allows ` +
      `${Math.round(1e6 / (perEvent * (steps / frames))).toLocaleString('en')} frames/s`,
  );
  // The fewest steps a move can take in a machine that reads it: the lift and the landing, each
  // believed once its bounce window is out (a lift lights the piece's moves), and the move the
  // game applied.
  console.log(
    `xstate ceiling: at the fewest steps a move can take (${FEWEST_STEPS_A_MOVE}: a lift and a landing, each ` +
      `believed after its bounce window, and the move applied) and ${(frames / moves).toFixed(2)} frames a ` +
      `move, xstate alone allows ${Math.round(1e6 / ((perEvent * FEWEST_STEPS_A_MOVE) / (frames / moves))).toLocaleString('en')} frames/s`,
  );
}

const FEWEST_STEPS_A_MOVE = 5;

/** The position the move of `ply` was played from (kept per ply by the game: no replay). */
function positionBefore(game: Game, ply: number): Position {
  return game.positionAfter(Math.min(ply - 1, game.moves.length))!;
}
