/**
 * Property tests (fast-check) of the rules core against the slow first-principles oracle of
 * slow-rules.ts and of the fast move generator against the readable attack module (attacks.ts): FEN
 * round trips, every generated move legal and every legal move generated, and bad FENs answered
 * with their error code, never an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  attackersTo,
  attacksFrom,
  boardsEqual,
  type Color,
  generalOf,
  generalsFacing,
  makeBoardFen,
  makeFen,
  makeIccs,
  type Piece,
  type Board as PlainBoard,
  Position,
  parseFen,
  type Role,
  type Square,
  squaresOf,
} from '../../src/rules/index.js';
import { attackedBy, exposesGeneral, generalSquare, slowLegalMoves } from './slow-rules.js';
import {
  allowedSquares,
  fenOf,
  load,
  PERFT_CASES,
  pick,
  randomGame,
  randomPlacement,
  rng,
} from './support.js';

const START_FENS = PERFT_CASES.map((c) => c.fen);

/** The describe blocks, each given how many runs a property gets at this scale. */
const SUITES: ((runs: (n: number) => number) => void)[] = [];

/**
 * Registers the properties with `scale` times their full number of runs: the unit project's
 * properties.test.ts runs a quarter, the oracle project's properties-long.test.ts all of them.
 */
export function propertiesOfTheRules(scale: number): void {
  const runs = (n: number): number => Math.max(25, Math.round(n * scale));
  for (const suite of SUITES) suite(runs);
}

/** FENs of positions reached by seeded random play from the FENs of perft.json. */
const gameFen = fc
  .record({ start: fc.constantFrom(...START_FENS), seed: fc.integer(), plies: fc.nat({ max: 160 }) })
  .map(({ start, seed, plies }) => {
    let fen = start;
    randomGame(load(start), rng(seed), plies, (pos) => {
      fen = fenOf(pos);
    });
    return fen;
  });
/** FENs of random legal placements: generals anywhere in their palaces, soldiers on any of their points. */
const placementFen = fc.integer().map((seed) => fenOf(randomPlacement(rng(seed))));
const positionFen = fc.oneof(gameFen, placementFen);

const other = (c: Color): Color => (c === 'red' ? 'black' : 'red');

SUITES.push((runs) =>
  describe('FEN round trip', () => {
    it('parseFen → fromSetup → makeFen → parseFen gives the same setup', () => {
      fc.assert(
        fc.property(
          positionFen,
          fc.nat({ max: 200 }),
          fc.integer({ min: 1, max: 999 }),
          (fen, half, full) => {
            const withCounters = fen.replace(/ \d+ \d+$/, ` ${half} ${full}`);
            const first = parseFen(withCounters);
            expect(first.ok).toBe(true);
            if (!first.ok) return;
            const pos = Position.fromSetup(first.value);
            expect(pos.ok).toBe(true);
            if (!pos.ok) return;
            const out = makeFen(pos.value.toSetup());
            expect(out).toBe(withCounters);
            const again = parseFen(out);
            expect(again.ok && boardsEqual(again.value.board, first.value.board)).toBe(true);
            expect(again.ok && again.value.turn).toBe(first.value.turn);
            expect(again.ok && again.value.halfmoves).toBe(half);
            expect(again.ok && again.value.fullmoves).toBe(full);
          },
        ),
        { numRuns: runs(300) },
      );
    });

    it('reads the accepted spellings (E/H letters, r for Red, split digits, no counters) the same way', () => {
      fc.assert(
        fc.property(positionFen, fc.integer(), (fen, seed) => {
          const random = rng(seed);
          const [board, side] = fen.split(' ') as [string, string];
          const respelled = board
            .replace(/[BbNn]/g, (ch) => (random() < 0.5 ? ch : { B: 'E', b: 'e', N: 'H', n: 'h' }[ch]!))
            .replace(/[2-9]/g, (d) => {
              const a = 1 + Math.floor(random() * (Number(d) - 1));
              return random() < 0.5 ? d : `${a}${Number(d) - a}`;
            });
          const sideLetter = side === 'w' ? pick(random, ['w', 'r', 'W', 'R']) : pick(random, ['b', 'B']);
          const variant =
            random() < 0.5 ? `${respelled} ${sideLetter}` : `${respelled} ${sideLetter} - - 0 1`;
          const parsed = parseFen(variant);
          expect(parsed.ok).toBe(true);
          if (!parsed.ok) return;
          const pos = Position.fromSetup(parsed.value);
          expect(pos.ok && makeFen(pos.value.toSetup())).toBe(fen.replace(/ \d+ \d+$/, ' 0 1'));
        }),
        { numRuns: runs(300) },
      );
    });
  }),
);

SUITES.push((runs) =>
  describe('move generation against the first-principles oracle', () => {
    it('every generated move is legal and every legal move is generated', () => {
      fc.assert(
        fc.property(positionFen, (fen) => {
          const pos = load(fen);
          const board = pos.toSetup().board;
          const ours = pos.legalMoves();
          for (const m of ours) {
            // No move leaves the mover's general attacked or the generals facing (rules 2.2, 4.1.2).
            expect(exposesGeneral(board, m), `${fen}: ${makeIccs(m)}`).toBe(false);
          }
          const names = (ms: { from: Square; to: Square }[]) => ms.map((m) => makeIccs(m)).sort();
          expect(names(ours)).toEqual(names(slowLegalMoves(board, pos.turn)));
          expect(new Set(names(ours)).size).toBe(ours.length);
          const king = generalSquare(board, pos.turn);
          expect(pos.isCheck()).toBe(attackedBy(board, king, other(pos.turn)));
          expect(pos.kingSquare(pos.turn)).toBe(king);
        }),
        { numRuns: runs(1000) },
      );
    });

    it('the moves of some pieces are the legal moves from their squares, in the same order', () => {
      fc.assert(
        fc.property(positionFen, fc.array(fc.nat({ max: 89 }), { maxLength: 6 }), (fen, picked) => {
          const pos = load(fen);
          const wanted = new Set<Square>(picked as Square[]);
          const all = pos.legalMoves();
          expect(pos.legalMovesFrom((sq) => wanted.has(sq))).toEqual(all.filter((m) => wanted.has(m.from)));
          // (Generation for a few pieces leaves the next full generation whole.)
          expect(pos.legalMoves()).toEqual(all);
          for (const sq of wanted)
            expect(pos.legalDestinations(sq)).toEqual(all.filter((m) => m.from === sq).map((m) => m.to));
        }),
        { numRuns: runs(500) },
      );
    });

    it('play/undo restore the position, and the incremental hash equals a fresh one', () => {
      fc.assert(
        fc.property(positionFen, fc.nat(), (fen, k) => {
          const pos = load(fen);
          const moves = pos.legalMoves();
          fc.pre(moves.length > 0);
          const move = moves[k % moves.length]!;
          const before = { fen: fenOf(pos), hash: pos.hash };
          const target = pos.pieceAt(move.to);
          const captured = pos.play(move);
          expect(captured).toEqual(target);
          expect(pos.pieceAt(move.from)).toBeUndefined();
          const fresh = load(fenOf(pos));
          expect(pos.hash).toBe(fresh.hash);
          expect(fenOf(pos).split(' ')[0]).toBe(fresh.boardFen);
          pos.undo();
          expect({ fen: fenOf(pos), hash: pos.hash }).toEqual(before);
        }),
        { numRuns: runs(300) },
      );
    });
  }),
);

// ---------------------------------------------------------------- fast path against attacks.ts

/** The points the piece on `sq` may move to by its movement rule, from the readable attack module. */
function readableTargets(board: PlainBoard, sq: Square): Square[] {
  const piece = board[sq]!;
  const attacks = attacksFrom(board, sq, piece);
  const out: Square[] = [];
  // A cannon moves like a chariot and captures over a screen; every other piece moves where it attacks.
  const quiet =
    piece.role === 'cannon' ? attacksFrom(board, sq, { color: piece.color, role: 'chariot' }) : attacks;
  for (const t of squaresOf(quiet)) if (!board[t]) out.push(t);
  for (const t of squaresOf(attacks)) if (board[t] && board[t]!.color !== piece.color) out.push(t);
  return out;
}

/** Legal moves from the readable module: every target whose move leaves the own general safe. */
function readableLegalMoves(board: PlainBoard, turn: Color): string[] {
  const out: string[] = [];
  for (let from = 0; from < 90; from++) {
    if (board[from]?.color !== turn) continue;
    for (const to of readableTargets(board, from)) {
      const after = board.slice();
      after[to] = after[from];
      after[from] = undefined;
      const general = generalOf(after, turn)!;
      if (!generalsFacing(after) && attackersTo(after, general, other(turn)) === 0n)
        out.push(makeIccs({ from, to }));
    }
  }
  return out.sort();
}

SUITES.push((runs) =>
  describe('the fast move generator (mailbox) against the readable attack module', () => {
    it('same legal moves, same check before and after every move', () => {
      fc.assert(
        fc.property(positionFen, (fen) => {
          const pos = load(fen);
          const board = pos.toSetup().board;
          const fast = pos.legalMoves();
          expect(fast.map((m) => makeIccs(m)).sort(), fen).toEqual(readableLegalMoves(board, pos.turn));
          const king = generalOf(board, pos.turn)!;
          expect(pos.isCheck(), fen).toBe(attackersTo(board, king, other(pos.turn)) !== 0n);
          for (const m of fast) {
            pos.play(m);
            const after = pos.toSetup().board;
            const checked = attackersTo(after, generalOf(after, pos.turn)!, other(pos.turn)) !== 0n;
            expect(pos.isCheck(), `${fen} ${makeIccs(m)}`).toBe(checked);
            pos.undo();
          }
        }),
        { numRuns: runs(400) },
      );
    });
  }),
);

// ---------------------------------------------------------------- bad FENs

/** What the rules core says of a FEN: 'ok' or the code of its error. Never throws. */
function verdict(fen: string): string {
  const setup = parseFen(fen);
  if (!setup.ok) return withMessage(setup.error);
  const pos = Position.fromSetup(setup.value);
  return pos.ok ? 'ok' : withMessage(pos.error);
}
function withMessage(e: { code: string; message: string }): string {
  expect(e.message.length).toBeGreaterThan(10);
  return e.code;
}

type Board = (Piece | undefined)[];
interface Mutant {
  fen: string;
  code: string;
}
type Mutation = (
  setup: { board: Board; turn: Color; fen: string; check: boolean },
  random: () => number,
) => Mutant;

const LIMIT: Record<Role, number> = {
  king: 1,
  advisor: 2,
  elephant: 2,
  horse: 2,
  chariot: 2,
  cannon: 2,
  pawn: 5,
};
const ROLES = Object.keys(LIMIT) as Role[];
const PALACE_ROLES: Role[] = ['advisor', 'elephant', 'pawn'];
const isKing = (p: Piece | undefined) => p?.role === 'king';
const count = (board: Board, color: Color, role: Role) =>
  board.filter((p) => p?.color === color && p.role === role).length;
const fenWith = (board: Board, turn: Color) => `${makeBoardFen(board)} ${turn === 'red' ? 'w' : 'b'} - - 0 1`;
const rowsOf = (fen: string) => fen.split(' ')[0]!.split('/');
const withRows = (fen: string, rows: string[]) => [rows.join('/'), ...fen.split(' ').slice(1)].join(' ');

const MUTATIONS: Record<string, Mutation> = {
  empty: (_, random) => ({ fen: pick(random, ['', '   ', '\t\n']), code: 'empty' }),
  rows: ({ fen }, random) => {
    const rows = rowsOf(fen);
    if (random() < 0.5) rows.splice(Math.floor(random() * 10), 1);
    else rows.splice(Math.floor(random() * 11), 0, '9');
    return { fen: withRows(fen, rows), code: 'rows' };
  },
  row_length: ({ fen }, random) => {
    const rows = rowsOf(fen);
    const r = Math.floor(random() * 10);
    rows[r] = random() < 0.5 ? `${rows[r]}${1 + Math.floor(random() * 9)}` : rows[r]!.slice(0, -1);
    return { fen: withRows(fen, rows), code: 'row_length' };
  },
  piece: ({ fen }, random) => {
    const rows = rowsOf(fen);
    const r = Math.floor(random() * 10);
    const row = rows[r]!;
    const at = Math.floor(random() * row.length);
    rows[r] = row.slice(0, at) + pick(random, [...'xyzqjgdfmouvwXYZQJGDFMOUVW*#0+']) + row.slice(at + 1);
    return { fen: withRows(fen, rows), code: 'piece' };
  },
  too_many: ({ board, turn }, random) => {
    const color = pick(random, ['red', 'black'] as const);
    const role = pick(random, ROLES);
    const free = allowedSquares(color, role).filter((sq) => !isKing(board[sq]));
    while (count(board, color, role) <= LIMIT[role]) {
      const sq = free.splice(Math.floor(random() * free.length), 1)[0]!;
      board[sq] = { color, role };
    }
    return { fen: fenWith(board, turn), code: 'too_many' };
  },
  king_missing: ({ board, turn }, random) => {
    const color = pick(random, ['red', 'black'] as const);
    board[generalSquare(board, color)] = undefined;
    return { fen: fenWith(board, turn), code: 'king_missing' };
  },
  king_palace: ({ board, turn }, random) => {
    const color = pick(random, ['red', 'black'] as const);
    const palace = allowedSquares(color, 'king');
    const outside = [...Array(90).keys()].filter((sq) => !palace.includes(sq) && !isKing(board[sq]));
    board[generalSquare(board, color)] = undefined;
    board[pick(random, outside)] = { color, role: 'king' };
    return { fen: fenWith(board, turn), code: 'king_palace' };
  },
  // Advisors, elephants and soldiers off their points; one of the kind is removed first when the
  // side already has all of them, so the count stays legal and only the point is wrong.
  off_point: ({ board, turn }, random) => {
    const color = pick(random, ['red', 'black'] as const);
    const role = pick(random, PALACE_ROLES);
    if (count(board, color, role) === LIMIT[role]) {
      board[board.findIndex((p) => p?.color === color && p.role === role)] = undefined;
    }
    const allowed = allowedSquares(color, role);
    const off = [...Array(90).keys()].filter((sq) => !allowed.includes(sq) && !isKing(board[sq]));
    board[pick(random, off)] = { color, role };
    const code = { advisor: 'advisor_point', elephant: 'elephant_point', pawn: 'pawn_point' }[
      role as string
    ]!;
    return { fen: fenWith(board, turn), code };
  },
  kings_facing: ({ board, turn }, random) => {
    const file = 3 + Math.floor(random() * 3);
    const redRank = Math.floor(random() * 3);
    const blackRank = 7 + Math.floor(random() * 3);
    board[generalSquare(board, 'red')] = undefined;
    board[generalSquare(board, 'black')] = undefined;
    for (let rank = redRank + 1; rank < blackRank; rank++) board[rank * 9 + file] = undefined;
    board[redRank * 9 + file] = { color: 'red', role: 'king' };
    board[blackRank * 9 + file] = { color: 'black', role: 'king' };
    return { fen: fenWith(board, turn), code: 'kings_facing' };
  },
  opponent_in_check: ({ board, turn, check }) => {
    fc.pre(check); // only a position with the mover in check becomes one with the waiting side in check
    return { fen: fenWith(board, other(turn)), code: 'opponent_in_check' };
  },
  turn: ({ fen }, random) => {
    const parts = fen.split(' ');
    parts[1] = pick(random, ['x', 'white', 'black', '1', '-', 'rb', 'bw', 'n', 'red', 'ww']);
    return { fen: parts.join(' '), code: 'turn' };
  },
  counters: ({ fen }, random) => {
    const parts = fen.split(' ');
    const kind = Math.floor(random() * 4);
    if (kind === 0) parts[4] = pick(random, ['x', '-1', '1.5', '99999', '-']);
    else if (kind === 1) parts[5] = pick(random, ['0', 'a', '-3', '1e3', '100000']);
    else if (kind === 2) parts.push('7');
    else parts.push('1', '2');
    return { fen: parts.join(' '), code: 'counters' };
  },
};

SUITES.push((runs) =>
  describe('bad FENs', () => {
    it('every mutation gets its own error code with a message, never an exception', () => {
      const tried = new Map<string, number>();
      fc.assert(
        fc.property(
          positionFen,
          fc.constantFrom(...Object.keys(MUTATIONS)),
          fc.integer(),
          (fen, kind, seed) => {
            const pos = load(fen);
            const setup = { board: pos.toSetup().board.slice(), turn: pos.turn, fen, check: pos.isCheck() };
            const mutant = MUTATIONS[kind]!(setup, rng(seed));
            expect(verdict(mutant.fen), mutant.fen).toBe(mutant.code);
            tried.set(kind, (tried.get(kind) ?? 0) + 1);
          },
        ),
        // (Every run at any scale: fewer would leave a kind of mutation seldom tried.)
        { numRuns: 1500 },
      );
      // Every kind of mutation was really exercised (opponent_in_check needs a position in check).
      for (const kind of Object.keys(MUTATIONS)) expect(tried.get(kind) ?? 0, kind).toBeGreaterThan(10);
    });

    it('arbitrary text is answered with a result, never an exception', () => {
      const codes = new Set([
        'ok',
        'empty',
        'rows',
        'row_length',
        'piece',
        'turn',
        'counters',
        ...['too_many', 'king_missing', 'king_palace', 'advisor_point', 'elephant_point', 'pawn_point'],
        ...['kings_facing', 'opponent_in_check'],
      ]);
      const fenish = fc
        .array(fc.constantFrom(...'kabnrcpehKABNRCPEH123456789/ wbr-0x'), { maxLength: 120 })
        .map((cs) => cs.join(''));
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fenish,
            positionFen.map((f) => f.slice(0, -3)),
          ),
          (text) => {
            expect(codes.has(verdict(text))).toBe(true);
          },
        ),
        { numRuns: runs(2000) },
      );
    });
  }),
);
