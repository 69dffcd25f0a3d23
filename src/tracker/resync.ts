/**
 * Reading a board again that the move reader has lost: the shortest legal lines from the confirmed
 * position (or from the one before its last move, that move taken back, or with a move the record
 * holds in doubt changed to one of its rivals) after which the board reads as it stands, but for
 * at most one point whose sensor does not read what stands there.
 *
 * The reader's judgement follows the evidence as it comes (which piece left first, what was seen
 * set down); when a dead sensor or a hurried hand has led it astray, nothing it can say fits the
 * board any more. The board itself still tells a lot: a few moves, each touching a point that reads
 * wrong, usually explain it. Pure: positions in, lines out.
 */
import type { Move, Position, Square } from '../rules/index.js';

/** A line that reads the board, played on a root. */
export interface ResyncLine {
  /** Moves taken back from the record before the line is played (its root's). */
  readonly retract: number;
  /** The root's own moves (`ResyncRoot.prefix`), then those found. */
  readonly moves: Move[];
  /**
   * The one point the board does not read as the line leaves it: its sensor reads `reads` always;
   * believed from `from` on (its reading must have held a while).
   */
  readonly dead?: { readonly square: Square; readonly reads: 'empty' | 'occupied'; readonly from: number };
}

export interface ResyncRoot {
  /** Where the search starts: after the record's moves, `retract` of them taken back, then `prefix`. */
  readonly position: Position;
  readonly retract: number;
  /** Moves played on the record, `retract` taken back, to reach `position` (a rival's line). */
  readonly prefix?: readonly Move[];
  /**
   * What the root's own story costs (see the costs below): by default each move taken back; a
   * rival's line changes one move of the record whatever it keeps.
   */
  readonly cost?: number;
  /** The record's move from this root (a line beginning with it is one from the next root). */
  readonly played?: Move;
}

export interface ResyncInput {
  readonly roots: readonly ResyncRoot[];
  /** What each point reads: 0 empty, 1 red, 2 black, 3 occupied (colour unknown). */
  readonly obs: Uint8Array;
  /** Points whose sensor is known dead: whatever they read fits. */
  readonly mask: ReadonlySet<Square>;
  /** From when this point may be taken for a dead one (its reading has held long enough). */
  readonly deadFrom: (sq: Square) => number;

  /**
   * What the sensors showed since the confirmed position: a point read occupied (a piece set down
   * there), a point read empty (a piece taken off). A line's move must have shown both, but on
   * the dead point (and for a capture's landing, which occupancy does not show); the first move
   * after a move taken back happened before the evidence began.
   */
  readonly setDown: (sq: Square) => boolean;
  readonly takenOff: (sq: Square) => boolean;
  /** The longest line tried. */
  readonly maxPlies: number;
}

/** Search effort cap (positions visited): a board this far off is out of sync, not re-read. */
const MAX_NODES = 20_000;

const fits = (color: number, o: number): boolean => (o === 3 ? color !== 0 : color === o);

/**
 * What a story costs: each move 1, a move of the record taken back 2, a dead sensor 3 (a sensor
 * dies rarely; a long line of moves nobody saw made is no likelier).
 */
const MOVE_COST = 1;
export const RETRACT_COST = 2;
const DEAD_COST = 3;

/**
 * The cheapest lines that read the board (see the costs above). Several when they tie; none when
 * nothing short does.
 */
export function resyncLines(input: ResyncInput): ResyncLine[] {
  let best: ResyncLine[] = [];
  let bestCost: number | undefined;
  const better = (a: number, b: number): number => a - b;
  let nodes = 0;
  for (const root of input.roots) {
    const rootCost = root.cost ?? root.retract * RETRACT_COST;
    const pos = root.position.clone();
    const wrong = new Uint8Array(90);
    let nwrong = 0;
    const check = (sq: Square): void => {
      const w = input.mask.has(sq) || fits(pos.colorAt(sq), input.obs[sq]!) ? 0 : 1;
      nwrong += w - wrong[sq]!;
      wrong[sq] = w;
    };
    for (let sq = 0; sq < 90; sq++) check(sq);
    const line: Move[] = [];
    const captures: boolean[] = [];
    const offer = (): void => {
      // (No move at all, one dead sensor: the reader's own reading of a dead sensor, in the running
      // so that a dearer line does not beat it. A move taken back and nothing played is a takeback.)
      const own = root.prefix?.length ?? 0;
      if (nwrong > 1 || (line.length + own === 0 && nwrong === 0) || (line.length === 0 && root.retract > 0))
        return;
      let dead: ResyncLine['dead'];
      if (nwrong === 1) {
        const sq = wrong.indexOf(1);
        dead = { square: sq, reads: input.obs[sq] === 0 ? 'empty' : 'occupied', from: input.deadFrom(sq) };
      }
      // (The first move after one taken back, or a rival's line, was made before the evidence began.)
      for (let k = root.retract > 0 && own === 0 ? 1 : 0; k < line.length; k++) {
        const m = line[k]!;
        if (m.from !== dead?.square && !input.takenOff(m.from)) return;
        if (!captures[k] && m.to !== dead?.square && !input.setDown(m.to)) return;
      }
      const cost = rootCost + line.length * MOVE_COST + (dead ? DEAD_COST : 0);
      const order = bestCost === undefined ? -1 : better(cost, bestCost);
      if (order > 0) return;
      const moves = [...(root.prefix ?? []), ...line];
      const found: ResyncLine = { retract: root.retract, moves, ...(dead ? { dead } : {}) };
      if (order < 0) {
        best = [found];
        bestCost = cost;
      } else best.push(found);
    };
    const search = (left: number): void => {
      if (++nodes > MAX_NODES) return;
      offer();
      // Each move mends at most two points (where it left, where it landed).
      if (left === 0 || nwrong - 2 * left > 1) return;
      // (A longer line than the best found so far, or one that cannot beat its count, is no use.)
      if (bestCost !== undefined && rootCost + (line.length + 1) * MOVE_COST > bestCost) return;
      for (const m of pos.legalMoves()) {
        if (line.length === 0 && root.played && m.from === root.played.from && m.to === root.played.to)
          continue;
        // A move of the line leaves or reaches a point that reads wrong now: one that touches two
        // right ones only adds to what is wrong.
        if (!wrong[m.from] && !wrong[m.to]) continue;
        const before = nwrong;
        const capture = pos.colorAt(m.to) !== 0;
        pos.play(m);
        check(m.from);
        check(m.to);
        if (nwrong <= before) {
          line.push(m);
          captures.push(capture);
          search(left - 1);
          line.pop();
          captures.pop();
        }
        pos.undo();
        check(m.from);
        check(m.to);
      }
    };
    search(input.maxPlies);
  }
  return nodes > MAX_NODES ? [] : best;
}
