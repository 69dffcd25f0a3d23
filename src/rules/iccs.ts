/** ICCS coordinates: `h2e2` (file a..i from Red's left, rank 0..9 from Red's side). */

import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type Move, makeSquareName, parseSquare } from './types.js';

export type IccsError = CodedError<'iccs_syntax'>;

/** Accepts `h2e2`, `H2-E2` and `h2-e2`. */
export function parseIccs(text: string): Result<Move, IccsError> {
  const m = /^([a-iA-I][0-9])-?([a-iA-I][0-9])$/.exec(text.trim());
  if (!m) return err({ code: 'iccs_syntax', message: `'${text}' is not an ICCS move like h2e2` });
  const from = parseSquare(m[1]!)!;
  const to = parseSquare(m[2]!)!;
  if (from === to) return err({ code: 'iccs_syntax', message: `'${text}' moves a piece to its own square` });
  return ok({ from, to });
}

export const makeIccs = (move: Move): string => makeSquareName(move.from) + makeSquareName(move.to);
