/** Moves in any of the three notations: ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) and Chinese (炮二平五). */

import { type Move, makeIccs, type Position, parseIccs } from '../rules/index.js';
import type { Result } from '../util/result.js';
import { CHINESE_DEFAULT, type ChineseStyle, looksChinese, makeChinese, parseChinese } from './chinese.js';
import { type NotationError, notationError } from './describe.js';
import { makeWxf, parseWxf, WXF_OFFICIAL, type WxfStyle } from './wxf.js';

export { CHINESE_DEFAULT, type ChineseStyle, makeChinese, parseChinese } from './chinese.js';
export type { NotationError, NotationErrorCode } from './describe.js';
export { makeWxf, normalizeWxf, parseWxf, WXF_FULL_WIDTH, WXF_OFFICIAL, type WxfStyle } from './wxf.js';

export type NotationName = 'iccs' | 'wxf' | 'chinese';
export const NOTATIONS: readonly NotationName[] = ['iccs', 'wxf', 'chinese'];

const ICCS_TEXT = /^[a-i][0-9]-?[a-i][0-9]$/i;

/** Which notation a move text is written in (ICCS, Chinese, else WXF). */
export function notationOf(text: string): NotationName {
  const t = text.normalize('NFKC').trim();
  if (ICCS_TEXT.test(t)) return 'iccs';
  return looksChinese(t) ? 'chinese' : 'wxf';
}

/** A legal move in ICCS. */
export function parseIccsMove(pos: Position, text: string): Result<Move, NotationError> {
  const t = text.normalize('NFKC').trim();
  const m = parseIccs(t);
  if (!m.ok) return notationError('notation_syntax', text, m.error.message);
  if (!pos.isLegal(m.value)) {
    return notationError('no_such_move', text, `'${text}' is not a legal move of ${pos.turn} here`);
  }
  return m;
}

/** Reads a move in one named notation. */
export function parseMove(pos: Position, text: string, notation: NotationName): Result<Move, NotationError> {
  switch (notation) {
    case 'iccs':
      return parseIccsMove(pos, text);
    case 'wxf':
      return parseWxf(pos, text);
    case 'chinese':
      return parseChinese(pos, text);
  }
}

/** Reads a move written in any of the three notations; the notation is told from the text. */
export const parseMoveAny = (pos: Position, text: string): Result<Move, NotationError> =>
  parseMove(pos, text, notationOf(text));

export interface NotationStyle {
  readonly wxf?: WxfStyle;
  readonly chinese?: ChineseStyle;
}

/** A legal move of the side to move, written in a notation. */
export function makeMove(
  pos: Position,
  move: Move,
  notation: NotationName,
  style: NotationStyle = {},
): string {
  switch (notation) {
    case 'iccs':
      return makeIccs(move);
    case 'wxf':
      return makeWxf(pos, move, style.wxf ?? WXF_OFFICIAL) ?? makeIccs(move);
    case 'chinese':
      return makeChinese(pos, move, style.chinese ?? CHINESE_DEFAULT) ?? makeIccs(move);
  }
}
