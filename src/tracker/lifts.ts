/**
 * Which intersections were lifted since the confirmed position, and when each lift began: the
 * evidence that tells a capture from a piece merely held. A reading that changes back within the
 * bounce window is a flicker, not the end or the start of a lift.
 */
import type { Square } from '../rules/index.js';
import type { Cells } from '../sensors/snapshot.js';

/** A spell an empty point read occupied: `[from, to)`, `to` infinite while it still does. */
export interface Spell {
  from: number;
  to: number;
}

interface OpenLift {
  since: number;
  /** When the square read occupied again (the lift ends if that holds for a bounce window). */
  back?: number | undefined;
}

export class Lifts {
  private readonly open = new Map<Square, OpenLift>();
  private readonly closed = new Map<Square, number>();
  /** The first lift of each square since the confirmed position: when its piece left. */
  private readonly firstClosed = new Map<Square, number>();
  /**
   * Squares whose first lift was seen in a frame after lost frames: the soonest their piece may
   * have left (just after the last frame before the gap), sooner than the lift's `since`.
   */
  private readonly unseenDepartures = new Map<Square, number>();

  /**
   * Empty intersections seen occupied since the confirmed position: the points a sliding piece
   * passed over (or a flicker).
   */
  private readonly visits = new Set<Square>();
  /**
   * For each of those empty intersections, the times its reading changed since the confirmed
   * position (first to occupied, then to empty, and so on): when a piece landed there and when it
   * was taken off again (a piece just set down and taken at once by the opponent's hand).
   */
  private readonly visitTimes = new Map<Square, number[]>();

  /**
   * The readings of empty points kept at the last reset, and the cells they were of: a move taken
   * back at once (a slide's resting point read as its landing, then left: master 125) returns to
   * that position, and what was seen since it (the slide's trail) is its evidence again.
   */
  private kept: { cells: Cells; times: Map<Square, number[]> } | undefined;
  /** The cells the evidence is of (`expected` at the last reset). */
  private of: Cells | undefined;
  /**
   * Points a move taken back at once was read landing on: passed over, no piece's stay (their
   * readings, restored, would read that landing again).
   */
  private readonly passedOver = new Set<Square>();

  constructor(private readonly bounceMs: number) {}

  /**
   * A frame at `t`: `expected` are the cells of the confirmed position. A masked square (a dead
   * sensor) is no evidence: its reading says nothing of a piece lifted.
   */
  observe(expected: Cells, cells: Cells, t: number, mask?: ReadonlySet<Square>, from = t): void {
    if (from < t) this.gap(from, t, cells);
    for (let sq = 0; sq < 90; sq++) {
      if (expected[sq] === '.') {
        const occupied = cells[sq] !== '.';
        if (occupied) this.visits.add(sq);
        const times = this.visitTimes.get(sq);
        if (times === undefined) {
          if (occupied) this.visitTimes.set(sq, [t]);
        } else if (occupied === (times.length % 2 === 0)) times.push(t);
        continue;
      }
      if (mask !== undefined && mask.size > 0 && mask.has(sq)) {
        this.open.delete(sq);
        continue;
      }
      const lift = this.open.get(sq);
      if (cells[sq] === '.') {
        if (!lift) this.openLift(sq, t, from);
        else if (lift.back !== undefined) {
          if (t - lift.back < this.bounceMs)
            lift.back = undefined; // it flickered: the lift goes on
          else {
            this.close(sq, lift);
            this.openLift(sq, t, from);
          }
        }
      } else if (lift && lift.back === undefined) {
        lift.back = t;
      }
    }
  }

  /**
   * Frames were lost after `from - 1`, and the frame at `t` shows `cells`: a reading that flickered
   * off in the last frame before them, empty now, may have come back within the bounce, as a
   * landing's does, and held into the gap. Its end is unknown, as late as `t`: it is no flicker.
   */
  gap(from: number, t: number, cells: Cells): void {
    for (const [sq, times] of this.visitTimes) {
      const n = times.length;
      if (n >= 2 && n % 2 === 0 && times[n - 1] === from - 1 && cells[sq] === '.') times[n - 1] = t;
    }
  }

  /** Lifts that lasted at least a bounce window, with the time each began (the latest per square). */
  at(now: number, mask?: ReadonlySet<Square>): Map<Square, number> {
    const out = new Map(this.closed);
    for (const [sq, lift] of this.open) {
      if ((lift.back ?? now) - lift.since >= this.bounceMs) out.set(sq, lift.since);
    }
    return unmasked(out, mask);
  }

  /** Like `at`, but the first lift of each square: the order in which pieces left. */
  firstAt(now: number, mask?: ReadonlySet<Square>): Map<Square, number> {
    const out = new Map(this.firstClosed);
    for (const [sq, lift] of this.open) {
      if (!out.has(sq) && (lift.back ?? now) - lift.since >= this.bounceMs) out.set(sq, lift.since);
    }
    return unmasked(out, mask);
  }

  /**
   * The first lifts seen only after lost frames, with the soonest each piece may have left (before
   * `firstAt` says): a move's landing, and so the reply's start, may be that much sooner.
   */
  departedAfterGap(): ReadonlyMap<Square, number> {
    return this.unseenDepartures;
  }

  /** Empty points seen occupied since the confirmed position (see `visits`). */
  visited(): ReadonlySet<Square> {
    return this.visits;
  }

  /** When an empty point of the confirmed position first read occupied since then (any reading). */
  firstVisit(sq: Square): number | undefined {
    return this.visitTimes.get(sq)?.[0];
  }

  /**
   * When an empty point of the confirmed position first read occupied since then, each change of
   * its reading after (on, off, on…): what a slide or a bounce did there, however quick.
   */
  readingsOf(sq: Square): readonly number[] | undefined {
    return this.visitTimes.get(sq);
  }

  /**
   * The spells an empty point of the confirmed position read occupied since then: `[from, to)`,
   * `to` infinite while it still reads occupied. Empty when it never did. Unless `all`, flickers
   * (shorter than a bounce window, either way) are left out, and a point only passed over (see
   * `resetBack`) has none.
   */
  spells(sq: Square, all = false): Spell[] {
    const times = this.visitTimes.get(sq);
    const out: Spell[] = [];
    if (times === undefined || (!all && this.passedOver.has(sq))) return out;
    for (let k = 0; k < times.length; k += 2) {
      const from = times[k]!;
      const to = times[k + 1] ?? Number.POSITIVE_INFINITY;
      const prev = out[out.length - 1];
      // (Empty for less than a bounce: the same spell goes on.)
      if (prev !== undefined && from - prev.to < this.bounceMs) prev.to = to;
      else out.push({ from, to });
    }
    return all ? out : out.filter((spell) => spell.to - spell.from >= this.bounceMs);
  }

  /**
   * A move was committed: only lifts still under way on squares the new position occupies remain,
   * and those that came after the next mover began (`mover`: a square of the side to move now):
   * they are the next move's evidence (a target lifted after its capturer).
   */
  reset(expected: Cells, mover?: (sq: Square) => boolean): void {
    // (Kept only until the new position has been seen as it is: a move taken back later is a
    // takeback, its old readings no evidence for the moves played instead.)
    this.kept =
      this.of !== undefined && this.of !== expected
        ? { cells: this.of, times: new Map(this.visitTimes) }
        : undefined;
    this.of = expected;
    this.visits.clear();
    this.visitTimes.clear();
    this.passedOver.clear();
    let start = Number.POSITIVE_INFINITY;
    if (mover) {
      for (const [sq, lift] of this.open) {
        if (lift.back === undefined && expected[sq] !== '.' && mover(sq)) start = Math.min(start, lift.since);
      }
    }
    for (const [sq, since] of [...this.closed]) if (since < start) this.closed.delete(sq);
    for (const [sq, since] of [...this.firstClosed]) if (since < start) this.firstClosed.delete(sq);
    for (const [sq, lift] of [...this.open]) {
      if (expected[sq] === '.' || (lift.back !== undefined && lift.since < start)) this.open.delete(sq);
    }
    for (const sq of [...this.unseenDepartures.keys()])
      if (!this.open.has(sq) && !this.firstClosed.has(sq)) this.unseenDepartures.delete(sq);
  }

  /**
   * The last move was taken back, returning to `expected`: a reset, then, if that is the position
   * the evidence was of before the move, the readings of its empty points since it are restored:
   * those kept at the move, the move's landing point taken off again since, and those seen since.
   */
  resetBack(expected: Cells, mover?: (sq: Square) => boolean): void {
    const kept = this.kept;
    const landed = this.of;
    const sinceTimes = new Map(this.visitTimes);
    const off = this.firstAt(Number.POSITIVE_INFINITY);
    this.reset(expected, mover);
    this.kept = undefined;
    if (kept?.cells !== expected) return;
    for (let sq = 0; sq < 90; sq++) {
      if (expected[sq] !== '.') continue;
      const times = [...(kept.times.get(sq) ?? [])];
      const left = off.get(sq);
      if (times.length % 2 === 1 && left !== undefined) times.push(left);
      (sinceTimes.get(sq) ?? []).forEach((t, k) => {
        if ((times.length % 2 === 0) === (k % 2 === 0) && !(t < (times.at(-1) ?? t))) times.push(t);
      });
      if (times.length === 0) continue;
      this.visitTimes.set(sq, times);
      this.visits.add(sq);
      if (landed !== undefined && landed[sq] !== '.') this.passedOver.add(sq);
    }
  }

  /** A point of the confirmed position has read empty since `t`: a lift under way. */
  liftedSince(sq: Square, t: number): void {
    if (!this.open.has(sq)) this.open.set(sq, { since: t });
  }

  /**
   * A lift seen begin at `t`, the piece gone since `from` at the soonest (lost frames before `t`).
   * (A flicker before it, shorter than a bounce, was no lift: this may still be the first.)
   */
  private openLift(sq: Square, t: number, from: number): void {
    this.open.set(sq, { since: t });
    // (Its first lift: when its piece left, as far as the frames can tell.)
    if (!this.firstClosed.has(sq)) {
      if (from < t) this.unseenDepartures.set(sq, from);
      else this.unseenDepartures.delete(sq);
    }
  }

  private close(sq: Square, lift: OpenLift): void {
    if (lift.back !== undefined && lift.back - lift.since >= this.bounceMs) {
      this.closed.set(sq, lift.since);
      if (!this.firstClosed.has(sq)) this.firstClosed.set(sq, lift.since);
    }
    this.open.delete(sq);
  }
}

/**
 * The soonest the piece on `sq` may have left: its first lift (`first`, as `Lifts.firstAt` gives),
 * or, when that was seen only after lost frames (`gap`, as `Lifts.departedAfterGap`), just after
 * the last frame before them. Undefined when it was not seen lift.
 */
export function soonestDeparture(
  first: ReadonlyMap<Square, number>,
  gap: ReadonlyMap<Square, number> | undefined,
  sq: Square,
): number | undefined {
  const t = first.get(sq);
  return t === undefined ? undefined : Math.min(t, gap?.get(sq) ?? t);
}

function unmasked(lifts: Map<Square, number>, mask: ReadonlySet<Square> | undefined): Map<Square, number> {
  if (mask !== undefined) for (const sq of mask) lifts.delete(sq);
  return lifts;
}
