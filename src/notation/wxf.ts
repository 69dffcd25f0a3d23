/**
 * WXF notation (World Xiangqi Federation, after C.W. Huang's AXF system): `C2.5`, `H8+7`, `R+.3`.
 *
 * Letter K A E H R C P, the file counted from the mover's right, `+` forward, `-` back, `.`
 * sideways, then the target file (sideways, and always for horse, elephant and advisor) or the
 * number of steps. Like pieces on one file: `+`/`-` replaces the file (`R+.3`, `C--1`); three
 * pawns `P+`, `P3` (the middle one, plain), `P-`; four or five `++`, `P+`, (`P3`), `P-`, `--`;
 * pawns stacked on two files: the file digit replaces the letter (`3+.4`, `33.4`, `3-.4`).
 * Advisors and elephants are never told apart.
 */

import type { Move, Position, Role } from '../rules/index.js';
import { ok, type Result } from '../util/result.js';
import {
  type Direction,
  describeMove,
  type MoveDescriptor,
  type MoveFacts,
  type NotationError,
  notationError,
  resolveDescriptor,
  type Which,
} from './describe.js';

export interface WxfStyle {
  /** `.` as WXF prints it, or `=` as many files (and Fairy-Stockfish) do. */
  readonly sideways: '.' | '=';
  /** `+R.3` instead of `R+.3` for two like pieces on one file. */
  readonly signFirst: boolean;
  /** Full-width characters (`Ｃ２＝５`), as in many Chinese files. */
  readonly fullWidth: boolean;
}

export const WXF_OFFICIAL: WxfStyle = { sideways: '.', signFirst: false, fullWidth: false };
/** The style of the wukong xqdb files (`../shared/data/games/sample15-wxf.pgn`): `Ｃ２＝５`, `＋Ｐ＝６`. */
export const WXF_FULL_WIDTH: WxfStyle = { sideways: '=', signFirst: true, fullWidth: true };

const LETTER: Record<Role, string> = {
  king: 'K',
  advisor: 'A',
  elephant: 'E',
  horse: 'H',
  chariot: 'R',
  cannon: 'C',
  pawn: 'P',
};

/** The first two characters: which piece moves. */
function wxfPiece(f: MoveFacts, signFirst: boolean): string {
  const letter = LETTER[f.role];
  const file = String(f.file);
  if (f.count < 2) return letter + file;
  const sign = f.index === 0 ? '+' : '-';
  if (f.role !== 'pawn' || f.count === 2) {
    if (f.role === 'pawn' && f.stackedFiles >= 2) return file + sign;
    return signFirst ? sign + letter : letter + sign;
  }
  // Three or more pawns on one file.
  if (f.stackedFiles >= 2) return file + (['+', file, '-'][f.index] ?? '');
  const marks =
    f.count === 3 ? ['+', file, '-'] : f.count === 4 ? ['++', '+', '-', '--'] : ['++', '+', file, '-', '--'];
  const mark = marks[f.index]!;
  if (mark.length === 2) return mark;
  if (mark === file) return letter + file;
  return signFirst ? mark + letter : letter + mark;
}

const toFullWidth = (s: string): string =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

/** WXF for a legal move of the side to move (`undefined` when `from` holds none of its pieces). */
export function makeWxf(pos: Position, move: Move, style: WxfStyle = WXF_OFFICIAL): string | undefined {
  const f = describeMove(pos, move);
  if (!f) return undefined;
  const direction = f.direction === '.' ? style.sideways : f.direction;
  const text = wxfPiece(f, style.signFirst) + direction + String(f.target);
  return style.fullWidth ? toFullWidth(text) : text;
}

const LETTER_ROLE: Record<string, Role> = {
  K: 'king',
  G: 'king',
  A: 'advisor',
  E: 'elephant',
  B: 'elephant',
  H: 'horse',
  N: 'horse',
  R: 'chariot',
  C: 'cannon',
  P: 'pawn',
};

/** ASCII, upper case, `.` for sideways; check marks and annotations after the move dropped. */
export function normalizeWxf(text: string): string {
  return text
    .normalize('NFKC')
    .trim()
    .toUpperCase()
    .replace(/[=．]/g, '.')
    .replace(/[−–—]/g, '-')
    .replace(/^(.{4})[+#!?]+$/, '$1');
}

const SIGN = /^[+-]$/;
const DIGIT = /^[1-9]$/;

/** Reads the first two characters of a normalized WXF move. */
function readPiece(a: string, b: string): { role: Role; file?: number; which?: Which } | undefined {
  const roleA = LETTER_ROLE[a];
  const roleB = LETTER_ROLE[b];
  if (roleA && DIGIT.test(b)) return { role: roleA, file: Number(b) };
  if (roleA && SIGN.test(b)) return { role: roleA, which: b === '+' ? 'plus' : 'minus' };
  if (SIGN.test(a) && roleB) return { role: roleB, which: a === '+' ? 'plus' : 'minus' };
  if (SIGN.test(a) && a === b) return { role: 'pawn', which: a === '+' ? 'plusplus' : 'minusminus' };
  if (DIGIT.test(a) && SIGN.test(b)) {
    return { role: 'pawn', file: Number(a), which: b === '+' ? 'front' : 'rear' };
  }
  if (DIGIT.test(a) && a === b) return { role: 'pawn', file: Number(a), which: 'middle' };
  return undefined;
}

/** Reads WXF text (full-width, `=`, B/N, sign before or after the letter) into a descriptor. */
export function readWxf(text: string): Result<MoveDescriptor, NotationError> {
  const t = normalizeWxf(text);
  const piece = t.length === 4 ? readPiece(t[0]!, t[1]!) : undefined;
  const direction = t[2];
  const target = t[3] ?? '';
  if (!piece || (direction !== '+' && direction !== '-' && direction !== '.') || !DIGIT.test(target)) {
    return notationError('notation_syntax', text, `'${text}' is not a WXF move like C2.5 or H8+7`);
  }
  return ok({ ...piece, direction: direction as Direction, target: Number(target) });
}

/** The legal move that WXF text names in this position. */
export function parseWxf(pos: Position, text: string): Result<Move, NotationError> {
  const d = readWxf(text);
  return d.ok ? resolveDescriptor(pos, d.value, text) : d;
}
