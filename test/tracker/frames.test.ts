/**
 * The stage in front of the machine (frames.ts): it records only the frames the machine would only
 * record, and a machine fed through it says and does exactly what it says and does fed every frame.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { Game } from '../../src/game/game.js';
import { Position, parseSquare } from '../../src/rules/index.js';
import type { SensorEvent } from '../../src/sensors/source.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { rng } from '../../src/simulation/random.js';
import { CONDITIONS } from '../../src/simulation/real-play-judge.js';
import { xstateClock } from '../../src/tracker/clock.js';
import { type FrameStage, takeFrame } from '../../src/tracker/frames.js';
import { TrackedGame } from '../../src/tracker/game-port.js';
import {
  createTrackerMachine,
  DEFAULT_TRACKER_OPTIONS,
  frameStage,
  type TrackerEmitted,
} from '../../src/tracker/machine.js';
import { expectedCells } from '../../src/tracker/reader.js';
import { Readings } from '../../src/tracker/readings.js';
import { ManualClock } from '../../src/util/clock.js';
import { arbitraryPlay, arbitraryRates } from './arbitrary.js';
import { randomGame } from './physical-support.js';

const at = (name: string): number => parseSquare(name)!;
const start = Position.default();
const cells = expectedCells(start, 'occupancy');
const without = (c: string, name: string): string => `${c.slice(0, at(name))}.${c.slice(at(name) + 1)}`;

const WINDOW: FrameStage = { recordsChanges: true, notesHeartbeats: true };
const QUIET: FrameStage = { recordsChanges: false, notesHeartbeats: true };
const BUSY: FrameStage = { recordsChanges: false, notesHeartbeats: false };

describe('the frame stage', () => {
  const fresh = (): Readings => {
    const r = new Readings('occupancy', 35, 0);
    r.record(100, cells, 100, r.cellsOf(start));
    return r;
  };

  it('records a change while the bounce window is open, as the machine would', () => {
    const r = fresh();
    expect(takeFrame(WINDOW, r, start, 200, without(cells, 'b0'), 202)).toBe(true);
    const machine = fresh();
    machine.record(200, without(cells, 'b0'), 202, machine.cellsOf(start));
    expect(r).toEqual(machine);
  });

  it('leaves a change to the machine outside the window', () => {
    const r = fresh();
    expect(takeFrame(QUIET, r, start, 200, without(cells, 'b0'), 200)).toBe(false);
    expect(r).toEqual(fresh());
  });

  it('leaves to the machine a change on a masked square (its fault alert ends)', () => {
    const r = fresh();
    r.mask = new Set([at('e3')]);
    expect(takeFrame(WINDOW, r, start, 200, without(cells, 'e3'), 200)).toBe(false);
    expect(r.cells).toBe(cells);
    expect(takeFrame(WINDOW, r, start, 200, without(cells, 'b0'), 200)).toBe(true);
    expect(r.mask).toEqual(new Set([at('e3')]));
  });

  it('notes an unchanged frame unless a button waits for one', () => {
    const r = fresh();
    expect(takeFrame(BUSY, r, start, 300, cells, 300)).toBe(false);
    expect(r.frameAt).toBe(100);
    expect(takeFrame(QUIET, r, start, 300, cells, 300)).toBe(true);
    expect([r.frameAt, r.changedAt, r.readAt]).toEqual([300, 100, 100]);
  });
});

/** The machine alone on an event stream, the tracker's part played by hand: every emitted event. */
function drive(sensing: 'occupancy' | 'colour', events: readonly SensorEvent[], staged: boolean) {
  const game = Game.start(start, { playOn: true });
  if (!game.ok) throw new Error(game.error.message);
  const port = new TrackedGame(game.value);
  const clock = new ManualClock(0);
  const actor = createActor(createTrackerMachine(), {
    input: {
      options: { ...DEFAULT_TRACKER_OPTIONS, sensing },
      game: port.view(),
      now: () => clock.now(),
    },
    clock: xstateClock(clock),
  });
  const out: (TrackerEmitted | { type: 'foul' })[] = [];
  for (const type of ['alert', 'alertCleared', 'state', 'gameStart', 'gameOver'] as const)
    actor.on(type, (e) => out.push(e as TrackerEmitted));
  actor.on('commit', (c) => {
    const done = port.commit(c);
    out.push(...done.events);
    actor.send({ type: 'applied', game: port.view(), rejected: done.rejected });
  });
  actor.on('foul', (f) => {
    out.push(f);
    actor.send({ type: 'applied', game: port.view() });
  });
  const states: unknown[] = [];
  actor.subscribe((s) => {
    if (JSON.stringify(s.value) !== JSON.stringify(states.at(-1))) states.push(s.value);
  });
  actor.start();
  let taken = 0;
  for (const e of events) {
    clock.advance(e.t - clock.now());
    if (e.type === 'snapshot') {
      const s = actor.getSnapshot();
      const { readings, game } = s.context;
      if (staged && takeFrame(frameStage(s), readings, game.position, e.t, e.cells, clock.now())) {
        taken++;
        continue;
      }
      actor.send({ type: 'snapshot', t: e.t, cells: e.cells });
    } else if (e.type === 'button') actor.send({ type: 'button', t: e.t, side: e.side });
  }
  clock.advance(5000);
  actor.stop();
  return { out, states, moves: game.value.moves.map((m) => m.iccs), taken };
}

/**
 * The events with heartbeats (the last frame again) and single-square flickers added between them:
 * unchanged frames in every state, with and without a button waiting, and dead sensors coming back.
 */
function perturb(events: readonly SensorEvent[], seed: number, dead?: number): SensorEvent[] {
  const random = rng(seed);
  const out: SensorEvent[] = [];
  let last: string | undefined;
  for (const [k, e] of events.entries()) {
    out.push(e);
    if (e.type === 'snapshot') last = e.cells;
    const next = events[k + 1];
    if (!next || last === undefined || next.t - e.t < 4) continue;
    const t = e.t + 1 + Math.floor(random() * (next.t - e.t - 2));
    const roll = random();
    if (roll < 0.2) out.push({ type: 'snapshot', t, cells: last });
    else if (roll < 0.25) {
      // (Half of them on the dead sensor's square, if any: a masked square whose reading changes.)
      const sq = dead !== undefined && random() < 0.5 ? dead : Math.floor(random() * 90);
      const flipped = `${last.slice(0, sq)}${last[sq] === '.' ? 'x' : '.'}${last.slice(sq + 1)}`;
      out.push({ type: 'snapshot', t, cells: flipped }, { type: 'snapshot', t: t + 1, cells: last });
    }
  }
  return out;
}

describe('a machine fed through the stage', () => {
  it('emits every event, passes every state and records every move as when fed every frame', () => {
    let taken = 0;
    fc.assert(
      fc.property(
        fc.record({
          ...arbitraryPlay(30),
          // The handling model's rates drawn at random, or a rule of real play (dead sensors…).
          play: fc.oneof(arbitraryRates, fc.integer({ min: 1, max: CONDITIONS.length - 1 })),
        }),
        (p) => {
          const moves = randomGame(start, p.plies, p.gameSeed);
          const base = {
            sensing: p.sensing,
            seed: p.seed,
            buttons: p.buttons,
            setupFromEmpty: p.setupFromEmpty,
          };
          const options =
            typeof p.play === 'number'
              ? CONDITIONS[p.play]!.options({ label: '', start, moves }, base, rng(p.seed))
              : { ...base, rates: p.play };
          if (!options) return;
          const events = perturb(
            physicalPlay(start, moves, options).events,
            p.seed,
            options.real?.dead?.square,
          );
          const alone = drive(p.sensing, events, false);
          const staged = drive(p.sensing, events, true);
          expect(staged.out).toEqual(alone.out);
          expect(staged.states).toEqual(alone.states);
          expect(staged.moves).toEqual(alone.moves);
          taken += staged.taken;
        },
      ),
      { numRuns: 60, seed: 20261202 },
    );
    expect(taken).toBeGreaterThan(1000);
  });
});
