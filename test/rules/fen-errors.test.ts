/** One hand-written FEN per error code: the code, and a message that says where the FEN is wrong. */
import { describe, expect, it } from 'vitest';
import { Position, parseFen } from '../../src/rules/index.js';

function errorOf(fen: string): { code: string; message: string } | undefined {
  const setup = parseFen(fen);
  if (!setup.ok) return setup.error;
  const pos = Position.fromSetup(setup.value);
  return pos.ok ? undefined : pos.error;
}

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR';

// [code, FEN, what the message must name]
const TABLE: [string, string, RegExp][] = [
  ['empty', '   ', /empty/],
  ['rows', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w', /9 rows, expected 10/],
  [
    'row_length',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/8/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    /row 6 \(rank 4\) '8' covers 8 files/,
  ],
  ['row_length', 'rnbakabnr/9/1c5c11/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w', /row 3 \(rank 7\)/],
  ['piece', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5Q1/9/RNBAKABNR w', /'Q' in row 8 \(rank 2\)/],
  ['turn', `${START} x`, /'x'/],
  ['counters', `${START} w - - x 1`, /halfmove clock 'x'/],
  ['counters', `${START} w - - 0 0`, /move number '0'/],
  ['counters', `${START} w - - 0 1 9`, /7 fields/],
  [
    'too_many',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w',
    /red has more than 2 chariots \(extra at a1\)/,
  ],
  [
    'too_many',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/p8/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    /black has more than 5 soldiers \(extra at i6\)/,
  ],
  [
    'too_many',
    'rnbakabnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    /black has more than 1 general \(extra at e9\)/,
  ],
  [
    'king_missing',
    'rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w',
    /black general is missing/,
  ],
  [
    'king_palace',
    'rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNk w',
    /black general on i0 is outside its palace/,
  ],
  [
    'king_palace',
    'rnbakabnr/3K5/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w',
    /red general on d8 is outside its palace/,
  ],
  [
    'advisor_point',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w',
    /red advisor on d1 is off/,
  ],
  [
    'elephant_point',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/2b6/P1P1P1P1P/1C5C1/9/RN1AKABNR w',
    /black elephant on c4 is off/,
  ],
  [
    'elephant_point',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w',
    /red elephant on c5 is off/,
  ],
  ['pawn_point', 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w', /red soldier on b3 stands/],
  [
    'pawn_point',
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/P8/RNBAKABN1 w',
    /red soldier on a1 stands/,
  ],
  ['kings_facing', '4k4/9/9/9/9/9/9/9/9/4K4 w', /e file \(e0 and e9\)/],
  ['opponent_in_check', '3k5/9/9/9/9/9/9/9/9/3RK4 w', /black general on d9 is in check but it is red's move/],
];

describe('FEN errors, one per code', () => {
  for (const [code, fen, names] of TABLE) {
    it(`${code}: ${fen}`, () => {
      const e = errorOf(fen);
      expect(e?.code).toBe(code);
      expect(e?.message).toMatch(names);
    });
  }

  it('covers every error code of parseFen and Position.fromSetup', () => {
    const codes = new Set(TABLE.map(([code]) => code));
    for (const code of ['empty', 'rows', 'row_length', 'piece', 'turn', 'counters'])
      expect(codes).toContain(code);
    for (const code of ['too_many', 'king_missing', 'king_palace', 'advisor_point', 'elephant_point']) {
      expect(codes).toContain(code);
    }
    for (const code of ['pawn_point', 'kings_facing', 'opponent_in_check']) expect(codes).toContain(code);
  });

  it('accepts the start position in every spelling', () => {
    for (const fen of [
      `${START} w - - 0 1`,
      `${START} r`,
      START,
      START.replace(/B/g, 'E').replace(/n/g, 'h'),
    ]) {
      expect(errorOf(fen)).toBeUndefined();
    }
  });
});
