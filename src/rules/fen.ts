/** FEN for xiangqi: `rnbakabnr/9/1c5c1/… w - - 0 1`. `parseFen` checks syntax only; legality is `Position.fromSetup`. */

import { type CodedError, err, ok, type Result } from '../util/result.js';
import { defaultSetup, type Setup } from './setup.js';
import { letterRole, makePieceLetter, makeSquare, type Piece } from './types.js';

export type FenErrorCode = 'empty' | 'rows' | 'row_length' | 'piece' | 'turn' | 'counters';
export type FenError = CodedError<FenErrorCode>;

export const INITIAL_FEN = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

const fenError = (code: FenErrorCode, message: string): Result<never, FenError> => err({ code, message });

export function parseFen(input: string): Result<Setup, FenError> {
  const fen = input.trim();
  if (fen === '') return fenError('empty', 'FEN is empty');
  const fields = fen.split(/\s+/);
  const rows = fields[0]!.split('/');
  if (rows.length !== 10) {
    return fenError('rows', `FEN board has ${rows.length} rows, expected 10`);
  }
  const board: (Piece | undefined)[] = new Array(90).fill(undefined);
  for (let r = 0; r < 10; r++) {
    const rank = 9 - r;
    let file = 0;
    for (const ch of rows[r]!) {
      if (ch >= '1' && ch <= '9') {
        file += ch.charCodeAt(0) - 48;
      } else {
        const role = letterRole(ch);
        if (!role) {
          return fenError('piece', `unknown piece letter '${ch}' in row ${r + 1} (rank ${rank})`);
        }
        if (file < 9) {
          board[makeSquare(file, rank)] = { color: ch === ch.toUpperCase() ? 'red' : 'black', role };
        }
        file++;
      }
      if (file > 9) break;
    }
    if (file !== 9) {
      return fenError(
        'row_length',
        `FEN row ${r + 1} (rank ${rank}) '${rows[r]}' covers ${file} files, expected 9`,
      );
    }
  }
  let turn: Setup['turn'] = 'red';
  const side = fields[1];
  if (side !== undefined) {
    if (side === 'w' || side === 'r' || side === 'W' || side === 'R') turn = 'red';
    else if (side === 'b' || side === 'B') turn = 'black';
    else return fenError('turn', `side to move '${side}' is not w, r or b`);
  }
  // Fields 3 and 4 are '-' placeholders kept from chess FEN; counters are fields 5 and 6.
  let halfmoves = 0;
  let fullmoves = 1;
  const counters = fields.slice(4);
  if (counters.length > 2 || fields.length > 6) {
    return fenError('counters', `FEN has ${fields.length} fields, expected at most 6`);
  }
  if (counters[0] !== undefined) {
    if (!/^\d{1,4}$/.test(counters[0])) {
      return fenError('counters', `halfmove clock '${counters[0]}' is not a whole number`);
    }
    halfmoves = Number(counters[0]);
  }
  if (counters[1] !== undefined) {
    if (!/^\d{1,4}$/.test(counters[1]) || Number(counters[1]) < 1) {
      return fenError('counters', `move number '${counters[1]}' is not a whole number from 1`);
    }
    fullmoves = Number(counters[1]);
  }
  return ok({ board, turn, halfmoves, fullmoves });
}

export function makeBoardFen(board: Setup['board']): string {
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = board[makeSquare(file, rank)];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += makePieceLetter(p);
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

export function makeFen(setup: Setup): string {
  return `${makeBoardFen(setup.board)} ${setup.turn === 'red' ? 'w' : 'b'} - - ${setup.halfmoves} ${setup.fullmoves}`;
}

export { defaultSetup };
