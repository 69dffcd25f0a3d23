/** WXF and Chinese notation: the disambiguation rules of wxf.org and what real files contain. */
import { describe, expect, it } from 'vitest';
import { makeChinese, makeWxf, notationOf, parseMoveAny, WXF_FULL_WIDTH } from '../../src/notation/index.js';
import { makeIccs, type Position, parseIccs } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';

const position = positionOf;

const move = (iccs: string) => {
  const m = parseIccs(iccs);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
};

/** Both notations of a move, and both read back to it. */
function names(pos: Position, iccs: string): [string, string] {
  const m = move(iccs);
  expect(pos.isLegal(m)).toBe(true);
  const wxf = makeWxf(pos, m)!;
  const zh = makeChinese(pos, m)!;
  for (const text of [wxf, zh, makeWxf(pos, m, WXF_FULL_WIDTH)!]) {
    const back = parseMoveAny(pos, text);
    expect(back.ok && makeIccs(back.value), text).toBe(iccs);
  }
  return [wxf, zh];
}

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

describe('generation', () => {
  it('names opening moves of both sides', () => {
    const pos = position(START);
    expect(names(pos, 'h2e2')).toEqual(['C2.5', '炮二平五']);
    expect(names(pos, 'h0g2')).toEqual(['H2+3', '马二进三']);
    expect(names(pos, 'c0e2')).toEqual(['E7+5', '相七进五']);
    expect(names(pos, 'f0e1')).toEqual(['A4+5', '仕四进五']);
    expect(names(pos, 'b2b9')).toEqual(['C8+7', '炮八进七']);
    expect(names(pos, 'e0e1')).toEqual(['K5+1', '帅五进一']);
    pos.play(move('h2e2'));
    // Black counts files from its own right: file a is Black's 1.
    expect(names(pos, 'h9g7')).toEqual(['H8+7', '马８进７']);
    expect(names(pos, 'b7e7')).toEqual(['C2.5', '炮２平５']);
    expect(names(pos, 'a6a5')).toEqual(['P1+1', '卒１进１']);
  });

  it('two like pieces on a file: + and - replace the file (R+.3, 前车进一)', () => {
    const pos = position('3k5/9/9/9/9/9/R8/R8/9/4K4 w - - 0 1');
    expect(names(pos, 'a3a4')).toEqual(['R++1', '前车进一']);
    expect(names(pos, 'a3g3')).toEqual(['R+.3', '前车平三']);
    expect(names(pos, 'a2a1')).toEqual(['R--1', '后车退一']);
    const black = position('3k5/9/1c7/9/1c7/9/9/9/9/4K4 b - - 0 1');
    // Black's front is towards rank 0: b5 is in front of b7.
    expect(names(black, 'b5b4')).toEqual(['C++1', '前炮进１']);
    expect(names(black, 'b7a7')).toEqual(['C-.1', '后炮平１']);
    const horses = position('3k5/9/9/9/9/9/2N6/9/2N6/4K4 w - - 0 1');
    expect(names(horses, 'c3d5')).toEqual(['H++6', '前马进六']);
    expect(names(horses, 'c1d3')).toEqual(['H-+6', '后马进六']);
  });

  it('advisors and elephants are never told apart', () => {
    const pos = position('3k5/9/9/9/9/2B6/9/5A3/9/2B1KA3 w - - 0 1');
    expect(names(pos, 'c4e2')).toEqual(['E7-5', '相七退五']);
    expect(names(pos, 'c0e2')).toEqual(['E7+5', '相七进五']);
    expect(names(pos, 'c0a2')).toEqual(['E7+9', '相七进九']);
    expect(names(pos, 'f0e1')).toEqual(['A4+5', '仕四进五']);
    expect(names(pos, 'f2e1')).toEqual(['A4-5', '仕四退五']);
  });

  it('three pawns on a file: +, the plain file for the middle one, - (前中后)', () => {
    const pos = position('3k5/4P4/4P4/4P4/9/9/9/9/9/5K3 w - - 0 1');
    expect(names(pos, 'e8d8')).toEqual(['P+.6', '前兵平六']);
    expect(names(pos, 'e7d7')).toEqual(['P5.6', '中兵平六']);
    expect(names(pos, 'e6f6')).toEqual(['P-.4', '后兵平四']);
  });

  it('four and five pawns on a file: ++, +, (middle), -, -- (一二三四五)', () => {
    const four = position('3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1');
    expect(names(four, 'e8d8')).toEqual(['++.6', '一兵平六']);
    expect(names(four, 'e7d7')).toEqual(['P+.6', '二兵平六']);
    expect(names(four, 'e6d6')).toEqual(['P-.6', '三兵平六']);
    expect(names(four, 'e5d5')).toEqual(['--.6', '四兵平六']);
    const five = position('2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1');
    expect(names(five, 'c9d9')).toEqual(['++.6', '一兵平六']);
    expect(names(five, 'c8b8')).toEqual(['P+.8', '二兵平八']);
    expect(names(five, 'c7d7')).toEqual(['P7.6', '三兵平六']);
    expect(names(five, 'c6d6')).toEqual(['P-.6', '四兵平六']);
    expect(names(five, 'c5b5')).toEqual(['--.8', '五兵平八']);
  });

  it('pawns stacked on two files: the file digit first (3+.4, 33.4), 前七 / 中三 in Chinese', () => {
    // Red pawns: three on file 5 (e), two on file 7 (c).
    const pos = position('3k5/2P1P4/2P1P4/4P4/9/9/9/9/9/5K3 w - - 0 1');
    expect(names(pos, 'e8d8')).toEqual(['5+.6', '前五平六']);
    expect(names(pos, 'e7d7')).toEqual(['55.6', '中五平六']);
    expect(names(pos, 'e6f6')).toEqual(['5-.4', '后五平四']);
    expect(names(pos, 'c8c9')).toEqual(['7++1', '前七进一']);
    expect(names(pos, 'c7b7')).toEqual(['7-.8', '后七平八']);
    const black = position('5k3/9/9/9/9/4p4/4p1p2/4p1p2/9/3K5 b - - 0 1');
    expect(names(black, 'e2d2')).toEqual(['5+.4', '前５平４']);
    expect(names(black, 'e3f3')).toEqual(['55.6', '中５平６']);
    expect(names(black, 'g3h3')).toEqual(['7-.8', '后７平８']);
  });

  it('full-width style as the xqdb files print it', () => {
    const pos = position('3k5/9/9/9/9/9/R8/R8/9/4K4 w - - 0 1');
    expect(makeWxf(pos, move('a3g3'), WXF_FULL_WIDTH)).toBe('＋Ｒ＝３');
    expect(makeWxf(position(START), move('h2e2'), WXF_FULL_WIDTH)).toBe('Ｃ２＝５');
  });
});

describe('reading what real files contain', () => {
  const iccsOf = (pos: Position, text: string): string => {
    const r = parseMoveAny(pos, text);
    return r.ok ? makeIccs(r.value) : r.error.code;
  };

  it('ICCS with or without a dash, any case, any width', () => {
    const pos = position(START);
    for (const t of ['h2e2', 'H2-E2', 'h2-e2', 'Ｈ２－Ｅ２']) expect(iccsOf(pos, t), t).toBe('h2e2');
    expect(iccsOf(pos, 'h2h8')).toBe('no_such_move');
  });

  it('WXF: . or =, full width, B/N for E/H, lower case, sign before or after the letter, check marks', () => {
    const pos = position(START);
    for (const t of ['C2.5', 'C2=5', 'Ｃ２＝５', 'c2.5', 'C2.5+']) expect(iccsOf(pos, t), t).toBe('h2e2');
    expect(iccsOf(pos, 'N2+3')).toBe('h0g2');
    expect(iccsOf(pos, 'B3+5')).toBe('g0e2');
    const rooks = position('3k5/9/9/9/9/9/R8/R8/9/4K4 w - - 0 1');
    for (const t of ['R+.3', '+R.3', '+R=3', '＋Ｒ＝３']) expect(iccsOf(rooks, t), t).toBe('a3g3');
    expect(iccsOf(rooks, '-R-1')).toBe('a2a1');
  });

  it('Chinese: traditional characters, digits of either width for either side', () => {
    const pos = position(START);
    for (const t of ['炮二平五', '砲二平五', '炮2平5', '炮２平５']) expect(iccsOf(pos, t), t).toBe('h2e2');
    expect(iccsOf(pos, '傌二進三')).toBe('h0g2');
    expect(iccsOf(pos, '俥一進一')).toBe('i0i1');
    expect(iccsOf(pos, '帥五進一')).toBe('e0e1');
    pos.play(move('h2e2'));
    for (const t of ['馬８進７', '马8进7', '馬八進七']) expect(iccsOf(pos, t), t).toBe('h9g7');
    expect(iccsOf(pos, '包８平５')).toBe('h7e7');
    expect(iccsOf(pos, '將５進１')).toBe('e9e8');
    const rooks = position('3k5/9/9/9/9/9/R8/R8/9/4K4 w - - 0 1');
    for (const t of ['前车进一', '前車進一', '车前进一']) expect(iccsOf(rooks, t), t).toBe('a3a4');
    expect(iccsOf(rooks, '後俥退一')).toBe('a2a1');
  });

  it('tells the notation from the text', () => {
    expect(notationOf('h2e2')).toBe('iccs');
    expect(notationOf('H2-E2')).toBe('iccs');
    expect(notationOf('C2.5')).toBe('wxf');
    expect(notationOf('炮二平五')).toBe('chinese');
  });

  it('errors are values with a code, naming the text', () => {
    const pos = position(START);
    const cases: [string, string][] = [
      ['C2.0', 'notation_syntax'],
      ['X2.5', 'notation_syntax'],
      ['炮二走五', 'notation_syntax'],
      ['', 'notation_syntax'],
      ['C2+9', 'no_such_move'],
      ['R1.2', 'no_such_move'],
      ['前炮平五', 'no_such_move'],
      ['h2h2', 'notation_syntax'],
    ];
    for (const [text, code] of cases) {
      const r = parseMoveAny(pos, text);
      expect(r.ok, text).toBe(false);
      if (!r.ok) {
        expect(r.error.code, text).toBe(code);
        expect(r.error.text).toBe(text);
        expect(r.error.message).toContain(`'${text}'`);
      }
    }
  });

  it('a name that fits two legal moves is ambiguous', () => {
    // Two red pawns on file e and two on file c: P+.6 could be the front pawn of either file.
    const pos = position('3k5/9/2P1P4/2P1P4/9/9/9/9/9/5K3 w - - 0 1');
    const r = parseMoveAny(pos, 'P+.6');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('ambiguous');
    expect(iccsOf(pos, '5+.6')).toBe('e7d7');
  });
});
