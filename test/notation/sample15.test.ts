/**
 * The 15 master games of ../shared/data/games/sample15-{iccs,wxf,chinese}.pgn (wukong-xiangqi xqdb,
 * MIT) convert from each notation into the other two, token for token. The source has one known
 * error (data README): game 2, move 36 reads 后兵进一 / －Ｐ＋１ (the rear pawn, e3e4, also legal)
 * where the ICCS record says e5e6, the front pawn: 前兵进一 / ＋Ｐ＋１. The test asserts exactly that
 * discrepancy and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { likePiecesOnFile } from '../../src/notation/describe.js';
import {
  CHINESE_DEFAULT,
  makeMove,
  type NotationName,
  parseMove,
  WXF_FULL_WIDTH,
} from '../../src/notation/index.js';
import { makeIccs, makeSquareName, Position, parseSquare } from '../../src/rules/index.js';
import { readShared } from '../helpers/shared.js';

/** Move tokens of each game, as written. */
function gameTokens(text: string): string[][] {
  return text.split(/\n(?=\[Event )/).map((g) =>
    g
      .split('\n')
      .filter((l) => !l.startsWith('['))
      .join(' ')
      .split(/\s+/)
      .filter((t) => t !== '' && !/^\d+\.$/.test(t)),
  );
}

const FILES: Record<NotationName, string[][]> = {
  iccs: gameTokens(readShared('data/games/sample15-iccs.pgn')),
  wxf: gameTokens(readShared('data/games/sample15-wxf.pgn')),
  chinese: gameTokens(readShared('data/games/sample15-chinese.pgn')),
};
const STYLE = { wxf: WXF_FULL_WIDTH, chinese: CHINESE_DEFAULT };

/** The known source error: game 2 (index 1), ply 71 (Red's 36th move). */
const KNOWN = {
  game: 1,
  ply: 71,
  iccs: 'e5e6',
  wxf: ['－Ｐ＋１', '＋Ｐ＋１'],
  chinese: ['后兵进一', '前兵进一'],
};

interface Mismatch {
  game: number;
  ply: number;
  kind: 'read' | 'write';
  expected: string;
  got: string;
}

/**
 * Reads game `g` in `source` and writes it in `target`. Lists every move read differently from
 * the ICCS record ('read') and every written token that differs from the target file ('write').
 * Play always goes on with the ICCS record's move, the truth.
 */
function convert(g: number, source: NotationName, target: NotationName): Mismatch[] {
  const pos = Position.default();
  const out: Mismatch[] = [];
  const src = FILES[source][g]!;
  const dst = FILES[target][g]!;
  expect(src.length).toBe(dst.length);
  for (const [i, text] of src.entries()) {
    const truth = parseMove(pos, FILES.iccs[g]![i]!, 'iccs');
    if (!truth.ok) throw new Error(`game ${g + 1} ply ${i + 1}: ${truth.error.message}`);
    const parsed = parseMove(pos, text, source);
    const read = parsed.ok ? makeIccs(parsed.value) : parsed.error.code;
    if (read !== makeIccs(truth.value)) {
      out.push({ game: g, ply: i + 1, kind: 'read', expected: makeIccs(truth.value), got: read });
    }
    const written = makeMove(pos, truth.value, target, STYLE);
    if (written !== dst[i]) out.push({ game: g, ply: i + 1, kind: 'write', expected: dst[i]!, got: written });
    pos.play(truth.value);
  }
  return out;
}

describe('sample15: every game in every notation converts to the other two exactly', () => {
  it('has 15 games of equal length in the three files', () => {
    for (const n of ['iccs', 'wxf', 'chinese'] as const) expect(FILES[n]).toHaveLength(15);
    expect(FILES.iccs.map((g) => g.length)).toEqual(FILES.chinese.map((g) => g.length));
    expect(FILES.iccs.reduce((s, g) => s + g.length, 0)).toBe(1378);
  });

  const pairs: [NotationName, NotationName][] = [
    ['iccs', 'wxf'],
    ['iccs', 'chinese'],
    ['wxf', 'iccs'],
    ['wxf', 'chinese'],
    ['chinese', 'iccs'],
    ['chinese', 'wxf'],
  ];
  for (const [source, target] of pairs) {
    it(`${source} → ${target}`, () => {
      const mismatches = FILES.iccs.flatMap((_, g) => convert(g, source, target));
      const { game, ply } = KNOWN;
      const expected: Mismatch[] = [];
      // The wrong name reads as another legal move: the rear pawn, e3e4.
      if (source !== 'iccs') expected.push({ game, ply, kind: 'read', expected: KNOWN.iccs, got: 'e3e4' });
      // Written from the right move, the name differs from the file's wrong one.
      if (target !== 'iccs') {
        const [wrong, right] = target === 'wxf' ? KNOWN.wxf : KNOWN.chinese;
        expected.push({ game, ply, kind: 'write', expected: wrong!, got: right! });
      }
      expect(mismatches).toEqual(expected);
    });
  }

  it('the known error names the rear pawn (e3) where the front one (e5) moved', () => {
    const pos = Position.default();
    for (const t of FILES.iccs[KNOWN.game]!.slice(0, KNOWN.ply - 1)) {
      const m = parseMove(pos, t, 'iccs');
      if (!m.ok) throw new Error(m.error.message);
      pos.play(m.value);
    }
    expect(FILES.iccs[KNOWN.game]![KNOWN.ply - 1]).toBe(KNOWN.iccs);
    expect(FILES.chinese[KNOWN.game]![KNOWN.ply - 1]).toBe('后兵进一');
    expect(FILES.wxf[KNOWN.game]![KNOWN.ply - 1]).toBe('－Ｐ＋１');
    expect(likePiecesOnFile(pos, parseSquare('e5')!).map(makeSquareName)).toEqual(['e5', 'e3']);
    const iccs = (t: string) => {
      const m = parseMove(pos, t, 'chinese');
      return m.ok ? makeIccs(m.value) : m.error.code;
    };
    expect(iccs('后兵进一')).toBe('e3e4');
    expect(iccs('前兵进一')).toBe('e5e6');
  });
});
