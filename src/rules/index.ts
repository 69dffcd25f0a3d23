/**
 * The rules core as the rest of xqboard uses it (chessops' layout): positions and their legal
 * moves, squares and pieces, FEN and ICCS, why a move is illegal, attacks on a plain board.
 * The 16×16 mailbox, piece ids and Zobrist tables (geometry.ts, zobrist.ts) stay inside.
 */
export { attackersOf, attackersTo, attacksFrom, type Board, generalOf, generalsFacing } from './attacks.js';
export { explainIllegal, type IllegalReason, type IllegalReasonCode, legalTargets } from './explain.js';
export { type FenError, type FenErrorCode, INITIAL_FEN, makeBoardFen, makeFen, parseFen } from './fen.js';
export { between, crossedRiver, inPalace, onOwnHalf, squareAt } from './geometry.js';
export { type IccsError, makeIccs, parseIccs } from './iccs.js';
export { perft, perftDivide } from './perft.js';
export { MAX_PLY, Position, type PositionError, type PositionErrorCode } from './position.js';
export { boardsEqual, defaultSetup, type Setup, sameSquareContent } from './setup.js';
export {
  countSquares,
  EMPTY_SET,
  hasSquare,
  type SquareSet,
  squareBit,
  squareSetOf,
  squaresOf,
} from './squareset.js';
export {
  type Color,
  FILE_NAMES,
  FILES,
  isSquare,
  letterRole,
  type Move,
  makePieceLetter,
  makeSquare,
  makeSquareName,
  opposite,
  type Piece,
  parseSquare,
  RANKS,
  ROLE_LETTER,
  ROLE_NAMES,
  ROLES,
  type Role,
  SQUARES,
  type Square,
  squareFile,
  squareRank,
} from './types.js';
