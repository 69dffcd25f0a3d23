/** The journal: durable appends, recovery of damaged files, resuming, finishing into PGN. */
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { archivePending, finishFromJournal, gameOfJournal } from '../../src/record/archive.js';
import { crc32, findUnfinished, GameJournal, listJournals, readJournal } from '../../src/record/journal.js';
import { parseGame } from '../../src/record/pgn.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

const OPENING = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7'];

function recordOpening(id = 'g1'): GameJournal {
  const j = must(
    GameJournal.create(dir, { id, meta: { Red: 'Ann', Black: 'Bo' }, now: new Date('2026-11-29T10:00:00Z') }),
  );
  for (const [i, iccs] of OPENING.entries()) must(j.appendMove({ ply: i + 1, iccs, t: 1000 * (i + 1) }));
  return j;
}

describe('journal', () => {
  it('crc32 is the standard one', () => {
    expect(crc32(Buffer.from('123456789')).toString(16)).toBe('cbf43926');
  });

  it('records moves and retractions; reading gives the moves that stand', () => {
    const j = recordOpening();
    must(j.appendRetract({ ply: 6, t: 6500 }));
    must(j.appendMove({ ply: 6, iccs: 'b9a7', t: 7000, clock: 590_000 }));
    const s = must(readJournal(j.path));
    expect(s.moves.map((m) => m.iccs)).toEqual([...OPENING.slice(0, 5), 'b9a7']);
    expect(s.moves[5]).toEqual({ ply: 6, iccs: 'b9a7', t: 7000, clock: 590_000 });
    expect(s.retractions).toBe(1);
    expect(s.start).toMatchObject({ id: 'g1', meta: { Red: 'Ann' }, startedAt: '2026-11-29T10:00:00.000Z' });
    expect(s.warnings).toEqual([]);
    expect(s.outcome).toBeUndefined();
    j.close();
  });

  it('refuses appends out of sequence, after the end, after close', () => {
    const j = recordOpening();
    expect(j.appendMove({ ply: 9, iccs: 'a0a1', t: 1 })).toMatchObject({
      ok: false,
      error: { code: 'journal_sequence' },
    });
    expect(j.appendRetract({ ply: 3, t: 1 })).toMatchObject({
      ok: false,
      error: { code: 'journal_sequence' },
    });
    must(j.end({ result: '1-0', reason: 'resignation', t: 9000 }));
    expect(j.appendMove({ ply: 7, iccs: 'a0a1', t: 1 })).toMatchObject({
      ok: false,
      error: { code: 'journal_sequence' },
    });
    expect(j.end({ result: '0-1', reason: null, t: 1 }).ok).toBe(false);
    j.close();
    expect(GameJournal.create(dir, { id: 'g1' })).toMatchObject({ ok: false, error: { code: 'journal_io' } });
    expect(GameJournal.create(dir, { id: '../escape' })).toMatchObject({
      ok: false,
      error: { code: 'journal_io' },
    });
  });

  it('a line cut short by a crash: recovered to the last whole record, with a warning', () => {
    const j = recordOpening();
    j.close();
    const full = readFileSync(j.path);
    truncateSync(j.path, full.length - 10);
    const s = must(readJournal(j.path));
    expect(s.moves.map((m) => m.iccs)).toEqual(OPENING.slice(0, 5));
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toContain('line 7 is cut short');
  });

  it('a damaged line in the middle: recovered up to it, the rest reported, not silently dropped', () => {
    const j = recordOpening();
    j.close();
    const lines = readFileSync(j.path, 'utf8').split('\n');
    lines[3] = lines[3]!.replace('h0g2', 'h0g3');
    writeFileSync(j.path, lines.join('\n'));
    const s = must(readJournal(j.path));
    expect(s.moves.map((m) => m.iccs)).toEqual(OPENING.slice(0, 2));
    expect(s.warnings[0]).toMatch(/line 4 is damaged .*recovered up to line 3, 4 line\(s\) set aside/);
  });

  it('resuming a damaged journal keeps the damaged tail aside and appends after the last whole record', () => {
    const j = recordOpening();
    j.close();
    appendFileSync(j.path, '{"type":"move","ply":7,"iccs":"c3');
    const { journal, state } = must(GameJournal.resume(j.path));
    expect(state.moves).toHaveLength(6);
    expect(state.warnings.join('\n')).toContain('damaged tail kept in g1.journal.jsonl.corrupt-1');
    expect(readFileSync(`${j.path}.corrupt-1`, 'utf8')).toBe('{"type":"move","ply":7,"iccs":"c3');
    must(journal.appendMove({ ply: 7, iccs: 'c3c4', t: 8000 }));
    journal.close();
    const again = must(readJournal(j.path));
    expect(again.warnings).toEqual([]);
    expect(again.moves.map((m) => m.iccs)).toEqual([...OPENING, 'c3c4']);
  });

  it('a journal without a readable start is an error, listed, never skipped', () => {
    recordOpening('good').close();
    writeFileSync(join(dir, 'bad.journal.jsonl'), 'garbage\n');
    const all = listJournals(dir);
    expect(all.map((r) => r.ok)).toEqual([false, true]);
    expect(all[0]).toMatchObject({ ok: false, error: { code: 'journal_unreadable' } });
  });

  it('finds unfinished games; finishing writes PGN and sensor log beside the journal', () => {
    const a = recordOpening('a');
    const b = recordOpening('b');
    expect(findUnfinished(dir).map((s) => s.start.id)).toEqual(['a', 'b']);
    must(b.end({ result: '0-1', reason: 'checkmate', t: 9000 }));
    const files = must(finishFromJournal(b, ['{"type":"header","version":1}', '{"t":0,"occ":"x"}']));
    b.close();
    a.close();
    expect(findUnfinished(dir).map((s) => s.start.id)).toEqual(['a']);
    expect(existsSync(files.pgn)).toBe(true);
    expect(readFileSync(files.sensorLog!, 'utf8')).toBe('{"type":"header","version":1}\n{"t":0,"occ":"x"}\n');
    const pgn = must(parseGame(readFileSync(files.pgn, 'utf8')));
    expect(pgn.moves.map((m) => m.iccs)).toEqual(OPENING);
    // No clock ran: the time the move took.
    expect(pgn.moves[0]?.emt).toBe(1000);
    expect(pgn.result).toBe('0-1');
    expect(pgn.tags).toMatchObject({ Red: 'Ann', Black: 'Bo', Date: '2026.11.29', Termination: 'checkmate' });
    const state = must(readJournal(join(dir, 'b.journal.jsonl')));
    expect(state.archived).toBe(true);
  });

  it('a journal holding an illegal move does not make a game', () => {
    const j = must(GameJournal.create(dir, { id: 'x' }));
    must(j.appendMove({ ply: 1, iccs: 'h2h9', t: 1 }));
    must(j.appendMove({ ply: 2, iccs: 'a0a5', t: 2 }));
    j.close();
    const g = gameOfJournal(must(readJournal(j.path)));
    expect(g).toMatchObject({ ok: false, error: { code: 'archive_game' } });
    if (!g.ok) expect(g.error.message).toContain("ply 2 'a0a5' is not a legal move");
  });

  it('a game that ended but was never archived (crash before the PGN) is finished on restart', () => {
    const j = recordOpening('ended');
    must(j.end({ result: '1/2-1/2', reason: 'repetition', t: 9000 }));
    j.close();
    recordOpening('playing').close();
    expect(existsSync(join(dir, 'ended.pgn'))).toBe(false);
    expect(must(archivePending(dir))).toEqual([
      `ended: PGN written to ${join(dir, 'ended.pgn')} (no sensor log)`,
    ]);
    const pgn = must(parseGame(readFileSync(join(dir, 'ended.pgn'), 'utf8')));
    expect(pgn.result).toBe('1/2-1/2');
    expect(pgn.moves.map((m) => m.iccs)).toEqual(OPENING);
    expect(must(readJournal(join(dir, 'ended.journal.jsonl'))).archived).toBe(true);
    expect(must(archivePending(dir))).toEqual([]);
    expect(existsSync(join(dir, 'playing.pgn'))).toBe(false);
  });

  it('can carry the sensor log itself; finishing writes it beside the journal', () => {
    const j = must(GameJournal.create(dir, { id: 's' }));
    must(j.appendSensorLines(['{"type":"header","version":1,"sensing":"occupancy"}', '{"t":0,"occ":"a"}']));
    must(j.appendSensorLines(['{"t":900,"occ":"b"}']));
    must(j.appendMove({ ply: 1, iccs: 'h2e2', t: 1000 }));
    must(j.end({ result: '*', reason: null, t: 2000 }));
    expect(must(readJournal(j.path)).sensorLog).toHaveLength(3);
    const files = must(finishFromJournal(j));
    j.close();
    expect(readFileSync(files.sensorLog!, 'utf8').split('\n')).toEqual([
      '{"type":"header","version":1,"sensing":"occupancy"}',
      '{"t":0,"occ":"a"}',
      '{"t":900,"occ":"b"}',
      '',
    ]);
  });
});
