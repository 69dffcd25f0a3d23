/**
 * The terminal of `xqboard start`: commands typed on standard input play moves on the simulated
 * board; a TTY gets the board redrawn as a grid with the moves, anything else one line per event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import { BoardSession } from '../../src/controller/board-session.js';
import { Bus } from '../../src/controller/bus.js';
import { BoardFeed } from '../../src/controller/feed.js';
import { TerminalView } from '../../src/controller/terminal.js';
import { parseSquare } from '../../src/rules/index.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import { ManualClock } from '../../src/util/clock.js';
import { silentLogger } from '../../src/util/log.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-terminal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function rig(tty: boolean, withClock = false) {
  const clock = new ManualClock(0);
  const config = defaultConfig();
  if (withClock) config.game.clock = { periods: [{ minutes: 10, incrementSeconds: 0 }], repeatLast: false };
  const bus = new Bus();
  const session = new BoardSession({
    board: config.boards[0]!,
    source: new BoardSimulator({ id: 'board1', clock }),
    game: config.game,
    tracker: config.tracker,
    archiveDir: dir,
    bus,
    clock,
  });
  const written: string[] = [];
  const input = new PassThrough();
  let quits = 0;
  const view = new TerminalView(
    { bus, sessions: new Map([['board1', session]]), feed: new BoardFeed(bus), config, logger: silentLogger },
    {
      output: { write: (t: string) => written.push(t), isTTY: tty },
      input,
      onQuit: () => quits++,
    },
  );
  await view.start();
  await session.start();
  clock.advance(100);
  const type = async (line: string) => {
    input.write(`${line}\n`);
    await new Promise((r) => setImmediate(r));
  };
  return { clock, session, view, written, type, quits: () => quits };
}

const ESC = String.fromCharCode(27);

/**
 * The terminal's screen once it shows `what` (a redraw comes at most every 40 ms, on a real timer,
 * after the move has been journaled): waited for, up to 10 s, not slept on. Throws with the last
 * screen if it never does.
 */
async function screenShowing(t: { written: string[] }, what: (screen: string) => boolean): Promise<string> {
  const now = () => (t.written.at(-1) ?? '').replace(new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, 'g'), '');
  for (const until = Date.now() + 10_000; !what(now()); ) {
    if (Date.now() > until) throw new Error(`the terminal never showed what was expected:\n${now()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return now();
}

describe('terminal', () => {
  it('plays typed moves (any notation) on the simulated board and prints them', async () => {
    const t = await rig(false);
    await t.type('炮二平五');
    t.clock.advance(800);
    await t.type('h9g7');
    t.clock.advance(800);
    expect(t.written).toContain('board1: 1. h2e2 C2.5 炮二平五\n');
    expect(t.written).toContain('board1: 2. h9g7 H8+7 马８进７\n');
    await t.type('h0h5');
    expect(t.written.at(-1)).toMatch(/h0h5/);
    await t.type('help');
    expect(t.written.at(-1)).toContain('play a move on the simulated board');
    await t.type('quit');
    expect(t.quits()).toBe(1);
    await t.view.stop();
    await t.session.stop();
  });

  it('draws the board as a 9×10 grid with the move list on a TTY', async () => {
    const t = await rig(true);
    await t.type('h2e2');
    t.clock.advance(800);
    const screen = await screenShowing(t, (s) => s.includes('ply 1, black to move'));
    expect(screen).toContain('board1');
    expect(screen).toContain('ply 1, black to move');
    expect(screen).toContain('moves: 1. 炮二平五');
    expect(screen).toContain('last move: 1. h2e2');
    // As `games show` draws it: the last move's squares bracketed, the river.
    expect(screen).toContain(' 2  · C · ·[C]· ·[·]·');
    expect(screen).toContain(' 0  R N B A K A B N R');
    expect(screen).toContain('~~~~~~~~~~~~~~~~~~~');
    expect(screen).toContain('    a b c d e f g h i');
    await t.view.stop();
    await t.session.stop();
  });

  it('shows the alerts active now, the reason for an illegal move, the clock and the winner after a mate', async () => {
    const t = await rig(true, true);
    await t.type('h0h9');
    const first = await screenShowing(t, (s) => s.includes("illegal_move: 'h0h9' is not legal"));
    expect(first).toContain('clock: red 10:00  black 10:00');
    // A piece set down where it may not go: the alert shows while it stands, and not after.
    const sim = t.session.simulator!;
    sim.lift(parseSquare('e0')!);
    t.clock.advance(100);
    sim.place(parseSquare('e2')!);
    t.clock.advance(500);
    await screenShowing(t, (s) => /alert: .*general/.test(s));
    sim.lift(parseSquare('e2')!);
    t.clock.advance(100);
    sim.place(parseSquare('e0')!);
    t.clock.advance(500);
    await screenShowing(t, (s) => !s.includes('alert:'));
    // Mate: the winner is named.
    await t.type('new 4k4/8R/9/9/9/9/9/9/9/R2K5 w - - 0 1');
    t.clock.advance(100);
    await new Promise((r) => setImmediate(r));
    await t.type('a0a9');
    t.clock.advance(800);
    await new Promise((r) => setImmediate(r));
    const mated = await screenShowing(t, (s) => s.includes('1-0 red wins (checkmate)'));
    expect(mated).toContain('last move: 1. a0a9');
    await t.view.stop();
    await t.session.stop();
  });

  it('play red|black [ms] [skill] gives a side to the engine for a new game; play off takes it back', async () => {
    const t = await rig(false);
    await t.type('play black 200 5');
    expect(t.session.engineState().opponent).toEqual({
      side: 'black',
      strength: { movetimeMs: 200, skill: 5 },
    });
    await t.type('play off');
    expect(t.session.engineState().opponent).toBeUndefined();
    await t.view.stop();
    await t.session.stop();
  });
});
