/**
 * How far any move reader can name a dead sensor (rule 12): a game has a *twin* when another dead
 * point and another move, played by the same hands at the same moments, give frame for frame the
 * same readings through the ten plies the naming is judged on. A reader sees the same in both, so
 * whatever it names is wrong in one of them; naming the dead point there is luck, not reading, and
 * a reader that never records a move it cannot tell cannot do it. Pure: it reads the frames of the
 * same physical play with the sensor alive (`physicalPlay` without the dead sensor draws the same).
 */
import { between, type Move, type Position, type Square } from '../rules/index.js';
import { DEAD_NAMED_WITHIN_PLIES } from './classify.js';
import type { DeadSensor, PhysicalEvent, TruthEvent } from './real-play.js';

/** The other dead point and move that read the same as the game as played. */
export interface DeadTwin {
  /** The real first use of the dead point (a piece carried onto it, or off it). */
  readonly played: Move;
  /** The twin's move in its place, and its dead point. */
  readonly move: Move;
  readonly dead: Square;
}

export interface TwinInput {
  readonly start: Position;
  readonly moves: readonly Move[];
  readonly dead: DeadSensor;
  /** The frames of the same physical play with every sensor alive. */
  readonly live: readonly PhysicalEvent[];
  /** Its truth (each move when it became physically complete). */
  readonly truth: readonly TruthEvent[];
  /** When the sensor died. */
  readonly diedAt: number;
}

/** A piece lifted bounces for at most this long before its point reads empty for good. */
const BOUNCE_MS = 60;

/**
 * A twin of the game, or undefined when none of the kinds below fits (the game may still have
 * one: this is a floor on the games no reader can name, so a ceiling on naming).
 * - Reading empty: a piece carried onto the dead point, unseen; in the twin it went to another
 *   point it could reach, empty and unread all along, that point dead.
 * - Reading occupied: a piece carried off the dead point, its leaving unseen; in the twin another
 *   of the mover's pieces, which could land there, made the move from a point that never changed,
 *   that point dead, and the first piece stayed.
 * Only a death that changed no reading, a move that lit nothing on its way, and ten plies after it
 * legal in the twin, with no change on the twin's dead point, count. A piece carried onto the dead
 * point may be carried on from it (in the twin, from the twin's point).
 */
export function deadTwin(input: TwinInput): DeadTwin | undefined {
  const { start, moves, dead, live, truth, diedAt } = input;
  const d = dead.square;
  const first = moves.findIndex((m, i) => i >= dead.fromPly && (m.from === d || m.to === d));
  if (first < 0) return undefined;
  const pos = start.clone();
  for (let i = 0; i < dead.fromPly; i++) pos.play(moves[i]!);
  // (A death that changed the reading is seen as it happens.)
  if ((pos.colorAt(d) !== 0) !== (dead.reads === 'occupied')) return undefined;
  for (let i = dead.fromPly; i < first; i++) pos.play(moves[i]!);
  const played = moves[first]!;
  const moveAt = (ply: number): number | undefined =>
    truth.find((e) => e.kind === 'move' && e.ply === ply)?.t;
  // (A move taken back and played again in the window is played twice: no twin is looked for.)
  const window = (ply: number) => ply > first && ply <= first + 1 + DEAD_NAMED_WITHIN_PLIES;
  if (truth.some((e) => e.kind === 'retract' && window(e.ply))) return undefined;
  const before = first === 0 ? 0 : (moveAt(first) ?? 0);
  const done = moveAt(first + 1);
  const deadline = moveAt(first + 1 + DEAD_NAMED_WITHIN_PLIES) ?? Number.POSITIVE_INFINITY;
  if (done === undefined) return undefined;
  const column = readings(live);
  const still = (sq: Square, from: number, to: number): boolean => column(sq, from, to).length <= 1;
  // The move lit nothing on its way (a slide would: no twin move lights the same points).
  if (between(played.from, played.to).some((sq) => !still(sq, before, done))) return undefined;
  const later = moves.slice(first + 1, first + 1 + DEAD_NAMED_WITHIN_PLIES);
  // `carried`: the piece on the dead point (the twin's) may move on, carried as it came (reading
  // empty, the dead point shows nothing of it leaving, nor the twin's); from then on both points
  // read empty, the real one dead, the twin's sound, and nothing may pass or land on either.
  const twinHolds = (move: Move, twinDead: Square, carried: boolean): boolean => {
    if (!pos.isLegal(move)) return false;
    // (The twin's sensor may have died at any moment its reading did not change: just before.)
    if (!still(twinDead, before, deadline)) return false;
    const twin = pos.clone();
    twin.play(move);
    let onDead = carried;
    for (const [k, m] of later.entries()) {
      let next = m;
      if (onDead && m.from === d) {
        const from = moveAt(first + 1 + k);
        const at = moveAt(first + 2 + k);
        if (from === undefined || at === undefined) return false;
        if (between(d, m.to).some((sq) => !still(sq, from, at)) || !still(d, at, deadline)) return false;
        next = { from: twinDead, to: m.to };
        onDead = false;
      } else if ([d, twinDead].includes(m.from) || [d, twinDead].includes(m.to)) return false;
      if (!twin.isLegal(next)) return false;
      twin.play(next);
    }
    return true;
  };
  if (dead.reads === 'empty' && played.to === d && pos.colorAt(d) === 0) {
    // Nothing passed over the dead point before the piece came (the twin's sensor there lives).
    const readBefore = column(d, diedAt, done - 1);
    if (readBefore.length !== 1 || readBefore[0] !== '.') return undefined;
    for (const to of pos.legalDestinations(played.from)) {
      if (to === d || pos.colorAt(to) !== 0) continue;
      const move = { from: played.from, to };
      if (twinHolds(move, to, true)) return { played, move, dead: to };
    }
    return undefined;
  }
  if (dead.reads === 'occupied' && played.from === d) {
    // The piece stood untouched until it left (the twin's sensor there lives, its piece stays).
    const left = changeTimes(live, d, diedAt, done);
    if (left.length === 0 || left.at(-1)! - left[0]! > BOUNCE_MS || column(d, diedAt, done).at(-1) !== '.')
      return undefined;
    const side = pos.colorAt(d);
    for (let o = 0; o < 90; o++) {
      if (o === d || pos.colorAt(o) !== side) continue;
      const move = { from: o, to: played.to };
      if (twinHolds(move, o, false)) return { played, move, dead: o };
    }
  }
  return undefined;
}

/** A point's readings (cells' characters) over [from, to]: the one it had at `from`, then each change. */
function readings(events: readonly PhysicalEvent[]): (sq: Square, from: number, to: number) => string[] {
  const frames = events.filter((e) => e.type === 'snapshot');
  return (sq, from, to) => {
    const out: string[] = [];
    let last: string | undefined;
    for (const f of frames) {
      const r = f.cells[sq]!;
      if (f.t > to) break;
      if (f.t < from) {
        last = r;
        continue;
      }
      if (out.length === 0 && last !== undefined) out.push(last);
      if (out.at(-1) !== r) out.push(r);
    }
    if (out.length === 0 && last !== undefined) out.push(last);
    return out;
  };
}

/** When a point's reading changed within [from, to]. */
function changeTimes(events: readonly PhysicalEvent[], sq: Square, from: number, to: number): number[] {
  const out: number[] = [];
  let last: string | undefined;
  for (const e of events) {
    if (e.type !== 'snapshot') continue;
    const r = e.cells[sq];
    if (last !== undefined && r !== last && e.t >= from && e.t <= to) out.push(e.t);
    last = r;
  }
  return out;
}

/**
 * Two runs' frames read the same, change for change, on every point but `sq` (the twin's premise:
 * the play with the sensor alive differs from the game's on the dead point alone).
 */
export function sameElsewhere(a: readonly PhysicalEvent[], b: readonly PhysicalEvent[], sq: Square): boolean {
  const seen = (events: readonly PhysicalEvent[]): string[] => {
    const out: string[] = [];
    let last = '';
    for (const e of events) {
      if (e.type === 'button') out.push(`${e.t} ${e.side}`);
      else {
        const cells = `${e.cells.slice(0, sq)}?${e.cells.slice(sq + 1)}`;
        if (cells !== last) out.push(`${e.t} ${cells}`);
        last = cells;
      }
    }
    return out;
  };
  const x = seen(a);
  const y = seen(b);
  return x.length === y.length && x.every((k, i) => k === y[i]);
}
