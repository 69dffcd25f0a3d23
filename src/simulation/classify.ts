/**
 * Judges a move reader's record of one game against what was really played (the generator's truth
 * timeline): `exact`, `alerted` (every error episode covered by an alert in time) or `silent`
 * (wrong, and no alert in time). Pure: the tests and scripts/real-play.ts share it.
 */
import type { TruthEvent } from './real-play.js';

/** What the classifier reads of the reader's output (the move reader's emitted events fit it). */
export interface ReaderEvent {
  readonly type: string;
  readonly t: number;
  readonly ply?: number;
  readonly iccs?: string;
  readonly alert?: { readonly kind: string; readonly square?: string };
  readonly kind?: string;
}

export interface ClassifyInput {
  readonly truth: readonly TruthEvent[];
  readonly emitted: readonly ReaderEvent[];
  /** Time of the log's last event. */
  readonly end: number;
  /** A dead sensor: its square in ICCS, when it died, the first ply (1-based) using it after that. */
  readonly dead?: {
    readonly iccs: string;
    readonly fromT: number;
    readonly firstUsePly?: number | undefined;
  };
}

export type GameClass = 'exact' | 'alerted' | 'silent';

export interface Episode {
  readonly start: number;
  /** When the record stopped being wrong; undefined when still wrong at the end. */
  readonly end: number | undefined;
  /** The first ply (1-based) where the records differ at the start, and both records from there. */
  readonly ply: number;
  readonly reader: readonly string[];
  readonly game: readonly string[];
  /** The alert that covers it, if any (raised in time, or still standing at its start). */
  readonly alert: { readonly kind: string; readonly t: number } | undefined;
}

export interface Classification {
  readonly kind: GameClass;
  readonly episodes: readonly Episode[];
  readonly reader: readonly string[];
  readonly game: readonly string[];
  /** Dead sensor used after it died: whether a `sensor_fault` alert named it within 10 plies of that use. */
  readonly deadNamed?: boolean;
  /** The first `sensor_fault` alert naming the dead square after it died. */
  readonly deadNamedAt?: number;
}

/** An episode shorter than this is a reader's lag, not an error. */
export const EPISODE_MIN_MS = 1000;
/** An alert covers an episode raised at most this long after it starts. */
export const ALERT_WITHIN_MS = 2500;
/** A dead square used by the game is to be named within this many plies of its first use. */
export const DEAD_NAMED_WITHIN_PLIES = 10;
/** Alerts that say nothing about the record being wrong. */
const NOT_COVERING = new Set(['check', 'play_on']);

const isPrefix = (a: readonly string[], b: readonly string[]): boolean =>
  a.length <= b.length && a.every((m, i) => b[i] === m);
const same = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && isPrefix(a, b);

/**
 * Divergent: the reader has a move that was not played (or a wrong one, or one taken back where
 * the sensors have shown it), or is two or more moves behind what the sensors have shown (`shown`,
 * by default the game).
 */
export const divergent = (
  reader: readonly string[],
  game: readonly string[],
  shown: readonly string[] = game,
): boolean => (!isPrefix(reader, game) && !isPrefix(reader, shown)) || shown.length - reader.length >= 2;

/** A record (ICCS) after a move or a takeback at `ply`: what a reader or the game's truth says. */
export function applyToRecord(
  record: string[],
  kind: 'move' | 'retract',
  ply: number,
  iccs: string | undefined,
): void {
  record.length = Math.min(record.length, ply - 1);
  if (kind === 'move') record.push(iccs ?? '?');
}

export function classify(input: ClassifyInput): Classification {
  // The game as played, and as the sensors showed it (`seen`): a move is invented if it was not
  // played yet, and missed only once shown, as no reader can know it sooner; so is a takeback.
  const truth = [...input.truth].sort((a, b) => a.t - b.t);
  const shownTruth = input.truth
    .map((e) => (e.seen !== undefined ? { ...e, t: e.seen } : e))
    .sort((a, b) => a.t - b.t);
  const recorded = input.emitted.filter(
    (e) => (e.type === 'move' || e.type === 'retract') && e.ply !== undefined,
  );
  const times = [
    ...new Set([...truth.map((e) => e.t), ...shownTruth.map((e) => e.t), ...recorded.map((e) => e.t)]),
  ].sort((a, b) => a - b);
  const horizon = Math.max(input.end, times.at(-1) ?? 0);

  // Sweep the moments either record changes; between them both records stand still.
  const reader: string[] = [];
  const game: string[] = [];
  const shown: string[] = [];
  const spans: { t: number; divergent: boolean; differs: boolean; reader: string[]; game: string[] }[] = [];
  let gi = 0;
  let si = 0;
  let ri = 0;
  for (const t of times) {
    for (; gi < truth.length && truth[gi]!.t === t; gi++) {
      const e = truth[gi]!;
      applyToRecord(game, e.kind, e.ply, e.kind === 'move' ? e.iccs : undefined);
    }
    for (; si < shownTruth.length && shownTruth[si]!.t === t; si++) {
      const e = shownTruth[si]!;
      applyToRecord(shown, e.kind, e.ply, e.kind === 'move' ? e.iccs : undefined);
    }
    for (; ri < recorded.length && recorded[ri]!.t <= t; ri++) {
      const e = recorded[ri]!;
      applyToRecord(reader, e.type as 'move' | 'retract', e.ply!, e.iccs);
    }
    spans.push({
      t,
      divergent: divergent(reader, game, shown),
      differs: !same(reader, game),
      reader: [...reader],
      game: [...game],
    });
  }

  const raw: { start: number; end: number | undefined; at: (typeof spans)[number] }[] = [];
  for (let i = 0; i < spans.length; i++) {
    if (!spans[i]!.divergent) continue;
    let j = i;
    while (j + 1 < spans.length && spans[j + 1]!.divergent) j++;
    const end = j + 1 < spans.length ? spans[j + 1]!.t : undefined;
    if (end === undefined || end - spans[i]!.t >= EPISODE_MIN_MS)
      raw.push({ start: spans[i]!.t, end, at: spans[i]! });
    i = j;
  }
  // Wrong at the end though not divergent (the last move missed): an episode since it differs,
  // but not since before the last episode ended (what that one covered is its own: the record
  // then was wrong in its way, and only a move behind before it).
  if (!same(reader, game) && (raw.length === 0 || raw.at(-1)!.end !== undefined)) {
    const after = raw.at(-1)?.end ?? Number.NEGATIVE_INFINITY;
    let i = spans.length - 1;
    while (i > 0 && spans[i - 1]!.differs && spans[i - 1]!.t >= after) i--;
    if (spans[i]) raw.push({ start: spans[i]!.t, end: undefined, at: spans[i]! });
  }

  const episodes: Episode[] = raw.map(({ start, end, at }) => {
    let ply = 0;
    while (ply < at.reader.length && at.reader[ply] === at.game[ply]) ply++;
    return {
      start,
      end,
      ply: ply + 1,
      reader: at.reader.slice(ply),
      game: at.game.slice(ply),
      alert: coveringAlert(input.emitted, start),
    };
  });

  const kind: GameClass =
    episodes.length === 0 && same(reader, game)
      ? 'exact'
      : episodes.every((e) => e.alert !== undefined)
        ? 'alerted'
        : 'silent';
  const result: Classification = { kind, episodes, reader, game };
  if (!input.dead) return result;
  return { ...result, ...deadNaming(input, truth, horizon) };
}

/** An alert raised in [start, start + 2.5 s], or raised before and not cleared by `start`. */
function coveringAlert(
  emitted: readonly ReaderEvent[],
  start: number,
): { kind: string; t: number } | undefined {
  const standing = new Map<string, number>();
  for (const e of emitted) {
    if (e.t > start) break;
    if (e.type === 'alert' && e.alert && !NOT_COVERING.has(e.alert.kind)) standing.set(e.alert.kind, e.t);
    else if (e.type === 'alertCleared' && e.kind !== undefined) standing.delete(e.kind);
  }
  for (const [kind, t] of standing) if (t < start) return { kind, t };
  const late = emitted.find(
    (e) =>
      e.type === 'alert' &&
      e.alert &&
      !NOT_COVERING.has(e.alert.kind) &&
      e.t >= start &&
      e.t <= start + ALERT_WITHIN_MS,
  );
  return late ? { kind: late.alert!.kind, t: late.t } : undefined;
}

function deadNaming(
  input: ClassifyInput,
  truth: readonly TruthEvent[],
  horizon: number,
): { deadNamed?: boolean; deadNamedAt?: number } {
  const dead = input.dead!;
  const named = input.emitted.find(
    (e) =>
      e.type === 'alert' &&
      e.alert?.kind === 'sensor_fault' &&
      e.alert.square === dead.iccs &&
      e.t >= dead.fromT,
  );
  const out: { deadNamed?: boolean; deadNamedAt?: number } = named ? { deadNamedAt: named.t } : {};
  if (dead.firstUsePly === undefined) return out;
  // Ten plies after the first use, or the end of play (and the alert window) if the game ends sooner.
  const limitPly = dead.firstUsePly + DEAD_NAMED_WITHIN_PLIES;
  const deadline = truth.find((e) => e.kind === 'move' && e.ply === limitPly)?.t ?? horizon + ALERT_WITHIN_MS;
  return { ...out, deadNamed: named !== undefined && named.t <= deadline };
}
