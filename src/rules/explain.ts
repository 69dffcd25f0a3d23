/**
 * Why a move is not legal, in words a player understands: for the move reader's illegal-move
 * alerts ("the horse on b0 is blocked at b1 (hobbled leg)"). Pure; the position is not changed.
 *
 * The movement rule of the piece (rule 2.2) is checked first, then what the move would do to the
 * mover's general (rules 2.2 and 4.1.2: never left attacked, never facing the other general).
 */

import type { CodedError } from '../util/result.js';
import { attackersOf, generalOf, generalsFacing } from './attacks.js';
import { between, inPalace, onOwnHalf } from './geometry.js';
import type { Position } from './position.js';
import {
  isSquare,
  type Move,
  makeSquare,
  makeSquareName,
  opposite,
  type Piece,
  ROLE_NAMES,
  type Role,
  type Square,
  squareFile,
  squareRank,
} from './types.js';

export type IllegalReasonCode =
  | 'no_piece'
  | 'wrong_side'
  | 'own_piece'
  | 'palace'
  | 'advisor_diagonal'
  | 'general_step'
  | 'elephant_eye'
  | 'elephant_river'
  | 'elephant_shape'
  | 'horse_leg'
  | 'horse_shape'
  | 'path_blocked'
  | 'cannon_screen'
  | 'not_straight'
  | 'soldier_backward'
  | 'soldier_sideways_before_river'
  | 'soldier_step'
  | 'leaves_check'
  | 'generals_facing';

export interface IllegalReason extends CodedError<IllegalReasonCode> {
  readonly move: Move;
  /** The piece that was to move, when there is one. */
  readonly piece?: Piece;
  /**
   * The point the reason is about, for the board's lights: the blocking piece (eye, leg, path), the
   * enemy piece that would take the general, or the general facing.
   */
  readonly square?: Square;
}

export { ROLE_NAMES };

const name = (sq: Square): string => (isSquare(sq) ? makeSquareName(sq) : `point ${sq}`);

/** Why `move` is not legal in `pos`, or undefined when it is legal. */
export function explainIllegal(pos: Position, move: Move): IllegalReason | undefined {
  const { from, to } = move;
  const piece = isSquare(from) ? pos.pieceAt(from) : undefined;
  const reason = (code: IllegalReasonCode, message: string, square?: Square): IllegalReason => ({
    code,
    message,
    move,
    ...(piece ? { piece } : {}),
    ...(square !== undefined ? { square } : {}),
  });
  if (!piece) {
    return reason(
      'no_piece',
      isSquare(from) ? `there is no piece on ${name(from)}` : `${name(from)} is not on the board`,
    );
  }
  const what = `the ${ROLE_NAMES[piece.role]} on ${name(from)}`;
  if (piece.color !== pos.turn) {
    return reason('wrong_side', `${what} is ${piece.color}'s and it is ${pos.turn}'s turn`);
  }
  if (to === from || !isSquare(to)) {
    const shape = shapeReason(piece, what, to);
    return reason(shape.code, shape.message);
  }
  const target = pos.pieceAt(to);
  if (target && target.color === piece.color) {
    return reason(
      'own_piece',
      `${what} cannot go to ${name(to)}: the ${ROLE_NAMES[target.role]} there is ${piece.color}'s own`,
      to,
    );
  }
  const shape = movementReason(pos, piece, from, to, what);
  if (shape) return reason(shape.code, shape.message, shape.square);
  if (pos.isLegal(move)) return undefined;

  // The piece may go there by its movement rule: the move fails for the general's sake.
  const after = pos.clone();
  after.play(move);
  const board = after.toSetup().board;
  const iccs = `${name(from)}${name(to)}`;
  if (generalsFacing(board)) {
    const theirs = generalOf(board, opposite(piece.color))!;
    return reason(
      'generals_facing',
      `${iccs} would leave the generals facing each other on the open ${name(theirs)[0]} file`,
      theirs,
    );
  }
  const general = generalOf(board, piece.color)!;
  const attacker = attackersOf(board, general, opposite(piece.color))[0];
  const by =
    attacker === undefined ? '' : ` by the ${ROLE_NAMES[board[attacker]!.role]} on ${name(attacker)}`;
  const message = pos.isCheck()
    ? `${pos.turn} is in check and ${iccs} does not answer it: the general on ${name(general)} would still be attacked${by}`
    : `${iccs} would leave the ${pos.turn} general on ${name(general)} attacked${by}`;
  return reason('leaves_check', message, attacker);
}

interface Shape {
  code: IllegalReasonCode;
  message: string;
  square?: Square;
}

/** A move to the piece's own point, or off the board: the piece's shape rule is what it breaks. */
function shapeReason(piece: Piece, what: string, to: Square): Shape {
  const code: Record<Role, IllegalReasonCode> = {
    king: 'general_step',
    advisor: 'advisor_diagonal',
    elephant: 'elephant_shape',
    horse: 'horse_shape',
    chariot: 'not_straight',
    cannon: 'not_straight',
    pawn: 'soldier_step',
  };
  const where = isSquare(to) ? `stays on ${name(to)}` : `would go to ${name(to)}, off the board`;
  return { code: code[piece.role], message: `${what} ${where}` };
}

/** Does the piece's own movement rule (rule 2.2) forbid from → to? `to` is a different point of the board. */
function movementReason(
  pos: Position,
  piece: Piece,
  from: Square,
  to: Square,
  what: string,
): Shape | undefined {
  const df = squareFile(to) - squareFile(from);
  const dr = squareRank(to) - squareRank(from);
  const adf = Math.abs(df);
  const adr = Math.abs(dr);
  const dest = name(to);
  const firstPiece = (squares: Square[]) => squares.find((sq) => pos.pieceAt(sq) !== undefined);
  switch (piece.role) {
    case 'king':
      if (adf + adr !== 1)
        return { code: 'general_step', message: `${what} moves one point along a line, not to ${dest}` };
      if (!inPalace(piece.color, to))
        return { code: 'palace', message: `${what} cannot leave the palace for ${dest}` };
      return undefined;
    case 'advisor':
      if (adf !== 1 || adr !== 1) {
        return { code: 'advisor_diagonal', message: `${what} moves one point diagonally, not to ${dest}` };
      }
      if (!inPalace(piece.color, to))
        return { code: 'palace', message: `${what} cannot leave the palace for ${dest}` };
      return undefined;
    case 'elephant': {
      if (adf !== 2 || adr !== 2) {
        return { code: 'elephant_shape', message: `${what} moves two points diagonally, not to ${dest}` };
      }
      if (!onOwnHalf(piece.color, to)) {
        return { code: 'elephant_river', message: `${what} cannot cross the river to ${dest}` };
      }
      const eye = makeSquare(squareFile(from) + df / 2, squareRank(from) + dr / 2);
      if (pos.pieceAt(eye)) {
        return {
          code: 'elephant_eye',
          message: `${what} is blocked at ${name(eye)} (the elephant's eye)`,
          square: eye,
        };
      }
      return undefined;
    }
    case 'horse': {
      if (!((adf === 1 && adr === 2) || (adf === 2 && adr === 1))) {
        return {
          code: 'horse_shape',
          message: `${what} moves one point straight then one diagonally, not to ${dest}`,
        };
      }
      const leg =
        adr === 2
          ? makeSquare(squareFile(from), squareRank(from) + dr / 2)
          : makeSquare(squareFile(from) + df / 2, squareRank(from));
      if (pos.pieceAt(leg)) {
        return {
          code: 'horse_leg',
          message: `${what} is blocked at ${name(leg)} (hobbled leg)`,
          square: leg,
        };
      }
      return undefined;
    }
    case 'chariot':
    case 'cannon': {
      if (df !== 0 && dr !== 0) {
        return { code: 'not_straight', message: `${what} moves along a file or a rank, not to ${dest}` };
      }
      const path = between(from, to);
      if (piece.role === 'chariot' || !pos.pieceAt(to)) {
        const block = firstPiece(path);
        if (block !== undefined) {
          return {
            code: 'path_blocked',
            message: `${what} is blocked at ${name(block)} on its way to ${dest}`,
            square: block,
          };
        }
        return undefined;
      }
      const screens = path.filter((sq) => pos.pieceAt(sq) !== undefined);
      if (screens.length !== 1) {
        const found = screens.length === 0 ? 'there is none' : `there are ${screens.length}`;
        return {
          code: 'cannon_screen',
          message: `${what} captures by jumping exactly one piece; ${found} between ${name(from)} and ${dest}`,
          ...(screens[1] !== undefined ? { square: screens[1] } : {}),
        };
      }
      return undefined;
    }
    case 'pawn': {
      const ahead = piece.color === 'red' ? 1 : -1;
      if (dr * ahead < 0)
        return { code: 'soldier_backward', message: `${what} never moves back (to ${dest})` };
      if (dr === 0 && onOwnHalf(piece.color, from)) {
        return {
          code: 'soldier_sideways_before_river',
          message: `${what} cannot move sideways to ${dest} before it has crossed the river`,
        };
      }
      if ((dr === 0 && adf === 1) || (df === 0 && dr === ahead)) return undefined;
      const how = onOwnHalf(piece.color, from) ? 'one point forward' : 'one point forward or sideways';
      return { code: 'soldier_step', message: `${what} moves ${how}, not to ${dest}` };
    }
  }
}

/** The points the piece on `from` may legally move to (none when it is not the mover's). */
export function legalTargets(pos: Position, from: Square): Square[] {
  return isSquare(from) ? pos.legalDestinations(from) : [];
}
