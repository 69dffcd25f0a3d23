/**
 * A board session on the simulator, in simulated time: moves reach the bus only after the journal
 * holds them; a stopped session's game resumes in a new one on the same archive; a finished game
 * gets its PGN and sensor log, and setting the board up again starts the next game.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import { BoardSession } from '../../src/controller/board-session.js';
import { Bus, type BusEvents } from '../../src/controller/bus.js';
import { readJournal } from '../../src/record/journal.js';
import { parseGame } from '../../src/record/pgn.js';
import { makeIccs, makeSquareName, parseSquare } from '../../src/rules/index.js';
import { ReplaySource, realTime } from '../../src/sensors/replay.js';
import { makeSensorLog, parseSensorLog } from '../../src/sensors/sensor-log.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import type { SensorListener, SensorSource } from '../../src/sensors/source.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { CONDITIONS, randomGames, rowOptions } from '../../src/simulation/real-play-judge.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import { ManualClock } from '../../src/util/clock.js';
import { playMove as play } from '../helpers/sim-session.js';

const MATE_IN_ONE = '4k4/8R/9/9/9/9/9/9/9/R2K5 w - - 0 1';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-session-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Rig {
  clock: ManualClock;
  sim: BoardSimulator;
  session: BoardSession;
  events: { name: keyof BusEvents; payload: unknown }[];
  /** For each announced move: the journal's moves on disk at the moment it was announced. */
  journalAtAnnounce: string[][];
}

/** The simulator seen as a real board: the session cannot set its pieces. */
class RealBoard implements SensorSource {
  readonly id = 'real';
  readonly sensing = 'occupancy' as const;
  constructor(private readonly inner: BoardSimulator) {}
  start(): Promise<void> {
    return this.inner.start();
  }
  stop(): Promise<void> {
    return this.inner.stop();
  }
  subscribe(listener: SensorListener): () => void {
    return this.inner.subscribe(listener);
  }
  health() {
    return this.inner.health();
  }
}

function rig(position?: string, clock = new ManualClock(1_000_000), withClock = false, real = false): Rig {
  const config = defaultConfig();
  if (withClock) {
    // Six seconds each, sudden death.
    config.game.clock = { periods: [{ minutes: 0.1, incrementSeconds: 0 }], repeatLast: false };
  }
  const bus = new Bus((event, e) => {
    throw new Error(`listener of ${event} failed: ${String(e)}`);
  });
  const sim = new BoardSimulator({
    id: 'board1',
    clock,
    heartbeatMs: 1000,
    ...(position ? { position } : {}),
  });
  const session = new BoardSession({
    board: config.boards[0]!,
    source: real ? new RealBoard(sim) : sim,
    game: config.game,
    tracker: config.tracker,
    archiveDir: dir,
    bus,
    clock,
  });
  const events: Rig['events'] = [];
  const journalAtAnnounce: string[][] = [];
  const names: (keyof BusEvents)[] = [
    'game.view',
    'game.move',
    'game.retract',
    'game.over',
    'tracker.alert',
    'tracker.state',
    'board.availability',
  ];
  for (const name of names) bus.on(name, (payload) => events.push({ name, payload }));
  bus.on('game.move', () => {
    const path = session.journalPath!;
    const state = readJournal(path);
    journalAtAnnounce.push(state.ok ? state.value.moves.map((m) => m.iccs) : []);
  });
  return { clock, sim, session, events, journalAtAnnounce };
}

/** Lets the simulated time run `ms`, in steps, with the promises between them settled. */
async function settle(r: Rig, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 50) {
    await new Promise((done) => setImmediate(done));
    r.clock.advance(50);
  }
  await new Promise((done) => setImmediate(done));
}

const moves = (r: Rig) =>
  r.events.filter((e) => e.name === 'game.move').map((e) => (e.payload as BusEvents['game.move']).move.iccs);

describe('BoardSession on the simulator', () => {
  it('journals every move before announcing it, with the notation and the position', async () => {
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    expect(r.session.currentPhase).toBe('playing');
    const line = ['h2e2', 'h9g7', 'h0g2', 'i9h9'];
    for (const m of line) play(r, m);
    expect(moves(r)).toEqual(line);
    expect(r.journalAtAnnounce).toEqual(line.map((_, i) => line.slice(0, i + 1)));
    const first = r.events.find((e) => e.name === 'game.move')!.payload as BusEvents['game.move'];
    expect(first.move).toMatchObject({ ply: 1, iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五', color: 'red' });
    expect(first.view.moves).toEqual(['h2e2']);
    const journal = readJournal(r.session.journalPath!);
    expect(journal.ok && journal.value.start.meta.Board).toBe('board1');
    // The sensor frames are carried in the journal: a header, then frames.
    expect(journal.ok && JSON.parse(journal.value.sensorLog[0]!).type).toBe('header');
    await r.session.stop();
  });

  it('resumes an unfinished game after a stop, at its last move, and goes on', async () => {
    const a = rig();
    await a.session.start();
    a.clock.advance(100);
    for (const m of ['h2e2', 'h9g7', 'h0g2']) play(a, m);
    const path = a.session.journalPath!;
    const fen = (a.events.filter((e) => e.name === 'game.move').at(-1)!.payload as BusEvents['game.move'])
      .view.fen;
    await a.session.stop();

    // The board as the players left it, read by a new process.
    const b = rig(fen, new ManualClock(5_000_000));
    await b.session.start();
    b.clock.advance(100);
    const resumed = b.events.filter((e) => e.name === 'game.view').at(-1)!.payload as BusEvents['game.view'];
    expect(resumed.view).toMatchObject({ ply: 3, moves: ['h2e2', 'h9g7', 'h0g2'], status: 'playing' });
    expect(b.session.journalPath).toBe(path);
    play(b, 'i9h9');
    expect(moves(b)).toEqual(['i9h9']);
    const journal = readJournal(path);
    expect(journal.ok && journal.value.moves.map((m) => m.iccs)).toEqual(['h2e2', 'h9g7', 'h0g2', 'i9h9']);
    await b.session.stop();
  });

  it('a resumed real board waits for the board to match it, showing the corrections', async () => {
    const a = rig();
    await a.session.start();
    a.clock.advance(100);
    play(a, 'h2e2');
    await a.session.stop();
    // The board still shows the start position: the reader asks for the move to be made again.
    const b = rig(undefined, new ManualClock(1_000_000), false, true);
    await b.session.start();
    b.clock.advance(100);
    expect(b.session.currentPhase).toBe('setup');
    const setup = b.events.filter((e) => e.name === 'tracker.state').at(-1)!
      .payload as BusEvents['tracker.state'];
    expect(setup.state).toBe('setup');
    expect(setup.detail.corrections).toEqual([
      expect.objectContaining({ kind: 'move', from: 'h2', to: 'e2' }),
    ]);
    play(b, 'h2e2');
    expect(b.session.currentPhase).toBe('playing');
    expect(moves(b)).toEqual([]);
    play(b, 'h9g7');
    expect(moves(b)).toEqual(['h9g7']);
    await b.session.stop();
  });

  it('archives a finished game (PGN + sensor log that replays to the same moves) and starts the next', async () => {
    const r = rig(MATE_IN_ONE);
    await r.session.start();
    expect(r.session.newGame(MATE_IN_ONE).ok).toBe(true);
    r.clock.advance(100);
    expect(r.session.currentPhase).toBe('playing');
    const path = r.session.journalPath!;
    play(r, 'a0a9');
    expect(r.session.currentPhase).toBe('over');
    const over = r.events.find((e) => e.name === 'game.over')!.payload as BusEvents['game.over'];
    expect(over.view).toMatchObject({ result: '1-0', reason: 'checkmate', status: 'over', final: true });
    const journal = readJournal(path);
    expect(journal.ok && journal.value.outcome).toMatchObject({ result: '1-0', reason: 'checkmate' });
    const pgn = parseGame(readFileSync(path.replace('.journal.jsonl', '.pgn'), 'utf8'));
    expect(pgn.ok && pgn.value.moves.map((m) => m.iccs)).toEqual(['a0a9']);
    expect(pgn.ok && pgn.value.result).toBe('1-0');
    const logPath = path.replace('.journal.jsonl', '.sensor.jsonl');
    expect(existsSync(logPath)).toBe(true);
    const log = parseSensorLog(readFileSync(logPath, 'utf8'));
    expect(log.ok).toBe(true);
    if (!log.ok) return;
    expect(log.value.header).toMatchObject({ fen: MATE_IN_ONE, board: 'board1' });
    const replay = runSensorEvents(log.value.header.fen, log.value.events, { sensing: 'occupancy' });
    expect(replay.ok && replay.value.game.moves.map((m) => m.iccs)).toEqual(['a0a9']);

    // The players set the pieces up again: a new game with a new journal.
    r.sim.setPosition('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    r.clock.advance(200);
    expect(r.session.currentPhase).toBe('playing');
    expect(r.session.journalPath).not.toBe(path);
    play(r, 'b2e2');
    expect(moves(r)).toEqual(['a0a9', 'b2e2']);
    await r.session.stop();
  });

  it('journals a takeback before announcing it', async () => {
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    play(r, 'e2h2');
    const retract = r.events.find((e) => e.name === 'game.retract')?.payload as BusEvents['game.retract'];
    expect(retract).toMatchObject({ ply: 1 });
    const journal = readJournal(r.session.journalPath!);
    expect(journal.ok && journal.value).toMatchObject({ moves: [], retractions: 1 });
    await r.session.stop();
  });

  it('resigns, offers and accepts draws, and refuses them with no game', async () => {
    const r = rig();
    await r.session.start();
    expect(r.session.resign().ok).toBe(false); // still in setup: no game yet
    r.clock.advance(100);
    play(r, 'h2e2');
    expect(r.session.draw('offer', 'black').ok).toBe(true);
    const accepted = r.session.draw('accept');
    expect(accepted.ok && accepted.value).toMatchObject({
      result: '1/2-1/2',
      reason: 'agreement',
      status: 'over',
    });
    const refused = r.session.resign();
    expect(refused.ok).toBe(false);
    await r.session.stop();
  });

  it('refuses a result while the board may show a move the record lacks, and takes it once the clock says', async () => {
    // Red's cannon takes the horse on h9 swapped within one scan (occupancy): only h2 changes, and
    // the board reads the same as the cannon still in the hand. Black resigning now would end the
    // game without Red's capture; resigning or agreeing a draw with no side given would name the
    // wrong side to move.
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    const h2 = parseSquare('h2')!;
    const h9 = parseSquare('h9')!;
    r.sim.lift(h2);
    r.sim.batch(() => {
      r.sim.remove(h9);
      r.sim.place(h9);
    });
    await settle(r, 1000);
    const refused = r.session.resign('black');
    expect(refused).toMatchObject({ ok: false, error: { code: 'unsettled' } });
    expect(!refused.ok && refused.error.message).toMatch(/h2h9.*presses the clock/);
    expect(r.session.draw('offer', 'black').ok).toBe(true);
    expect(r.session.draw('accept', 'red')).toMatchObject({ ok: false, error: { code: 'unsettled' } });
    expect(r.session.view().status).toBe('playing');
    r.sim.press('red');
    await settle(r, 1000);
    expect(moves(r)).toEqual(['h2h9']);
    expect(r.session.resign('black')).toMatchObject({
      ok: true,
      value: { result: '1-0', reason: 'resignation' },
    });
    await r.session.stop();
  });

  it("plays moves on the simulated board with a hand's timing, captures included, in any notation", async () => {
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    // Requests queue: each is answered once its move is recorded.
    const answers = ['炮二平五', 'h9g7', 'C5+4'].map((text) => r.session.simulate({ move: text }));
    await settle(r, 3000);
    expect(await Promise.all(answers)).toEqual([
      { ok: true, value: { iccs: 'h2e2', ply: 1 } },
      { ok: true, value: { iccs: 'h9g7', ply: 2 } },
      { ok: true, value: { iccs: 'e2e6', ply: 3 } },
    ]);
    expect(moves(r)).toEqual(['h2e2', 'h9g7', 'e2e6']);
    const capture = r.events.filter((e) => e.name === 'game.move').at(-1)!.payload as BusEvents['game.move'];
    expect(capture.move).toMatchObject({ iccs: 'e2e6', wxf: 'C5+4', capture: true, check: false });
    expect(await r.session.simulate({ move: 'h0h9' })).toMatchObject({
      ok: false,
      error: { code: 'illegal_move' },
    });
    expect(await r.session.simulate({ move: 'zz' })).toMatchObject({
      ok: false,
      error: { code: 'bad_move' },
    });
    // Black to move: a Red move is refused, never played as Black's.
    expect(await r.session.simulate({ move: '炮八平五' })).toMatchObject({
      ok: false,
      error: { code: 'wrong_side' },
    });
    await r.session.stop();
  });

  it('a new game asked while the hand is moving a piece drops that move and sets the board up', async () => {
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    const moving = r.session.simulate({ move: 'h2e2' });
    await new Promise((done) => setImmediate(done));
    r.clock.advance(50); // the cannon is in the hand
    expect(r.session.newGame().ok).toBe(true);
    expect(await moving).toMatchObject({
      ok: false,
      error: { code: 'refused', message: 'a new game started' },
    });
    await settle(r, 500);
    expect(r.session.currentPhase).toBe('playing');
    const next = r.session.simulate({ move: 'h2e2' });
    await settle(r, 1000);
    expect(await next).toEqual({ ok: true, value: { iccs: 'h2e2', ply: 1 } });
    await r.session.stop();
  });

  it('refuses a simulated move while the board is in setup or the game is over', async () => {
    const r = rig();
    await r.session.start();
    expect(await r.session.simulate({ move: 'h2e2' })).toMatchObject({ ok: false, error: { code: 'setup' } });
    r.clock.advance(100);
    r.session.resign();
    expect(await r.session.simulate({ move: 'h2e2' })).toMatchObject({
      ok: false,
      error: { code: 'game_over' },
    });
    expect(await r.session.hint()).toMatchObject({ ok: false, error: { code: 'game_over' } });
    await r.session.stop();
  });

  it('a new game requested mid-game archives the old one as unfinished; a simulated board is set up for it', async () => {
    const s = rig();
    await s.session.start();
    s.clock.advance(100);
    play(s, 'h2e2');
    const first = s.session.journalPath!;
    expect(s.session.newGame()).toMatchObject({ ok: true, value: { status: 'setup', ply: 0 } });
    s.clock.advance(100);
    expect(s.session.currentPhase).toBe('playing');
    expect(s.session.journalPath).not.toBe(first);
    play(s, 'h2e2');
    expect(moves(s)).toEqual(['h2e2', 'h2e2']);
    await s.session.stop();

    const r = rig(undefined, new ManualClock(2_000_000), false, true);
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    const old = r.session.journalPath!;
    const started = r.session.newGame();
    expect(started.ok && started.value).toMatchObject({ status: 'setup', ply: 0 });
    const journal = readJournal(old);
    expect(journal.ok && journal.value).toMatchObject({
      outcome: { result: '*', reason: 'abandoned' },
      archived: true,
    });
    expect(existsSync(old.replace('.journal.jsonl', '.pgn'))).toBe(true);
    r.clock.advance(100);
    // The board still shows h2e2: the new game waits in setup until it is put back.
    expect(r.session.currentPhase).toBe('setup');
    play(r, 'e2h2');
    expect(r.session.currentPhase).toBe('playing');
    expect(r.session.journalPath).not.toBe(old);
    await r.session.stop();
  });

  it('an ending the players may play past is not final: play goes on, or a reset closes it', async () => {
    const cycle = ['h0g2', 'h9g7', 'g2h0', 'g7h9'];
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    for (const m of ['b0c2', 'b9c7', ...cycle, ...cycle]) play(r, m);
    const over = r.events
      .filter((e) => e.name === 'game.over')
      .map((e) => (e.payload as BusEvents['game.over']).view);
    expect(over).toEqual([
      expect.objectContaining({ result: '1/2-1/2', reason: 'repetition', final: false, ply: 10 }),
    ]);
    expect(r.session.currentPhase).toBe('playing');
    r.clock.advance(3000);
    expect(r.session.currentPhase).toBe('playing');
    // Played past: the ending is withdrawn.
    play(r, 'h0g2');
    expect(moves(r).at(-1)).toBe('h0g2');
    expect(
      r.events.some(
        (e) =>
          e.name === 'tracker.alert' && (e.payload as BusEvents['tracker.alert']).alert.kind === 'play_on',
      ),
    ).toBe(true);
    // That position is on the board for the third time as well: over again, still not final.
    expect(r.session.view()).toMatchObject({ status: 'over', reason: 'repetition', final: false, ply: 11 });
    // Now the players set the pieces up for a new game: the drawn game is closed and archived.
    const path = r.session.journalPath!;
    r.sim.setPosition('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1');
    r.clock.advance(200);
    const journal = readJournal(path);
    expect(journal.ok && journal.value).toMatchObject({
      outcome: { result: '1/2-1/2', reason: 'repetition' },
      archived: true,
    });
    expect(r.session.journalPath).not.toBe(path);
    expect(r.session.currentPhase).toBe('playing');
    await r.session.stop();
  });

  it('ends the game when a flag falls, with nobody touching the board', async () => {
    const r = rig(undefined, new ManualClock(0), true);
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    const view = r.session.view();
    expect(view.clock).toMatchObject({ running: 'black', red: 6000, black: expect.any(Number) });
    r.clock.advance(6500);
    const over = r.events.find((e) => e.name === 'game.over')?.payload as BusEvents['game.over'];
    expect(over.view).toMatchObject({ result: '1-0', reason: 'time', final: true, status: 'over' });
    const journal = readJournal(over.view.game ? join(dir, `${over.view.game}.journal.jsonl`) : '');
    expect(journal.ok && journal.value.outcome).toMatchObject({ result: '1-0', reason: 'time' });
    expect(journal.ok && journal.value.moves[0]).toMatchObject({ iccs: 'h2e2', clock: 6000 });
    await r.session.stop();
  });

  it('gives a hint that takes a hanging chariot', async () => {
    const r = rig('4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1');
    await r.session.start();
    r.session.newGame('4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1');
    r.clock.advance(100);
    const hint = await r.session.hint();
    expect(hint).toMatchObject({ ok: true, value: { iccs: 'e1e5', ply: 1 } });
    await r.session.stop();
  });
});

/**
 * Random game `k` of seed 1 in the dead-sensor row (test/tracker/beyond-model.test.ts), played to a
 * session as a board would send it (the log replayed on the session's clock).
 */
function deadSensorSession(k: number, sensing: Sensing) {
  const games = randomGames(60, 1);
  const condition = CONDITIONS.find((c) => c.id === 'dead_used')!;
  const options = rowOptions(condition, games, sensing, 1)[k]!;
  const game = games[k]!;
  const play = physicalPlay(game.start, game.moves, options);
  const log = parseSensorLog(makeSensorLog({ sensing, board: 'board1' }, play.events));
  if (!log.ok) throw new Error(log.error.message);
  const clock = new ManualClock(0);
  const bus = new Bus((event, e) => {
    throw new Error(`listener of ${event} failed: ${String(e)}`);
  });
  const config = defaultConfig();
  const session = new BoardSession({
    board: config.boards[0]!,
    source: new ReplaySource({ log: log.value, pace: realTime({ clock }) }),
    game: config.game,
    tracker: config.tracker,
    archiveDir: dir,
    bus,
    clock,
  });
  const recorded: string[] = [];
  bus.on('game.move', (e) => recorded.push(e.move.iccs));
  bus.on('game.retract', (e) => recorded.splice(e.ply - 1));
  const dead = makeSquareName(options.real!.dead!.square);
  const end = play.events.at(-1)!.t;
  return { session, clock, recorded, dead, end, moves: game.moves.map(makeIccs) };
}

describe('BoardSession and a dead sensor', () => {
  it('records the candidate the players say they played, and names its sensor', async () => {
    // Random game 13: the board doubts which sensor is dead.
    const { session, clock, recorded, dead, end, moves } = deadSensorSession(13, 'occupancy');
    await session.start();
    const doubt = () => session.alerts().find((a) => a.kind === 'ambiguous' && a.sensors !== undefined);
    expect(session.resolve(0)).toMatchObject({ ok: false, error: { code: 'no_game' } });
    while (!doubt() && clock.now() < end) clock.advance(50);
    const candidate = doubt()!.sensors!.indexOf(dead);
    expect(candidate).toBeGreaterThanOrEqual(0);
    // The reader's own answers come back through the session: a candidate it does not have, then the one.
    expect(session.resolve(63)).toMatchObject({ ok: false, error: { code: 'bad_candidate' } });
    expect(session.resolve(candidate, 'z9')).toMatchObject({ ok: false, error: { code: 'bad_candidate' } });
    // (An answer naming another point for that candidate was meant for a doubt now over.)
    const other = dead === 'a0' ? 'a1' : 'a0';
    expect(session.resolve(candidate, other)).toMatchObject({ ok: false, error: { code: 'stale' } });
    expect(session.resolve(candidate, dead)).toMatchObject({ ok: true, value: { square: dead } });
    // (Recorded once that candidate's reading is at rest: the reply's piece is still in the hand.)
    const named = () => session.alerts().some((a) => a.kind === 'sensor_fault' && a.square === dead);
    const chosenAt = clock.now();
    while (!named() && clock.now() < chosenAt + 5000) clock.advance(50);
    expect(session.alerts()).toContainEqual(expect.objectContaining({ kind: 'sensor_fault', square: dead }));
    expect(doubt()).toBeUndefined();
    expect(session.resolve(candidate)).toMatchObject({ ok: false, error: { code: 'no_doubt' } });
    clock.advance(end - clock.now() + 5000);
    expect(recorded).toEqual(moves);
    await session.stop();
  });
  it('puts the record right as the players say, journaled, and names the sensor it shows dead', async () => {
    // Random game 10, colour: Black's horse f6 → g8 over a dead g8 is read as a capture nobody saw
    // on e4; the players say what they played.
    const { session, clock, recorded, dead, end, moves } = deadSensorSession(10, 'colour');
    await session.start();
    const blind = () => recorded[45] === 'f6e4';
    while (!blind() && clock.now() < end) clock.advance(50);
    expect(blind()).toBe(true);
    clock.advance(1500);
    expect(session.correct(46, ['f6h7', 'zz'])).toMatchObject({ ok: false, error: { code: 'bad_move' } });
    expect(session.correct(46, ['f6e8'])).toMatchObject({ ok: false, error: { code: 'illegal_move' } });
    const fixed = session.correct(46, ['f6g8']);
    expect(fixed.ok && fixed.value.moves.slice(45)).toEqual(
      moves.slice(45, fixed.ok ? fixed.value.moves.length : 0),
    );
    const journal = readJournal(session.journalPath!);
    expect(journal.ok && journal.value.moves.map((m) => m.iccs)).toEqual(recorded);
    const named = () => session.alerts().some((a) => a.kind === 'sensor_fault' && a.square === dead);
    const at = clock.now();
    while (!named() && clock.now() < at + 5000) clock.advance(50);
    expect(named()).toBe(true);
    clock.advance(end - clock.now() + 5000);
    expect(recorded).toEqual(moves);
    await session.stop();
  });
});
