/**
 * A full disk, for real: the archive is a small tmpfs (mounted here; CI runs as root), filled up
 * with a filler file and freed again. A board session on the simulator, in simulated time, plays
 * through it: full mid-game, a write cut short, full for a moment, full at game start and at game
 * end. In every case each announced move is in the journal after a restart, a `storage` alert is
 * raised for each refused write, and recording resumes by itself once there is room.
 *
 * Where tmpfs cannot be mounted (not root, no CAP_SYS_ADMIN; or XQBOARD_DISK_STUB=1) the same
 * faults come from a failing filesystem stub instead: `writeSync` to files of the archive writes
 * what is left of a byte budget (a short write) and then fails with ENOSPC. The tests' names say
 * which one ran.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GameConfig } from '../../src/config/schema.js';
import type { BusEvents } from '../../src/controller/bus.js';
import { encodeRecord, GameJournal, readJournal } from '../../src/record/journal.js';
import { LOCK_FILE, lockArchive } from '../../src/record/lock.js';
import { parseSensorLog } from '../../src/sensors/sensor-log.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import { ManualClock } from '../../src/util/clock.js';
import { type Logger, silentLogger } from '../../src/util/log.js';
import { playMove, type SimSession, simSession } from '../helpers/sim-session.js';
import { canMountTmpfs, fillTmpfs, mountTmpfs, unmount } from '../helpers/tmpfs.js';

/** The failing filesystem, used only where tmpfs cannot be mounted. */
const stub = vi.hoisted(() => ({
  on: false,
  dir: '',
  budget: Number.POSITIVE_INFINITY,
  fds: new Set<number>(),
}));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((path: string, ...rest: never[]) => {
    const fd = (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
    if (stub.on && String(path).startsWith(stub.dir)) stub.fds.add(fd);
    return fd;
  }) as typeof fs.openSync;
  const closeSync = ((fd: number) => {
    stub.fds.delete(fd);
    fs.closeSync(fd);
  }) as typeof fs.closeSync;
  const writeSync = ((fd: number, data: Uint8Array | string, ...rest: number[]) => {
    if (!stub.on || !stub.fds.has(fd) || typeof data === 'string')
      return (fs.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
    const offset = rest[0] ?? 0;
    const length = rest[1] ?? data.byteLength - offset;
    if (length > 0 && stub.budget <= 0) {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
      });
    }
    const n = Math.min(length, stub.budget);
    stub.budget -= n;
    return fs.writeSync(fd, data, offset, n);
  }) as typeof fs.writeSync;
  const mocked = { ...fs, openSync, closeSync, writeSync };
  return { ...mocked, default: mocked };
});

const canMount = process.env.XQBOARD_DISK_STUB !== '1' && canMountTmpfs();
const MODE = canMount ? 'tmpfs' : 'failing fs stub, no tmpfs mounted';

let mnt: string;
let dir: string;
beforeEach(() => {
  mnt = mkdtempSync(join(tmpdir(), 'xqboard-full-'));
  if (canMount && !mountTmpfs(mnt)) throw new Error(`cannot mount tmpfs on ${mnt}`);
  Object.assign(stub, { on: !canMount, dir: mnt, budget: Number.POSITIVE_INFINITY });
  stub.fds.clear();
  dir = join(mnt, 'games');
  mkdirSync(dir);
});
afterEach(() => {
  stub.on = false;
  if (canMount) unmount(mnt);
  rmSync(mnt, { recursive: true, force: true });
});

/**
 * Takes every free byte; `free()` gives them back. On tmpfs what is left in the last page of each
 * open file can still be written; the stub leaves `leave` bytes (default: a part of a record).
 */
function fill(leave = 37): { free(): void } {
  if (!canMount) {
    stub.budget = leave;
    return { free: () => (stub.budget = Number.POSITIVE_INFINITY) };
  }
  return fillTmpfs(mnt);
}

interface Rig extends SimSession {
  announced: string[];
  storageAlerts: string[];
  storageCleared: number;
  /** Refused writes, as the session logged them. */
  refusals: string[];
  logs: string[];
}

function rig(clock = new ManualClock(1_000_000), game?: Partial<GameConfig>): Rig {
  const logs: string[] = [];
  const refusals: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    info: (m: string) => void logs.push(m),
    warn: (m: string) => void logs.push(m),
    error: (m: string) => {
      logs.push(m);
      if (/ENOSPC/.test(m)) refusals.push(m);
    },
    child: () => logger,
  };
  const r: Rig = {
    ...simSession(dir, { clock, logger, ...(game ? { game } : {}) }),
    announced: [],
    storageAlerts: [],
    storageCleared: 0,
    refusals,
    logs,
  };
  r.bus.on('game.move', (e: BusEvents['game.move']) => {
    r.announced.push(e.move.iccs);
    // Announced only once on disk (a line of two moves is written whole before either is announced).
    const j = readJournal(r.session.journalPath!);
    expect(j.ok && j.value.moves.map((m) => m.iccs).slice(0, r.announced.length)).toEqual(r.announced);
  });
  r.bus.on('game.retract', () => {
    r.announced.pop();
  });
  r.bus.on('tracker.alert', (e) => {
    if (e.alert.kind === 'storage') r.storageAlerts.push(e.alert.message);
  });
  r.bus.on('tracker.alertCleared', (e) => {
    if (e.kind === 'storage') r.storageCleared++;
  });
  return r;
}

const play = playMove;

/** A game under way, `moves` of the line played, then the disk fills up and play goes on until a move is refused. */
async function fullAfter(moves: number): Promise<{ r: Rig; disk: { free(): void }; k: number }> {
  const r = rig();
  await r.session.start();
  r.clock.advance(100);
  for (const m of LINE.slice(0, moves)) play(r, m);
  const disk = fill();
  return { r, disk, k: playUntilRefused(r, moves) };
}

/** After a stop: a new process on the same archive and board resumes with every announced move. */
async function restartHolds(r: Rig): Promise<void> {
  await r.session.stop();
  const journals = readdirSync(dir).filter((n) => n.endsWith('.journal.jsonl'));
  for (const name of journals) {
    const j = readJournal(join(dir, name));
    expect(j.ok && j.value.warnings).toEqual([]);
  }
  // A simulated board is set to the resumed game by the session itself.
  const b = rig(new ManualClock(9_000_000));
  await b.session.start();
  b.clock.advance(200);
  expect(b.session.view().moves).toEqual(r.announced);
  await b.session.stop();
}

/** Every refused write has its own alert, naming the disk and what to do. */
function alertedEach(r: Rig): void {
  expect(r.refusals.length).toBeGreaterThan(0);
  expect(r.storageAlerts.length).toBe(r.refusals.length);
  for (const m of r.storageAlerts) expect(m).toMatch(/ENOSPC.*free space on the disk of/);
}

/** A quiet line (no capture, no check): the disk fills up somewhere along it. */
const LINE = [
  'a0a2',
  'g9i7',
  'a3a4',
  'h7d7',
  'f0e1',
  'b7a7',
  'a2a0',
  'e9e8',
  'e0f0',
  'e8e7',
  'h2f2',
  'i7g5',
  'b2c2',
  'a6a5',
  'f2f5',
  'e7f7',
  'c2g2',
  'd9e8',
  'g2c2',
  'd7e7',
  'f0e0',
  'e7b7',
  'f5f6',
  'c9e7',
  'c2c1',
  'b7d7',
  'g0i2',
  'b9d8',
  'f6f1',
  'f7f8',
  'f1f4',
  'e7c5',
  'i2g0',
  'i9i8',
  'f4b4',
  'h9g7',
];

/**
 * Plays the line on from `from` until a move is not announced: the disk is full (what was left
 * in the journal's last page took the first ones). Returns the index of the refused move.
 */
function playUntilRefused(r: Rig, from: number): number {
  for (let k = from; k < LINE.length; k++) {
    play(r, LINE[k]!);
    if (r.announced.length === k) return k;
    expect(r.announced).toEqual(LINE.slice(0, k + 1));
  }
  throw new Error('the disk never filled up');
}

describe(`a full disk (${MODE})`, () => {
  it('full mid-game: the move is not played nor announced; once there is room it is, with no restart', async () => {
    const { r, disk, k } = await fullAfter(2);
    // The game holds only what the journal holds.
    expect(r.session.view().moves).toEqual(LINE.slice(0, k));
    r.clock.advance(3000);
    expect(r.refusals.length).toBeGreaterThan(1); // tried again, and refused again
    alertedEach(r);
    expect(r.session.alerts().map((a) => a.kind)).toContain('storage');
    disk.free();
    r.clock.advance(6000);
    expect(r.announced).toEqual(LINE.slice(0, k + 1));
    expect(r.storageCleared).toBeGreaterThan(0);
    expect(r.session.alerts().map((a) => a.kind)).not.toContain('storage');
    play(r, LINE[k + 1]!);
    expect(r.announced).toEqual(LINE.slice(0, k + 2));
    // The sensor frames that waited while the disk was full went in after: the journal's sensor
    // log still replays to the game.
    const j = readJournal(r.session.journalPath!);
    const log = j.ok ? parseSensorLog(j.value.sensorLog.join('\n')) : undefined;
    expect(log?.ok).toBe(true);
    if (log?.ok) {
      const replay = runSensorEvents(log.value.header.fen, log.value.events, { sensing: 'occupancy' });
      expect(replay.ok && replay.value.game.moves.map((m) => m.iccs)).toEqual(r.announced);
    }
    await restartHolds(r);
  });

  it('full mid-game, and the board moves on meanwhile: judged against the journal, both moves recorded', async () => {
    const { r, disk, k } = await fullAfter(1);
    play(r, LINE[k + 1]!);
    expect(r.announced).toEqual(LINE.slice(0, k));
    disk.free();
    r.clock.advance(6000);
    expect(r.announced).toEqual(LINE.slice(0, k + 2));
    alertedEach(r);
    await restartHolds(r);
  });

  it('full for a moment (~300 ms): the move is recorded by itself as soon as there is room', async () => {
    const { r, disk, k } = await fullAfter(1);
    // play() let 500 ms pass after the piece was set down; the disk stays full ~300 ms more.
    r.clock.advance(300);
    disk.free();
    r.clock.advance(1200);
    expect(r.announced).toEqual(LINE.slice(0, k + 1));
    alertedEach(r);
    await restartHolds(r);
  });

  it('full at game start: no empty journal is left; the journal is made with the first move once there is room', async () => {
    const disk = fill();
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    expect(r.session.currentPhase).toBe('playing');
    expect(readdirSync(dir).filter((n) => n.includes('journal'))).toEqual([]);
    play(r, LINE[0]!);
    r.clock.advance(2000);
    expect(r.announced).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.includes('journal'))).toEqual([]);
    alertedEach(r);
    disk.free();
    r.clock.advance(6000);
    expect(r.announced).toEqual(LINE.slice(0, 1));
    play(r, LINE[1]!);
    expect(r.announced).toEqual(LINE.slice(0, 2));
    await restartHolds(r);
  });

  it('full at game end: the end and the archive are written by themselves once there is room', async () => {
    const { r, disk, k } = await fullAfter(1);
    const path = r.session.journalPath!;
    // Black resigns with the last move unrecorded (never announced, so not part of the game).
    expect(r.session.resign('black').ok).toBe(true);
    r.clock.advance(1000);
    expect(existsSync(path.replace('.journal.jsonl', '.pgn'))).toBe(false);
    alertedEach(r);
    disk.free();
    r.clock.advance(6000);
    const j = readJournal(path);
    expect(j.ok && j.value).toMatchObject({
      archived: true,
      outcome: { result: '1-0', reason: 'resignation' },
    });
    expect(j.ok && j.value.moves.map((m) => m.iccs)).toEqual(LINE.slice(0, k));
    expect(j.ok && j.value.warnings).toEqual([]);
    expect(readFileSync(path.replace('.journal.jsonl', '.pgn'), 'utf8')).toContain(LINE[0]);
    expect(r.session.alerts().map((a) => a.kind)).not.toContain('storage');
    await r.session.stop();
  });

  it('an ended game left unarchived by a full disk is archived when the next process starts', async () => {
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    const path = r.session.journalPath!;
    await r.session.stop();
    // The process wrote the end and stopped before the archive.
    const j = GameJournal.resume(path);
    expect(j.ok).toBe(true);
    if (!j.ok) return;
    j.value.journal.end({ result: '1-0', reason: 'resignation', t: 5000 });
    j.value.journal.close();
    const disk = fill();
    const b = rig(new ManualClock(2_000_000));
    await b.session.start();
    expect(existsSync(path.replace('.journal.jsonl', '.pgn'))).toBe(false);
    alertedEach(b);
    disk.free();
    b.clock.advance(6000);
    expect(existsSync(path.replace('.journal.jsonl', '.pgn'))).toBe(true);
    const read = readJournal(path);
    expect(read.ok && read.value.archived).toBe(true);
    await b.session.stop();
  });
});

describe('a takeback refused by the disk (the failing fs stub, for a write that surely fails)', () => {
  it('is not played nor announced; once there is room it is, with no restart', async () => {
    stub.on = true;
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    expect(r.announced).toEqual(['h2e2']);
    stub.budget = 0;
    play(r, 'e2h2');
    r.clock.advance(3000);
    expect(r.announced).toEqual(['h2e2']);
    expect(r.session.view().moves).toEqual(['h2e2']);
    alertedEach(r);
    stub.budget = Number.POSITIVE_INFINITY;
    r.clock.advance(6000);
    expect(r.announced).toEqual([]);
    expect(r.session.view().moves).toEqual([]);
    const j = readJournal(r.session.journalPath!);
    expect(j.ok && j.value).toMatchObject({ moves: [], retractions: 1, warnings: [] });
    await restartHolds(r);
  });
});

describe('a move with a draw offer standing, refused by the disk (the failing fs stub)', () => {
  it('leaves the offer standing: it can still be accepted once the move is recorded', async () => {
    stub.on = true;
    const r = rig();
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    play(r, 'h9g7');
    expect(r.session.draw('offer', 'red').ok).toBe(true);
    stub.budget = 0;
    play(r, 'h0g2');
    expect(r.announced).toEqual(['h2e2', 'h9g7']);
    stub.budget = Number.POSITIVE_INFINITY;
    r.clock.advance(6000);
    expect(r.announced).toEqual(['h2e2', 'h9g7', 'h0g2']);
    const accepted = r.session.draw('accept', 'black');
    expect(accepted.ok && accepted.value).toMatchObject({ result: '1/2-1/2', reason: 'agreement' });
    await r.session.stop();
  });
});

describe('a move refused by the disk in a game with a clock (the failing fs stub)', () => {
  it("is recorded once there is room, at the time it is written (the game's time went on)", async () => {
    stub.on = true;
    const r = rig(new ManualClock(1_000_000), {
      clock: { periods: [{ minutes: 10, incrementSeconds: 0 }], repeatLast: false },
    });
    await r.session.start();
    r.clock.advance(100);
    play(r, 'h2e2');
    play(r, 'h9g7');
    stub.budget = 0;
    play(r, 'h0g2');
    r.clock.advance(3000); // the clock ticks on meanwhile
    expect(r.announced).toEqual(['h2e2', 'h9g7']);
    stub.budget = Number.POSITIVE_INFINITY;
    r.clock.advance(6000);
    expect(r.announced).toEqual(['h2e2', 'h9g7', 'h0g2']);
    expect(r.session.alerts().map((a) => a.kind)).not.toContain('move_rejected');
    await restartHolds(r);
  });
});

describe(`the archive's lock on a full disk (${MODE})`, () => {
  it('is refused with the reason, and no half-written lock is left to block the next start', () => {
    const disk = fill(5);
    const locked = lockArchive(dir);
    expect(locked).toMatchObject({
      ok: false,
      error: { code: 'lock_failed', message: expect.stringMatching(/ENOSPC/) },
    });
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    disk.free();
    const again = lockArchive(dir);
    expect(again.ok).toBe(true);
    if (again.ok) again.value.release();
  });
});

describe(`a write cut short (${MODE})`, () => {
  it('is cut back to the last whole record: the next one never lands on a damaged line', () => {
    const made = GameJournal.create(dir, { id: 'cut' });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    const journal = made.value;
    const move = { ply: 1, iccs: 'h2e2', t: 1000 };
    const moveBytes = Buffer.byteLength(encodeRecord({ type: 'move', ...move }));
    // Pad with a sensor record so that only 10 bytes are left in the file's last page.
    const size = statSync(journal.path).size;
    const overhead = Buffer.byteLength(encodeRecord({ type: 'sensor', lines: [''] }));
    const pad = 4096 - ((size + overhead) % 4096) - 10;
    expect(journal.appendSensorLines(['x'.repeat(pad)]).ok).toBe(true);
    const before = statSync(journal.path).size;
    expect(4096 - (before % 4096)).toBe(10);
    expect(moveBytes).toBeGreaterThan(10);
    const disk = fill(10);
    const refused = journal.appendMove(move);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toMatch(/ENOSPC.*cut short after 10 of \d+ bytes/);
    expect(statSync(journal.path).size).toBe(before);
    expect(journal.plies).toEqual([]);
    disk.free();
    expect(journal.appendMove(move).ok).toBe(true);
    expect(journal.appendMove({ ply: 2, iccs: 'h9g7', t: 2000 }).ok).toBe(true);
    journal.close();
    const read = readJournal(journal.path);
    expect(read.ok && read.value.warnings).toEqual([]);
    expect(read.ok && read.value.moves.map((m) => m.iccs)).toEqual(['h2e2', 'h9g7']);
  });

  it('a session on a disk that fills up mid-record keeps a clean journal', async () => {
    const { r, disk, k } = await fullAfter(1);
    // The journal's last page filled up in the middle of a record (a frame's or the move's).
    expect(r.logs.some((m) => /cut short after [1-9]\d* of/.test(m))).toBe(true);
    disk.free();
    r.clock.advance(6000);
    expect(r.announced).toEqual(LINE.slice(0, k + 1));
    await restartHolds(r);
  });
});
