/**
 * Chinese notation: 炮二平五, 马８进７, 前车进一.
 *
 * Piece 帅仕相马车炮兵 / 将士象马车炮卒, the file counted from the mover's right (Red in Chinese
 * numerals 一…九, Black in digits, full-width １…９ as most files print them), 进 forward, 退 back,
 * 平 sideways, then the target file or the number of steps. Like pieces on one file: 前/后 (前中后
 * for three pawns, 一二三四五 for four or five) replaces the file: 前车进一, 中兵平四, 二兵平六.
 * Pawns stacked on two files: the file replaces the piece name (前七平六, 后三进一).
 * Advisors and elephants are never told apart. Reading accepts traditional forms (帥 俥 傌 車 馬 砲
 * 包 進 後 將), digits of either width for either side, and the front/rear sign after the piece.
 */

import type { Color, Move, Position, Role } from '../rules/index.js';
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

export interface ChineseStyle {
  /** Black's numbers: full-width `１` (most files) or ASCII `1`. */
  readonly blackDigits: 'fullwidth' | 'ascii';
}

export const CHINESE_DEFAULT: ChineseStyle = { blackDigits: 'fullwidth' };

const NAMES: Record<Color, Record<Role, string>> = {
  red: { king: '帅', advisor: '仕', elephant: '相', horse: '马', chariot: '车', cannon: '炮', pawn: '兵' },
  black: { king: '将', advisor: '士', elephant: '象', horse: '马', chariot: '车', cannon: '炮', pawn: '卒' },
};
const CHINESE_NUMERALS = '一二三四五六七八九';
const DIRECTION_WORD: Record<Direction, string> = { '+': '进', '-': '退', '.': '平' };

function numeral(n: number, color: Color, style: ChineseStyle): string {
  if (color === 'red') return CHINESE_NUMERALS[n - 1]!;
  return style.blackDigits === 'fullwidth' ? String.fromCharCode(0xff10 + n) : String(n);
}

function chinesePiece(f: MoveFacts, style: ChineseStyle): string {
  const name = NAMES[f.color][f.role];
  const file = numeral(f.file, f.color, style);
  if (f.count < 2) return name + file;
  const frontRear = f.index === 0 ? '前' : f.index === f.count - 1 ? '后' : '中';
  if (f.role === 'pawn' && f.stackedFiles >= 2) return frontRear + file;
  if (f.count <= 3) return frontRear + name;
  return CHINESE_NUMERALS[f.index]! + name;
}

/** Chinese notation for a legal move of the side to move. */
export function makeChinese(
  pos: Position,
  move: Move,
  style: ChineseStyle = CHINESE_DEFAULT,
): string | undefined {
  const f = describeMove(pos, move);
  if (!f) return undefined;
  return chinesePiece(f, style) + DIRECTION_WORD[f.direction] + numeral(f.target, f.color, style);
}

const PIECE_CHARS: Record<string, Role> = {
  帅: 'king',
  帥: 'king',
  将: 'king',
  將: 'king',
  仕: 'advisor',
  士: 'advisor',
  相: 'elephant',
  象: 'elephant',
  马: 'horse',
  馬: 'horse',
  傌: 'horse',
  车: 'chariot',
  車: 'chariot',
  俥: 'chariot',
  炮: 'cannon',
  砲: 'cannon',
  包: 'cannon',
  兵: 'pawn',
  卒: 'pawn',
};
const DIRECTION_CHARS: Record<string, Direction> = { 进: '+', 進: '+', 退: '-', 平: '.' };
const WHICH_CHARS: Record<string, Which> = { 前: 'front', 后: 'rear', 後: 'rear', 中: 'middle' };

/** 1..9 from a Chinese numeral or a digit of either width; undefined otherwise. */
function numberOf(ch: string): number | undefined {
  const k = CHINESE_NUMERALS.indexOf(ch);
  if (k >= 0) return k + 1;
  return /^[1-9]$/.test(ch) ? Number(ch) : undefined;
}

const isChineseChar = (ch: string): boolean => /[\u3400-\u9fff]/.test(ch);

/** Is this text meant as Chinese notation (it holds a CJK character)? */
export const looksChinese = (text: string): boolean => /[\u3400-\u9fff]/.test(text);

function readPiece(a: string, b: string): { role: Role; file?: number; which?: Which } | undefined {
  const roleA = PIECE_CHARS[a];
  const roleB = PIECE_CHARS[b];
  const whichA = WHICH_CHARS[a];
  const whichB = WHICH_CHARS[b];
  const numA = numberOf(a);
  const numB = numberOf(b);
  if (roleA && numB !== undefined) return { role: roleA, file: numB };
  if (whichA && roleB) return { role: roleB, which: whichA };
  if (roleA && whichB) return { role: roleA, which: whichB };
  if (numA !== undefined && numA <= 5 && roleB === 'pawn') return { role: 'pawn', which: numA as Which };
  if (whichA && numB !== undefined) return { role: 'pawn', file: numB, which: whichA };
  return undefined;
}

/** Reads Chinese notation (simplified or traditional, any digit width) into a descriptor. */
export function readChinese(text: string): Result<MoveDescriptor, NotationError> {
  const chars = [...text.normalize('NFKC').replace(/\s+/g, '')];
  const piece = chars.length === 4 ? readPiece(chars[0]!, chars[1]!) : undefined;
  const direction = DIRECTION_CHARS[chars[2] ?? ''];
  const target = numberOf(chars[3] ?? '');
  if (!piece || !direction || target === undefined || !chars.some(isChineseChar)) {
    return notationError(
      'notation_syntax',
      text,
      `'${text}' is not a Chinese move like 炮二平五 or 马８进７`,
    );
  }
  return ok({ ...piece, direction, target });
}

/** The legal move that Chinese text names in this position. */
export function parseChinese(pos: Position, text: string): Result<Move, NotationError> {
  const d = readChinese(text);
  return d.ok ? resolveDescriptor(pos, d.value, text) : d;
}
