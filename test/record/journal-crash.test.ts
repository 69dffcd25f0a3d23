/**
 * The archive never loses an announced move: a recording child process is killed with SIGKILL at
 * random moments of a game and restarted; after every kill the journal on disk holds every move
 * the child announced (it announces only after the append returned), at most one step ahead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/record/journal.js';
import { parseGame } from '../../src/record/pgn.js';
import { positionOf } from '../helpers/positions.js';

let work: string;
let script: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'xqboard-crash-'));
  script = join(work, 'recorder.mjs');
  buildSync({
    entryPoints: [fileURLToPath(new URL('./fixtures/recorder.ts', import.meta.url))],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  lines: string[];
  exit: Promise<number | null>;
  child: ChildProcess;
}

function start(dir: string, seed: number, plies: number): Run {
  const child = spawn(process.execPath, [script, dir, String(seed), String(plies)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    lines.push(...parts);
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      if (code !== 0 && code !== null) console.error(stderr);
      resolve(code);
    }),
  );
  return { lines, exit, child };
}

/** The moves standing after the announcements, in order. */
function announcedMoves(lines: readonly string[], moves: string[]): void {
  for (const line of lines) {
    const [word, ply, iccs] = line.split(' ');
    if (word === 'announced') {
      expect(Number(ply)).toBe(moves.length + 1);
      moves.push(iccs!);
    } else if (word === 'retracted') {
      expect(Number(ply)).toBe(moves.length);
      moves.pop();
    }
  }
}

/** The journal's last whole record (what `readJournal` read up to): its type and ply. */
function lastRecord(path: string, validBytes: number): { type: string; ply?: number } {
  const lines = readFileSync(path).subarray(0, validBytes).toString('utf8').split('\n');
  const line = lines.at(-2) ?? '';
  return JSON.parse(line.slice(0, line.lastIndexOf('\t'))) as { type: string; ply?: number };
}

describe('journal under SIGKILL', () => {
  it('no announced move is ever missing, over random kills until the game is finished', async () => {
    const dir = join(work, 'archive');
    const plies = 400;
    let random = 12345;
    const next = () => {
      random = (random * 1103515245 + 12345) % 2147483648;
      return random / 2147483648;
    };
    const announced: string[] = [];
    let kills = 0;
    for (let run = 0; run < 40; run++) {
      const r = start(dir, 1000 + run, plies);
      // Kill after a random number of announcements (few: a random game may end by mate early, and
      // at least five kills must happen before it does), or let it finish.
      const after = Math.floor(next() * 10);
      const killed = await new Promise<boolean>((resolve) => {
        const poll = setInterval(() => {
          const said = r.lines.filter((l) => l.startsWith('announced') || l.startsWith('retracted')).length;
          if (said >= after && run < 30) {
            clearInterval(poll);
            r.child.kill('SIGKILL');
            resolve(true);
          }
          if (r.lines.includes('finished')) {
            clearInterval(poll);
            resolve(false);
          }
        }, 1);
        // A child that exits on its own (finished, or failed) ends the wait too.
        void r.exit.then(() => {
          clearInterval(poll);
          resolve(false);
        });
      });
      await r.exit;
      announcedMoves(r.lines, announced);
      const journalPath = join(dir, 'game.journal.jsonl');
      const state = readJournal(journalPath);
      if (!state.ok) throw new Error(state.error.message);
      const onDisk = state.value.moves.map((m) => m.iccs);
      // Equal, or one step the child took but could not announce before it died: a move appended
      // (one more on disk), or a retraction appended (one fewer). One fewer with anything else as
      // the last record is a lost move.
      const last = lastRecord(journalPath, state.value.validBytes);
      const sameUpTo = (n: number) => onDisk.slice(0, n).join() === announced.slice(0, n).join();
      const ok =
        onDisk.join() === announced.join() ||
        (onDisk.length === announced.length + 1 &&
          sameUpTo(announced.length) &&
          last.type === 'move' &&
          last.ply === onDisk.length) ||
        (onDisk.length === announced.length - 1 &&
          sameUpTo(onDisk.length) &&
          last.type === 'retract' &&
          last.ply === announced.length);
      expect(
        ok,
        `run ${run}: announced ${announced.length}, on disk ${onDisk.length}, last record ${JSON.stringify(last)}`,
      ).toBe(true);
      // What is on disk is the truth the next run resumes from.
      announced.splice(0, announced.length, ...onDisk);
      // A child may finish just as it is killed: the game is over either way.
      if (r.lines.includes('finished')) {
        expect(r.lines.at(-1)).toBe('finished');
        break;
      }
      if (killed) kills++;
      else {
        throw new Error(`run ${run}: the recorder stopped without finishing: ${r.lines.at(-1)}`);
      }
    }
    expect(kills).toBeGreaterThanOrEqual(5);
    const state = readJournal(join(dir, 'game.journal.jsonl'));
    if (!state.ok) throw new Error(state.error.message);
    // The game reached its length, or (the kills change which random game is played) ended by
    // the rules first: then the position on disk has no legal move.
    const reason = state.value.outcome?.reason;
    expect(['move_limit', 'checkmate', 'stalemate']).toContain(reason);
    expect(state.value.archived).toBe(true);
    expect(state.value.warnings).toEqual([]);
    const pgn = parseGame(readFileSync(join(dir, 'game.pgn'), 'utf8'));
    if (!pgn.ok) throw new Error(pgn.error.message);
    expect(pgn.value.moves.map((m) => m.iccs)).toEqual(announced);
    if (reason === 'move_limit') expect(pgn.value.moves).toHaveLength(plies);
    else {
      const end = positionOf(pgn.value.fen);
      for (const m of pgn.value.moves) end.play(m.move);
      expect(end.hasLegalMove()).toBe(false);
    }
    expect(pgn.value.tags).toMatchObject({ Red: 'Random', Event: 'crash test', Termination: reason });
    // The sensor log the journal carried: the header, then a frame before each move that stands
    // or was taken back (a frame can also be left from a move that was never appended).
    const log = readFileSync(join(dir, 'game.sensor.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(log[0]!)).toMatchObject({ type: 'header', version: 1 });
    expect(log.length - 1).toBeGreaterThanOrEqual(pgn.value.moves.length);
    for (const line of log.slice(1)) expect(Object.keys(JSON.parse(line))).toEqual(['t', 'occ']);
  }, 60_000);
});
