/**
 * explainIllegal: every reason with a position where it applies and a near miss that is legal, and
 * over random positions, agreement with the move generator and the first-principles oracle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attackersOf,
  explainIllegal,
  generalsFacing,
  legalTargets,
  type Move,
  makeIccs,
  parseIccs,
  parseSquare,
} from '../../src/rules/index.js';
import { reaches, generalsFacing as slowFacing } from './slow-rules.js';
import { fenOf, load, PERFT_CASES, randomGame, randomPlacement, rng } from './support.js';

const START = PERFT_CASES[0]!.fen;

function move(iccs: string): Move {
  const m = parseIccs(iccs);
  if (!m.ok) throw new Error(m.error.message);
  return m.value;
}

// [code, FEN, illegal move, what the message says, a legal near miss in the same position]
const CASES: [string, string, string, RegExp, string][] = [
  ['no_piece', START, 'b3b4', /^there is no piece on b3$/, 'c3c4'],
  ['wrong_side', START, 'b7e7', /^the cannon on b7 is black's and it is red's turn$/, 'b2e2'],
  ['own_piece', START, 'a0b0', /^the chariot on a0 cannot go to b0: the horse there is red's own$/, 'a0a1'],
  [
    'palace',
    '4k4/9/9/9/9/9/9/9/9/3K5 w',
    'd0c0',
    /^the general on d0 cannot leave the palace for c0$/,
    'd0d1',
  ],
  [
    'palace',
    '3k5/9/9/9/9/9/9/9/9/3AK4 w',
    'd0c1',
    /^the advisor on d0 cannot leave the palace for c1$/,
    'd0e1',
  ],
  [
    'advisor_diagonal',
    '3k5/9/9/9/9/9/9/9/9/3AK4 w',
    'd0d1',
    /advisor on d0 moves one point diagonally, not to d1/,
    'd0e1',
  ],
  [
    'general_step',
    '3k5/9/9/9/9/9/9/9/9/4K4 w',
    'e0e2',
    /general on e0 moves one point along a line, not to e2/,
    'e0e1',
  ],
  ['general_step', '3k5/9/9/9/9/9/9/9/9/4K4 w', 'e0d1', /not to d1/, 'e0f0'],
  [
    'elephant_eye',
    '3k5/9/9/9/9/9/9/9/3N5/2B1K4 w',
    'c0e2',
    /^the elephant on c0 is blocked at d1 \(the elephant's eye\)$/,
    'c0a2',
  ],
  [
    'elephant_river',
    '3k5/9/9/9/9/2B6/9/9/9/4K4 w',
    'c4e6',
    /^the elephant on c4 cannot cross the river to e6$/,
    'c4e2',
  ],
  [
    'elephant_shape',
    '3k5/9/9/9/9/2B6/9/9/9/4K4 w',
    'c4c2',
    /elephant on c4 moves two points diagonally, not to c2/,
    'c4a2',
  ],
  [
    'horse_leg',
    '3k5/9/9/9/9/9/9/9/1R7/1N2K4 w',
    'b0c2',
    /^the horse on b0 is blocked at b1 \(hobbled leg\)$/,
    'b0d1',
  ],
  ['horse_leg', '3k5/9/9/9/9/9/9/9/1R7/1N2K4 w', 'b0a2', /blocked at b1/, 'b0d1'],
  [
    'horse_shape',
    '3k5/9/9/9/9/9/9/9/1R7/1N2K4 w',
    'b0b2',
    /horse on b0 moves one point straight then one diagonally/,
    'b0d1',
  ],
  [
    'path_blocked',
    '3k5/9/9/9/9/9/P8/9/9/R3K4 w',
    'a0a5',
    /^the chariot on a0 is blocked at a3 on its way to a5$/,
    'a0a2',
  ],
  [
    'path_blocked',
    '3k5/9/9/9/9/1N7/9/1C7/9/4K4 w',
    'b2b6',
    /^the cannon on b2 is blocked at b4 on its way to b6$/,
    'b2b3',
  ],
  [
    'cannon_screen',
    '3k5/9/1r7/9/9/9/9/1C7/9/4K4 w',
    'b2b7',
    /exactly one piece; there is none between b2 and b7/,
    'b2b6',
  ],
  ['cannon_screen', '3k5/9/1r7/9/1N7/1N7/9/1C7/9/4K4 w', 'b2b7', /there are 2 between b2 and b7/, 'b2b3'],
  [
    'not_straight',
    '3k5/9/9/9/9/9/P8/9/9/R3K4 w',
    'a0b1',
    /chariot on a0 moves along a file or a rank, not to b1/,
    'a0a1',
  ],
  [
    'soldier_backward',
    '3k5/9/9/9/4P4/9/P8/9/9/4K4 w',
    'e5e4',
    /^the soldier on e5 never moves back \(to e4\)$/,
    'e5e6',
  ],
  ['soldier_backward', '3k5/9/9/9/9/4p4/9/9/9/4K4 b', 'e4e5', /soldier on e4 never moves back/, 'e4e3'],
  [
    'soldier_sideways_before_river',
    '3k5/9/9/9/4P4/9/P8/9/9/4K4 w',
    'a3b3',
    /^the soldier on a3 cannot move sideways to b3 before it has crossed the river$/,
    'e5d5',
  ],
  [
    'soldier_step',
    '3k5/9/9/9/4P4/9/P8/9/9/4K4 w',
    'a3a5',
    /soldier on a3 moves one point forward, not to a5/,
    'a3a4',
  ],
  [
    'soldier_step',
    '3k5/9/9/9/4P4/9/P8/9/9/4K4 w',
    'e5f6',
    /moves one point forward or sideways, not to f6/,
    'e5f5',
  ],
  ['soldier_step', '3k5/9/9/9/4P4/9/P8/9/9/4K4 w', 'e5c5', /not to c5/, 'e5e6'],
  [
    'leaves_check',
    '3k5/4r4/9/9/9/9/9/9/9/R3K4 w',
    'a0a1',
    /^red is in check and a0a1 does not answer it: the general on e0 would still be attacked by the chariot on e8$/,
    'e0f0',
  ],
  [
    'leaves_check',
    '5k3/4r4/9/9/9/9/9/9/4N4/R3K4 w',
    'e1c2',
    /^e1c2 would leave the red general on e0 attacked by the chariot on e8$/,
    'a0a1',
  ],
  [
    'leaves_check',
    '5k3/4r4/9/9/9/9/9/9/9/3K5 w',
    'd0e0',
    /would leave the red general on e0 attacked by the chariot on e8/,
    'd0d1',
  ],
  [
    'generals_facing',
    '4k4/9/9/9/4N4/9/9/9/9/4K4 w',
    'e5c6',
    /^e5c6 would leave the generals facing each other on the open e file$/,
    'e0e1',
  ],
  ['generals_facing', '4k4/9/9/9/9/9/9/9/9/3K5 w', 'd0e0', /facing each other on the open e file/, 'd0d1'],
];

describe('explainIllegal: every reason, with a legal near miss', () => {
  for (const [code, fen, illegal, message, nearMiss] of CASES) {
    it(`${code}: ${illegal} in ${fen}`, () => {
      const pos = load(fen);
      expect(pos.isLegal(move(illegal))).toBe(false);
      const reason = explainIllegal(pos, move(illegal));
      expect(reason?.code).toBe(code);
      expect(reason?.message).toMatch(message);
      expect(reason?.move).toEqual(move(illegal));
      expect(pos.isLegal(move(nearMiss))).toBe(true);
      expect(explainIllegal(pos, move(nearMiss))).toBeUndefined();
      expect(fenOf(pos)).toBe(fenOf(load(fen))); // nothing was played on the caller's position
    });
  }

  it('covers every reason code', () => {
    const codes = new Set(CASES.map(([code]) => code));
    expect([...codes].sort()).toEqual(
      [
        ...[
          'no_piece',
          'wrong_side',
          'own_piece',
          'palace',
          'advisor_diagonal',
          'general_step',
          'elephant_eye',
        ],
        ...['elephant_river', 'elephant_shape', 'horse_leg', 'horse_shape', 'path_blocked', 'cannon_screen'],
        ...[
          'not_straight',
          'soldier_backward',
          'soldier_sideways_before_river',
          'soldier_step',
          'leaves_check',
        ],
        'generals_facing',
      ].sort(),
    );
  });

  it('points at the square the reason is about (eye, leg, blocker, attacker, facing general)', () => {
    const at = (fen: string, iccs: string) => explainIllegal(load(fen), move(iccs))?.square;
    expect(at('3k5/9/9/9/9/9/9/9/3N5/2B1K4 w', 'c0e2')).toBe(parseSquare('d1'));
    expect(at('3k5/9/9/9/9/9/9/9/1R7/1N2K4 w', 'b0c2')).toBe(parseSquare('b1'));
    expect(at('3k5/9/9/9/9/9/P8/9/9/R3K4 w', 'a0a5')).toBe(parseSquare('a3'));
    expect(at('5k3/4r4/9/9/9/9/9/9/4N4/R3K4 w', 'e1c2')).toBe(parseSquare('e8'));
    expect(at('4k4/9/9/9/4N4/9/9/9/9/4K4 w', 'e5c6')).toBe(parseSquare('e9'));
    expect(explainIllegal(load(START), move('b0b2'))?.piece).toEqual({ color: 'red', role: 'horse' });
  });

  it('answers a move to the same point or off the board with the piece rule, never an exception', () => {
    const pos = load(START);
    expect(explainIllegal(pos, { from: parseSquare('b0')!, to: parseSquare('b0')! })?.code).toBe(
      'horse_shape',
    );
    expect(explainIllegal(pos, { from: parseSquare('a0')!, to: 95 })?.code).toBe('not_straight');
    expect(explainIllegal(pos, { from: -1, to: 3 })?.code).toBe('no_piece');
  });

  it('legalTargets lists the points a piece may go to', () => {
    const pos = load(START);
    expect(
      legalTargets(pos, parseSquare('b0')!).map((sq) => makeIccs({ from: sq, to: sq }).slice(2)),
    ).toEqual(['a2', 'c2']);
    expect(legalTargets(pos, parseSquare('e5')!)).toEqual([]);
    expect(legalTargets(pos, parseSquare('b9')!)).toEqual([]);
    expect(legalTargets(pos, 200)).toEqual([]);
  });
});

const positionFen = fc.oneof(
  fc
    .record({
      seed: fc.integer(),
      plies: fc.nat({ max: 120 }),
      start: fc.constantFrom(...PERFT_CASES.map((c) => c.fen)),
    })
    .map(({ seed, plies, start }) => {
      let fen = start;
      randomGame(load(start), rng(seed), plies, (pos) => {
        fen = fenOf(pos);
      });
      return fen;
    }),
  fc.integer().map((seed) => fenOf(randomPlacement(rng(seed)))),
);

const KING_SAFETY = new Set(['leaves_check', 'generals_facing']);

describe('explainIllegal over random positions', () => {
  it('is undefined exactly for the legal moves, and blames the piece rule exactly when the oracle does', () => {
    fc.assert(
      fc.property(positionFen, (fen) => {
        const pos = load(fen);
        const board = pos.toSetup().board;
        const legal = new Set(pos.legalMoves().map((m) => m.from * 90 + m.to));
        // Each of the ~2,800 moves is checked by hand and what is wrong collected: one `expect` a
        // position (an `expect` per check was most of this file's CPU time).
        const wrong: string[] = [];
        for (let from = 0; from < 90; from++) {
          const piece = board[from];
          if (!piece) continue;
          for (let to = 0; to < 90; to++) {
            if (to === from) continue;
            const reason = explainIllegal(pos, { from, to });
            const where = `${fen} ${makeIccs({ from, to })}: ${reason?.code}`;
            if ((reason === undefined) !== legal.has(from * 90 + to))
              wrong.push(`${where}: legal is ${!reason}`);
            if (!reason) continue;
            if (reason.message.length <= 10) wrong.push(`${where}: message '${reason.message}' too short`);
            if (piece.color !== pos.turn) {
              if (reason.code !== 'wrong_side') wrong.push(`${where}: not wrong_side`);
            } else if (board[to]?.color === piece.color) {
              if (reason.code !== 'own_piece') wrong.push(`${where}: not own_piece`);
            } else if (KING_SAFETY.has(reason.code) !== reaches(board, from, to)) {
              // The piece may go there by its own rule exactly when the reason is its general's safety.
              wrong.push(`${where}: reaches by its own rule is ${reaches(board, from, to)}`);
            }
          }
        }
        expect(wrong).toEqual([]);
        expect(fenOf(pos)).toBe(fen);
      }),
      { numRuns: 120 },
    );
  });

  it('attackersOf names exactly the pieces whose own movement reaches an occupied point', () => {
    fc.assert(
      fc.property(positionFen, (fen) => {
        const board = load(fen).toSetup().board;
        expect(generalsFacing(board)).toBe(slowFacing(board));
        for (let target = 0; target < 90; target++) {
          if (!board[target]) continue;
          for (const by of ['red', 'black'] as const) {
            const expected: number[] = [];
            for (let sq = 0; sq < 90; sq++)
              if (board[sq]?.color === by && reaches(board, sq, target)) expected.push(sq);
            expect(attackersOf(board, target, by), `${fen} ${target} ${by}`).toEqual(expected);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
