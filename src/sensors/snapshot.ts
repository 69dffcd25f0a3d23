import type { Setup } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
/**
 * What the sensors see: one character per intersection, indexed by `Square` (rank * 9 + file).
 * `.` empty, `x` occupied (occupancy sensing), `r` / `b` a red / black piece (colour sensing).
 * A plain string: immutable, compared with ===, cheap to keep in history.
 */

export type Sensing = 'occupancy' | 'colour';
export type Cells = string;

export const EMPTY_CELLS: Cells = '.'.repeat(90);

/** The cells a board in this position shows to sensors of the given kind. */
export function cellsOf(board: Setup['board'], sensing: Sensing): Cells {
  let s = '';
  for (let sq = 0; sq < 90; sq++) {
    const p = board[sq];
    s += !p ? '.' : sensing === 'occupancy' ? 'x' : p.color === 'red' ? 'r' : 'b';
  }
  return s;
}

/** Colour readings seen as occupancy. */
export const occupancyOfCells = (cells: Cells): Cells => cells.replace(/[rb]/g, 'x');

export type OccError = CodedError<'occ_syntax'>;

/** Reads the log's `occ` field: 10 rows of 9, rank 9 first, separated by `/`. */
export function parseOcc(occ: string, sensing: Sensing): Result<Cells, OccError> {
  const rows = occ.split('/');
  if (rows.length !== 10) {
    return err({ code: 'occ_syntax', message: `occ has ${rows.length} rows, expected 10` });
  }
  const allowed = sensing === 'occupancy' ? /^[.x]{9}$/ : /^[.rb]{9}$/;
  let cells = '';
  for (let rank = 0; rank < 10; rank++) {
    const row = rows[9 - rank]!;
    if (!allowed.test(row)) {
      return err({
        code: 'occ_syntax',
        message: `occ row ${10 - rank} (rank ${rank}) '${row}' must be 9 of ${sensing === 'occupancy' ? "'.' and 'x'" : "'.', 'r' and 'b'"}`,
      });
    }
    cells += row;
  }
  return ok(cells);
}

export function makeOcc(cells: Cells): string {
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--) rows.push(cells.slice(rank * 9, rank * 9 + 9));
  return rows.join('/');
}
