/**
 * What the sensors have shown, as the move reader keeps it: the latest cells, when the board and
 * each square last changed, when the latest change was read, the lifts since the confirmed
 * position and the squares whose sensors are taken for dead. One object per actor, updated in
 * place frame by frame (no copy, no allocation per frame): only that actor's judgement reads it,
 * always for the present, never an earlier state of it.
 */
import type { Position, Square } from '../rules/index.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import { Lifts } from './lifts.js';
import { expectedCells } from './reader.js';

export class Readings {
  /** The latest cells read (undefined before the first frame). */
  cells: Cells | undefined = undefined;
  /** Time of the last change of the board (the frame that completes a move). */
  changedAt = 0;
  /** The soonest the board may have stood as it reads since (before `changedAt` after lost frames). */
  stillFrom = 0;
  /** Time of the latest changed frame that came after lost frames (what it shows may be older). */
  gapFrameAt = Number.NEGATIVE_INFINITY;
  /** Time of the latest frame, changed or not, that came after lost frames (they may hide anything before it). */
  lostUntil = Number.NEGATIVE_INFINITY;
  /**
   * When the latest change was read (the clock's time): the bounce window runs from it. Frames that
   * change the board within the window are recorded without starting the window again.
   */
  readAt: number;
  /** Time of the latest frame, changed or not (a heartbeat shows the board is current). */
  frameAt = 0;
  /**
   * Moves committed or taken back since the board last changed. The same board read again and
   * again must not keep changing the record: past a few, the reader stops and says so.
   */
  commitsSinceChange = 0;
  /** When each square's reading last changed (evidence for strays and dead sensors). */
  readonly squareChangedAt: Float64Array;
  /**
   * When each square's latest spell of reading a piece (set down, read longer than a bounce, then
   * gone) began: its sensor was alive then.
   */
  readonly squareReadFrom: Float64Array;
  /** When each square last started reading a piece after reading none. */
  private readonly filledAt: Float64Array;
  /** Squares lifted since the confirmed position: evidence for captures. */
  readonly lifts: Lifts;
  /**
   * Points where a committed capture's capturer stands on its victim and a colour sensor still reads
   * the victim (rule 15): any piece read there fits, until the reading changes.
   */
  readonly covered = new Set<Square>();
  /** Covered points reading empty for now, since when and what they read before (a flicker, maybe). */
  private readonly uncovering = new Map<Square, { readonly t: number; readonly was: string }>();
  /** Squares taken for dead sensors: their readings are ignored (a new set at each change). */
  mask: ReadonlySet<Square> = new Set();
  /** The cells of the last position asked for (the game hands out one object per position). */
  private expected: { readonly pos: Position; readonly cells: Cells } | undefined;

  constructor(
    private readonly sensing: Sensing,
    private readonly bounceMs: number,
    now: number,
  ) {
    this.readAt = now;
    this.squareChangedAt = new Float64Array(90).fill(now);
    this.squareReadFrom = new Float64Array(90).fill(Number.NEGATIVE_INFINITY);
    this.filledAt = new Float64Array(90).fill(Number.NEGATIVE_INFINITY);
    this.lifts = new Lifts(bounceMs);
  }

  /** What `pos` shows the sensors, worked out once per position: every frame needs it. */
  cellsOf(pos: Position): Cells {
    if (this.expected?.pos !== pos) this.expected = { pos, cells: expectedCells(pos, this.sensing) };
    return this.expected.cells;
  }

  /**
   * A frame at `t` (read at the clock's `readAt`) that changed the board, `confirmed` the cells
   * of the confirmed position. A dead sensor whose reading changes is alive after all: unmasked.
   * `since`: frames were lost before this one, so the board may have held still as it reads now
   * since just after the last frame before them (`stillFrom`): a takeback may have stood since
   * then. A move is not taken as settled from then: the gap may have hidden a slide going on.
   */
  record(t: number, cells: Cells, readAt: number, confirmed: Cells, since?: number): void {
    const previous = this.cells;
    const squareChangedAt = this.squareChangedAt;
    let mask = this.mask;
    for (let s = 0; s < 90; s++) {
      if (previous !== undefined && previous[s] === cells[s]) continue;
      squareChangedAt[s] = t;
      if (previous !== undefined && previous[s] === '.') this.filledAt[s] = t;
      else if (cells[s] === '.' && t - this.filledAt[s]! >= this.bounceMs)
        this.squareReadFrom[s] = this.filledAt[s]!;
      if (this.covered.size > 0 && this.covered.has(s)) this.uncover(s, t, cells[s]!, previous?.[s]);
      // (The first frame changes nothing that was read: a mask given beforehand stands.)
      if (previous !== undefined && mask.has(s)) {
        mask = new Set(mask);
        (mask as Set<Square>).delete(s);
      }
    }
    this.mask = mask;
    this.stillFrom = since !== undefined && since < t ? since + 1 : t;
    if (this.stillFrom < t) {
      this.gapFrameAt = t;
      this.lostUntil = t;
    }
    this.lifts.observe(confirmed, cells, t, mask, this.stillFrom);
    this.cells = cells;
    this.commitsSinceChange = 0;
    this.changedAt = t;
    this.readAt = readAt;
    this.frameAt = t;
  }

  /**
   * A covered point's reading changed to `reads`: it is no longer covered, unless it only flickered
   * empty (a hand touching the stack) and reads the victim again within a bounce.
   */
  private uncover(s: Square, t: number, reads: string, was: string | undefined): void {
    const gone = this.uncovering.get(s);
    this.uncovering.delete(s);
    if (reads === '.' && was !== undefined) this.uncovering.set(s, { t, was });
    else if (gone === undefined || gone.was !== reads || t - gone.t >= this.bounceMs) this.covered.delete(s);
  }

  /** A frame that shows the board unchanged: it is current at `t`. */
  heartbeat(t: number, since?: number): void {
    // (After lost frames: what the gap may have hidden of the readings before it.)
    if (since !== undefined && since < t && this.cells !== undefined) {
      this.lifts.gap(since + 1, t, this.cells);
      this.lostUntil = t;
    }
    this.frameAt = t;
  }

  /** A masked square changes in `cells` (its sensor is alive: the fault alert ends). */
  unmasks(cells: Cells): boolean {
    if (this.mask.size === 0 || this.cells === undefined) return false;
    for (const s of this.mask) if (this.cells[s] !== cells[s]) return true;
    return false;
  }
}
