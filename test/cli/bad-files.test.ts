/**
 * Bad files given to the real `xqboard` command: each is a clear error and exit status 2, never a
 * stack trace or a hang (every run has a time limit). And a journal someone else wrote badly does
 * not stop its board from starting.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { BusEvents } from '../../src/controller/bus.js';
import { encodeRecord, GameJournal } from '../../src/record/journal.js';
import { ROOT, xqboardHere } from '../helpers/cli.js';
import { sharedPath } from '../helpers/shared.js';
import { playMove, simSession } from '../helpers/sim-session.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'xqboard-bad-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The built command, killed after 20 s (a hang fails the test instead of stalling it). */
function xq(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/xqboard.js', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The same command's `main` in this process (no Node start and bundle load): for the files whose
 * command has a child-process case here already (`start` keeps all of its, as it would go on to
 * start a controller). A hang is the test's time limit, a stack trace an exception out of `main`.
 */
async function here(...args: string[]): Promise<ReturnType<typeof xq>> {
  const { status, stdout, stderr } = await xqboardHere(...args);
  return { status, signal: null, stdout, stderr };
}

/** Exit 2, the message asked for, and no stack trace. */
function refused(r: ReturnType<typeof xq>, message: RegExp): void {
  expect(r.signal, 'it hung').toBe(null);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.status).toBe(2);
}

const file = (name: string, text: string | Buffer): string => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

describe('bad files on the command line', () => {
  it('a } alone in a PGN is an error, not an endless loop', () => {
    const pgn = file('brace.pgn', '[Game "Chinese Chess"]\n\n1. h2e2 } h9g7\n');
    refused(xq('convert', pgn), /game 1: a \} closes no comment/);
  });

  it('a YAML alias bomb in a configuration is refused', () => {
    const lines = ['x-a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let k = 1; k < 9; k++) {
      const prev = String.fromCharCode(96 + k);
      const name = String.fromCharCode(97 + k);
      lines.push(`x-${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const bomb = file('bomb.yaml', `${lines.join('\n')}\n`);
    refused(xq('start', '--config', bomb), /bomb\.yaml: not a usable YAML document: .*alias/i);
  });

  it('convert on a directory is an error', async () => {
    refused(await here('convert', work), /cannot read .*: it is a directory/);
  });

  it('convert on a file that never ends (/dev/zero) is an error, memory bounded', async () => {
    refused(await here('convert', '/dev/zero'), /cannot read \/dev\/zero: a line longer than \d+ characters/);
  });

  it('convert -o to a path that cannot be written says so, and no success', async () => {
    const input = sharedPath('data/games/sample15-iccs.pgn');
    const missing = await here('convert', input, '-o', join(work, 'no', 'such', 'dir', 'out.pgn'));
    refused(missing, /cannot write .*out\.pgn: ENOENT/);
    expect(missing.stderr).not.toMatch(/converted/);
    // A device that is always full: the writes fail after the file opened.
    const full = await here('convert', input, '-o', '/dev/full');
    refused(full, /cannot write \/dev\/full: ENOSPC/);
    expect(full.stderr).not.toMatch(/converted \d+ game/);
  });

  it('games list names a journal whose start time is not a string, lists the others, exits 2', async () => {
    const dir = join(work, 'games-list');
    const good = GameJournal.create(dir, { id: 'good', meta: { Red: 'Ann', Black: 'Bo' } });
    expect(good.ok).toBe(true);
    if (good.ok) good.value.close();
    const start = { type: 'start', v: 1, id: 'bad', fen: 'x', meta: {}, startedAt: 12 };
    writeFileSync(join(dir, 'bad.journal.jsonl'), encodeRecord(start as never));
    const r = xq('games', 'list', '--dir', dir);
    refused(r, /bad\.journal\.jsonl: no readable start record .*start time/);
    expect(r.stdout).toMatch(/^good\s/m);
    const json = await here('games', 'list', '--dir', dir, '--json');
    expect(json.status).toBe(2);
    expect(json.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('timer values of 2^31 ms or more are refused (they would fire at once)', () => {
    const config = file('timer.yaml', 'tracker:\n  settleMs: 2147483648\n');
    refused(xq('start', '--config', config), /timer\.yaml:2: tracker\.settleMs: at most 2147483647 ms/);
    expect(parseConfig('tracker:\n  outOfSyncMs: 2147483647\n').ok).toBe(true);
    expect(parseConfig('boards:\n  - id: b\n    source: {driver: simulator, heartbeatMs: 1e12}\n').ok).toBe(
      false,
    );
  });

  it('--config /dev/zero is refused quickly (the size read is capped)', async () => {
    refused(xq('start', '--config', '/dev/zero'), /\/dev\/zero: not a configuration: more than \d+ bytes/);
    refused(xq('start', '--config', work), /cannot read the file/);
    refused(await here('replay', '/dev/zero'), /\/dev\/zero: not a sensor log: more than \d+ bytes/);
  });
});

describe('a journal written badly by someone else', () => {
  it('whose id is not a string does not stop its board from starting', async () => {
    const dir = join(work, 'bad-id');
    mkdirSync(dir, { recursive: true });
    const start = { type: 'start', v: 1, id: 42, fen: 'x', meta: { Board: 'board1' }, startedAt: 'now' };
    writeFileSync(join(dir, 'zzz.journal.jsonl'), encodeRecord(start as never));
    const { session, bus, clock, sim } = simSession(dir);
    const moves: string[] = [];
    bus.on('game.move', (e: BusEvents['game.move']) => moves.push(e.move.iccs));
    await session.start();
    clock.advance(100);
    expect(session.currentPhase).toBe('playing');
    playMove({ clock, sim }, 'h2e2');
    expect(moves).toEqual(['h2e2']);
    expect(
      readdirSync(dir)
        .filter((n) => n.endsWith('.journal.jsonl'))
        .sort(),
    ).toHaveLength(2);
    await session.stop();
  });
});
