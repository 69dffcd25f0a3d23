/** `xqboard convert` and `xqboard games`, run through the real command line entry. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { finishFromJournal } from '../../src/record/archive.js';
import { GameJournal } from '../../src/record/journal.js';
import { readPgn } from '../../src/record/pgn.js';
import { readShared, sharedPath } from '../helpers/shared.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'xqboard-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const movesOf = (text: string) =>
  readPgn(text).map((r) => (r.ok ? r.value.moves.map((m) => m.iccs) : r.error.code));

describe('xqboard convert', () => {
  it('converts the sample WXF file to ICCS: the same games as the ICCS file (but the known error)', async () => {
    const outFile = join(work, 'out.pgn');
    const r = await run('convert', sharedPath('data/games/sample15-wxf.pgn'), '--to', 'iccs', '-o', outFile);
    expect(r.code).toBe(0);
    expect(r.err).toContain('converted 15 game(s) to iccs');
    const text = readFileSync(outFile, 'utf8');
    expect(text.startsWith('[Game "Chinese Chess"]\n')).toBe(true);
    expect(text).toContain('[Format "ICCS"]');
    const got = movesOf(text);
    const expected = movesOf(readShared('data/games/sample15-iccs.pgn'));
    (expected[1] as string[])[70] = 'e3e4';
    expect(got).toEqual(expected);
  });

  it('reads a GB2312 file and writes Chinese to standard output', async () => {
    const file = join(work, 'gb.pgn');
    writeFileSync(
      file,
      iconv.encode('[Event "象棋比赛"]\n[Red "红方"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n', 'gb2312'),
    );
    const r = await run('convert', file, '--to', 'wxf', '--wxf-style', 'fullwidth');
    expect(r.code).toBe(0);
    expect(r.out).toContain('[Event "象棋比赛"]');
    expect(r.out).toContain('1. Ｃ２＝５ Ｈ８＋７ 2. Ｈ２＋３ *');
    expect(r.err).toContain('gb18030');
  });

  it('names the unreadable game and move, converts the rest, exits 2', async () => {
    const file = join(work, 'bad.pgn');
    writeFileSync(file, '[Red "A"]\n[Black "B"]\n\n1. h2e2 h9g7 2. C2.5 *\n\n[Red "C"]\n\n1. h2e2 *\n');
    const r = await run('convert', file, '--to', 'chinese');
    expect(r.code).toBe(2);
    expect(r.err).toContain("game 1 (A – B): ply 3 'C2.5'");
    expect(r.out).toContain('1. 炮二平五 *');
    expect((await run('convert', join(work, 'missing.pgn'))).code).toBe(2);
    expect((await run('convert', file, '--to', 'klingon')).code).toBe(2);
  });
});

describe('xqboard games', () => {
  let dir: string;
  beforeAll(() => {
    dir = join(work, 'archive');
    const a = GameJournal.create(dir, {
      id: '20261129-100000-aaaa',
      meta: { Red: 'Ann', Black: 'Bo', Event: 'Club' },
      now: new Date('2026-11-29T10:00:00Z'),
    });
    if (!a.ok) throw new Error(a.error.message);
    for (const [i, iccs] of ['h2e2', 'h9g7', 'h0g2', 'i9h9'].entries()) {
      a.value.appendMove({ ply: i + 1, iccs, t: 2000 * (i + 1) });
    }
    a.value.end({ result: '1-0', reason: 'resignation', t: 9000 });
    finishFromJournal(a.value, ['{"type":"header","version":1}']);
    a.value.close();
    const b = GameJournal.create(dir, { id: '20261129-110000-bbbb', meta: { Red: 'Cy', Black: 'Di' } });
    if (!b.ok) throw new Error(b.error.message);
    b.value.appendMove({ ply: 1, iccs: 'c3c4', t: 1000 });
    b.value.close();
  });

  it('lists the games with their status', async () => {
    const r = await run('games', 'list', '--dir', dir);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+RED\s+BLACK\s+RESULT\s+PLIES\s+STATUS$/);
    expect(lines[1]).toMatch(/^20261129-100000-aaaa\s+2026-11-29 10:00\s+Ann\s+Bo\s+1-0\s+4\s+archived$/);
    expect(lines[2]).toMatch(/^20261129-110000-bbbb .*Cy\s+Di\s+\*\s+1\s+playing$/);
    const json = (await run('games', 'list', '--dir', dir, '--json')).out
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(json.map((g) => g.status)).toEqual(['archived', 'playing']);
  });

  it('shows a game as a 9×10 board after a ply, last move in brackets', async () => {
    const r = await run('games', 'show', '20261129-10', '--dir', dir, '--ply', '1');
    expect(r.code).toBe(0);
    expect(r.out.split('\n').slice(3, 17)).toEqual([
      '    a b c d e f g h i',
      ' 9  r n b a k a b n r',
      ' 8  · · · · · · · · ·',
      ' 7  · c · · · · · c ·',
      ' 6  p · p · p · p · p',
      ' 5  · · · · · · · · ·',
      '   ~~~~~~~~~~~~~~~~~~~',
      ' 4  · · · · · · · · ·',
      ' 3  P · P · P · P · P',
      ' 2  · C · ·[C]· ·[·]·',
      ' 1  · · · · · · · · ·',
      ' 0  R N B A K A B N R',
      '    a b c d e f g h i',
      'after ply 1 of 4, black to move',
    ]);
    expect(r.out).toContain('1. 炮二平五  马８进７\n2. 马二进三  车９平８');
    expect((await run('games', 'show', '2026', '--dir', dir)).code).toBe(2);
    expect((await run('games', 'show', 'nope', '--dir', dir)).code).toBe(2);
  });

  it('exports PGN in any notation', async () => {
    const r = await run('games', 'export', '20261129-100000-aaaa', '--dir', dir, '--to', 'wxf');
    expect(r.code).toBe(0);
    expect(r.out).toContain('[Format "WXF"]');
    expect(r.out).toContain('[Termination "resignation"]');
    expect(r.out).toContain('1. C2.5 {[%emt 0:00:02]} H8+7 {[%emt 0:00:02]}');
    const all = await run('games', 'export', '--all', '--dir', dir);
    expect(movesOf(all.out)).toEqual([['h2e2', 'h9g7', 'h0g2', 'i9h9'], ['c3c4']]);
  });
});
