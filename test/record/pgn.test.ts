/** PGN in the xqbase convention: tags, clocks, comments, set-up positions, errors, encodings. */
import { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText, detectEncoding } from '../../src/record/encoding.js';
import {
  displayWidth,
  formatClock,
  type PgnGame,
  parseGame,
  readPgn,
  writePgn,
} from '../../src/record/pgn.js';
import { readPgnStream } from '../../src/record/stream.js';
import { INITIAL_FEN } from '../../src/rules/index.js';
import { readShared } from '../helpers/shared.js';

const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

async function collect(bytes: Uint8Array, chunk: number): Promise<{ games: PgnGame[]; encodings: string[] }> {
  const pieces: Uint8Array[] = [];
  for (let k = 0; k < bytes.length; k += chunk) pieces.push(bytes.subarray(k, k + chunk));
  const encodings: string[] = [];
  const games: PgnGame[] = [];
  for await (const r of readPgnStream(Readable.from(pieces), (e) => encodings.push(e))) games.push(ok(r));
  return { games, encodings };
}

const CHINESE_GAME = `[Game "Chinese Chess"]
[Event "全国象棋个人赛"]
[Red "胡荣华"]
[Black "杨官璘"]
[Result "1-0"]

{开局} 1. 炮二平五 {[%clk 0:09:58] 中炮} 马８进７ {[%clk 0:09:50]}
2. 马二进三 (2. 兵七进一 卒７进１) 车９平８ $1 3. 车一平二 马２进３ 1-0
`;

describe('PGN reading', () => {
  it('reads tags, Chinese moves, comments, clocks; skips variations and NAGs', () => {
    const g = ok(parseGame(CHINESE_GAME));
    expect(g.tags).toEqual({ Event: '全国象棋个人赛', Red: '胡荣华', Black: '杨官璘' });
    expect(g.fen).toBe(INITIAL_FEN);
    expect(g.moves.map((m) => m.iccs)).toEqual(['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7']);
    expect(g.comment).toBe('开局');
    expect(g.moves[0]).toMatchObject({ comment: '中炮', clock: 598_000 });
    expect(g.moves[1]).toMatchObject({ clock: 590_000 });
    expect(g.moves[1]?.comment).toBeUndefined();
    expect(g.result).toBe('1-0');
  });

  it('reads all three sample files to the same games', () => {
    const [iccs, wxf, zh] = ['iccs', 'wxf', 'chinese'].map((n) =>
      readPgn(readShared(`data/games/sample15-${n}.pgn`)),
    );
    expect(iccs).toHaveLength(15);
    const moves = (rs: typeof iccs) =>
      rs!.map((r) => (r.ok ? r.value.moves.map((m) => m.iccs) : r.error.code));
    // Game 2 of the WXF and Chinese files carries the source's known error (see sample15.test.ts):
    // ply 71 names the rear pawn, e3e4, where the ICCS record has e5e6.
    const expected = moves(iccs);
    const known = [...(expected[1] as string[])];
    known[70] = 'e3e4';
    for (const other of [moves(wxf), moves(zh)]) {
      expect(other[1]).toEqual(known);
      expect(other.filter((_, i) => i !== 1)).toEqual(expected.filter((_, i) => i !== 1));
    }
  });

  it('an error names the game (index and tags) and the move (ply and text); other games still read', () => {
    const text = `[Event "A"]\n[Red "r1"]\n[Black "b1"]\n\n1. h2e2 h9g7\n\n[Event "Final"]\n[Red "Lü Qin"]\n[Black "Xu Tianhong"]\n[Date "2001.05.01"]\n\n1. C2.5 H8+7 2. R1+9 *\n\n[Event "C"]\n\n1. 炮二平五 *\n`;
    const rs = readPgn(text);
    expect(rs.map((r) => r.ok)).toEqual([true, false, true]);
    const e = rs[1]!;
    if (e.ok) throw new Error('expected an error');
    expect(e.error).toMatchObject({ code: 'pgn_move', game: 2, ply: 3, moveText: 'R1+9' });
    expect(e.error.tags).toMatchObject({ Red: 'Lü Qin', Event: 'Final' });
    expect(e.error.message).toBe(
      "game 2 (Lü Qin – Xu Tianhong, Final, 2001.05.01): ply 3 'R1+9': 'R1+9' names no legal move of red here",
    );
  });

  it('rejects a bad FEN tag, an unclosed comment, a move after the result', () => {
    const code = (t: string) => {
      const r = parseGame(t);
      return r.ok ? 'ok' : r.error.code;
    };
    expect(code('[FEN "rnbakabnr/9 w"]\n\n1. h2e2')).toBe('pgn_fen');
    expect(code('[FEN "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"]\n\n*')).toBe('pgn_fen');
    expect(code('[Event "x"]\n\n1. h2e2 {oops')).toBe('pgn_syntax');
    expect(code('1. h2e2 1-0 h9g7')).toBe('pgn_syntax');
  });

  it('a game from a set-up position with Black to move', () => {
    const fen = '3k5/9/9/9/9/9/R8/R8/9/4K4 b - - 0 30';
    const g = ok(parseGame(`[FEN "${fen}"]\n\n30... K4+1 31. R+.3 {[%clk 1:00:00]} *`));
    expect(g.moves.map((m) => m.iccs)).toEqual(['d9d8', 'a3g3']);
    const text = writePgn(g, { notation: 'wxf' });
    expect(text).toContain(`[FEN "${fen}"]`);
    expect(text).toContain('30... K4+1 31. R+.3 {[%clk 1:00:00]} *');
    expect(ok(parseGame(text))).toEqual(g);
  });
});

describe('PGN writing', () => {
  it('xqbase convention: Game first, Format for ICCS and WXF, none for Chinese; clocks and comments', () => {
    const g = ok(parseGame(CHINESE_GAME));
    const wxf = writePgn(g, { notation: 'wxf' });
    expect(wxf.split('\n').slice(0, 6)).toEqual([
      '[Game "Chinese Chess"]',
      '[Event "全国象棋个人赛"]',
      '[Red "胡荣华"]',
      '[Black "杨官璘"]',
      '[Result "1-0"]',
      '[Format "WXF"]',
    ]);
    expect(wxf).toContain('{开局} 1. C2.5 {[%clk 0:09:58] 中炮} H8+7 {[%clk 0:09:50]} 2. H2+3 R9.8');
    const zh = writePgn(g, { notation: 'chinese' });
    expect(zh).not.toContain('[Format');
    expect(zh).toContain('1. 炮二平五 {[%clk 0:09:58] 中炮} 马８进７');
    for (const notation of ['iccs', 'wxf', 'chinese'] as const) {
      expect(ok(parseGame(writePgn(g, { notation })))).toEqual(g);
    }
  });

  it('keeps lines within the width and quotes in tag values', () => {
    const g = ok(readPgn(readShared('data/games/sample15-iccs.pgn'))[0]!);
    const text = writePgn({ ...g, tags: { ...g.tags, Event: 'The "Cup"' } }, { notation: 'chinese' });
    expect(text).toContain('[Event "The \\"Cup\\""]');
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    expect(text).toMatch(/^1\. 炮二平五 /m);
    expect(text).not.toMatch(/\d\.$/m);
    expect(ok(parseGame(text)).tags.Event).toBe('The "Cup"');
  });

  it('formats clock times as h:mm:ss', () => {
    expect(formatClock(0)).toBe('0:00:00');
    expect(formatClock(65_999)).toBe('0:01:05');
    expect(formatClock(3_723_000)).toBe('1:02:03');
  });
});

describe('encodings and streaming', () => {
  const simplified = `${CHINESE_GAME}\n${CHINESE_GAME}`;
  const traditional = simplified
    .replace(/车/g, '車')
    .replace(/马/g, '馬')
    .replace(/进/g, '進')
    .replace(/全国/g, '全國')
    .replace(/开局/g, '開局')
    .replace(/个人赛/g, '個人賽')
    .replace(/荣华/g, '榮華')
    .replace(/杨官璘/g, '楊官璘');

  it('detects UTF-8, GB2312 and Big5 and decodes them', () => {
    const gb = iconv.encode(simplified, 'gb2312');
    const big5 = iconv.encode(traditional, 'big5');
    expect(detectEncoding(Buffer.from(simplified))).toBe('utf-8');
    expect(detectEncoding(gb)).toBe('gb18030');
    expect(detectEncoding(big5)).toBe('big5');
    expect(decodeText(gb).text).toBe(simplified);
    expect(decodeText(big5).text).toBe(traditional);
    expect(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(simplified)])).text).toBe(
      simplified,
    );
  });

  it('streams GB2312 and Big5 files in small chunks to the same games as UTF-8', async () => {
    const expected = readPgn(simplified).map(ok);
    const fromGb = await collect(iconv.encode(simplified, 'gb2312'), 7);
    expect(fromGb.encodings).toEqual(['gb18030']);
    expect(fromGb.games).toEqual(expected);
    const fromBig5 = await collect(iconv.encode(traditional, 'big5'), 5);
    expect(fromBig5.encodings).toEqual(['big5']);
    expect(fromBig5.games.map((g) => g.moves)).toEqual(expected.map((g) => g.moves));
    expect(fromBig5.games[0]?.tags.Red).toBe('胡榮華');
  });

  it('the stream reader gives what the whole-text reader gives, for any chunk size', async () => {
    const text = readShared('data/games/sample15-chinese.pgn');
    const whole = readPgn(text);
    for (const size of [1, 13, 4096, 1 << 20]) {
      const pieces: Uint8Array[] = [];
      const bytes = Buffer.from(text);
      for (let k = 0; k < bytes.length; k += size) pieces.push(bytes.subarray(k, k + size));
      const streamed = [];
      for await (const r of readPgnStream(Readable.from(pieces))) streamed.push(r);
      expect(streamed).toEqual(whole);
    }
  });
});
