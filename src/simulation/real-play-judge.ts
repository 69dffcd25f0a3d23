/**
 * The conditions of real play (rules 10–16) the move reader is judged on, and the judging itself:
 * each game played physically under a condition, read back, classified (./classify.ts), tallied
 * into a row of the table. Shared by scripts/real-play.ts and test/tracker/real-play.test.ts.
 */
import { type Move, makeSquareName, Position, parseIccs, parseSquare, type Square } from '../rules/index.js';
import type { Sensing } from '../sensors/snapshot.js';
import type { TrackerEmitted } from '../tracker/machine.js';
import { asPublished, type RunOptions, runSensorEvents } from '../tracker/run.js';
import { applyToRecord, type Classification, classify, type Episode, type GameClass } from './classify.js';
import { type PhysicalOptions, physicalPlay } from './physical-play.js';
import { rng } from './random.js';
import { type Answer, pickDeadSquare, REAL_SPEC, type TruthEvent } from './real-play.js';

export interface GameSpec {
  readonly label: string;
  readonly start: Position;
  readonly moves: readonly Move[];
}

export interface Condition {
  readonly id: string;
  readonly title: string;
  /** The options for game `k`, or undefined when the condition cannot apply to it (no such square). */
  readonly options: (
    game: GameSpec,
    base: PhysicalOptions,
    random: () => number,
  ) => PhysicalOptions | undefined;
  /** A dead-sensor row: report whether the square was named. */
  readonly dead?: 'used' | 'unused';
  /**
   * What the players do with an alert over a dead sensor: `answering`, what it asks them to check
   * (lift pieces and set them back); `choosing`, say which candidate they played (`game/resolve`).
   */
  readonly players?: Players;
  /** The row whose games and handling (dead squares too) this one plays, when it differs only in the players. */
  readonly sameAs?: string;
}

const withReal = (real: PhysicalOptions['real']) => (_: GameSpec, base: PhysicalOptions) => ({
  ...base,
  real,
});

const deadSquare =
  (kind: 'used' | 'unused', fromPly: (n: number, random: () => number) => number | undefined) =>
  (game: GameSpec, base: PhysicalOptions, random: () => number): PhysicalOptions | undefined => {
    const ply = fromPly(game.moves.length, random);
    if (ply === undefined) return undefined;
    const dead = pickDeadSquare(game.start, game.moves, kind, ply, random, base.buttons === true);
    return dead ? { ...base, real: { dead } } : undefined;
  };

/** A dead square the game uses, from the start in half the games, else from a ply of its first half. */
const deadUsed = deadSquare('used', (n, random) =>
  n < 2 ? undefined : random() < 0.5 ? 0 : 1 + Math.floor(random() * Math.floor(n / 2)),
);

/** The rows of the table, each rule alone at the intensities of REAL_SPEC, then the model's own. */
export const CONDITIONS: readonly Condition[] = [
  { id: 'model', title: 'the model (rules 1–9)', options: (_, base) => base },
  {
    id: 'fast_pace',
    title: '10 blitz: next lift 120–350 ms after the last landing',
    options: withReal({ fastPace: REAL_SPEC.fastPace }),
  },
  {
    id: 'fast_reply',
    title: '10 blitz: reply lifted 50–200 ms after the landing',
    options: withReal({ fastReply: REAL_SPEC.fastReply }),
  },
  {
    id: 'hesitate',
    title: '11 slide resting 150–600 ms on the way',
    options: withReal({ hesitate: REAL_SPEC.hesitate }),
  },
  {
    id: 'dead_used',
    title: '12 dead sensor on a square the game uses (from the start or mid-game)',
    dead: 'used',
    options: deadUsed,
  },
  {
    id: 'dead_used_answered',
    title: '12 dead sensor the game uses, players lifting the pieces the alert asks for',
    dead: 'used',
    players: 'answering',
    sameAs: 'dead_used',
    options: deadUsed,
  },
  {
    id: 'dead_used_chosen',
    title: '12 dead sensor the game uses, players saying which candidate they played',
    dead: 'used',
    players: 'choosing',
    sameAs: 'dead_used',
    options: deadUsed,
  },
  {
    id: 'dead_unused_start',
    title: '12 dead sensor on an unused square from the start',
    dead: 'unused',
    options: deadSquare('unused', () => 0),
  },
  {
    id: 'dead_unused_10',
    title: '12 dead sensor on an unused square from ply 10',
    dead: 'unused',
    options: deadSquare('unused', (n) => (n > 10 ? 10 : undefined)),
  },
  {
    id: 'lost_frames',
    title: '13 2 % of frames lost (heartbeat every 1 s)',
    options: withReal({ lostFrames: REAL_SPEC.lostFrames }),
  },
  {
    id: 'knock',
    title: '14 knocked neighbour (5 % of moves), back after 0.3–2 s',
    options: withReal({ knock: REAL_SPEC.knock }),
  },
  {
    id: 'late_removal',
    title: '15 captured piece removed 1–4 s late, every capture',
    options: withReal({ lateRemoval: REAL_SPEC.lateRemoval }),
  },
  {
    id: 'late_removal_lower',
    title: '15 late removal, the colour sensor reading the lower piece until then',
    options: withReal({ lateRemoval: REAL_SPEC.lateRemoval, lowerReads: true }),
  },
  {
    id: 'adjust',
    title: '16 adjusting: nudges and straightened pieces',
    options: withReal({ nudge: REAL_SPEC.nudge, straighten: REAL_SPEC.straighten }),
  },
  {
    id: 'knock_adjust',
    title: '14+16 knocked neighbour and adjusted pieces',
    options: withReal({ knock: REAL_SPEC.knock, nudge: REAL_SPEC.nudge, straighten: REAL_SPEC.straighten }),
  },
];

export interface Failure {
  readonly row: string;
  readonly label: string;
  readonly sensing: Sensing;
  readonly kind: GameClass;
  readonly options: PhysicalOptions;
  readonly firstEpisode: Episode | undefined;
  readonly reader: { readonly plies: number; readonly last: readonly string[] };
  readonly game: { readonly plies: number; readonly last: readonly string[] };
  readonly gameStarted: boolean;
  /** The candidates the players chose (`choosing`), for replaying the game as it was played. */
  readonly choices?: readonly Choice[];
  readonly dead?: { readonly square: string; readonly named: boolean | undefined; readonly namedAt?: number };
}

export interface RowResult {
  readonly id: string;
  readonly title: string;
  readonly sensing: Sensing;
  games: number;
  exact: number;
  alerted: number;
  silent: number;
  /** Games that never started (no gameStart). */
  notStarted: number;
  /** Dead-sensor rows: games that used the dead square after it died, and those that named it in time. */
  deadUsed: number;
  deadNamed: number;
  /** `ambiguous` alerts published again while the same one stood: noise. */
  repeatedAlerts: number;
  /** Moves played in the row's games, and those the reader's final record has at their place. */
  plies: number;
  pliesRight: number;
  readonly failures: Failure[];
}

export interface JudgedGame {
  readonly classification: Classification;
  readonly started: boolean;
  /** What the reader said, in order, each timed when it was published. */
  readonly emitted: readonly TrackerEmitted[];
  /** What was played: the options given, with the players' answers when they answered. */
  readonly options: PhysicalOptions;
  /** The candidates the players chose, and when (`choosing`). */
  readonly choices: readonly Choice[];
  /** What was really played, and when. */
  readonly truth: readonly TruthEvent[];
}

/** Off the board, what players do with a dead-sensor alert (passive: nothing). */
export type Players = 'passive' | 'answering' | 'choosing';

/**
 * What the players said at `t`: which candidate of the standing doubt over a dead sensor they
 * played (`game/resolve`), or, after an alert that the record may be wrong, what they played
 * from `ply` on (`game/correct`).
 */
export type Choice =
  /** (`sensor`: the point the alert gave that candidate as dead, as the players' answer names it.) */
  | { readonly t: number; readonly candidate: number; readonly sensor?: Square }
  | { readonly t: number; readonly ply: number; readonly line: readonly string[] };

/** How long players take to act on an alert that asks them to check pieces. */
export const REACTION_MS = 1500;
/** The most alerts players answer in one game. */
const MAX_ANSWERS = 4;

/**
 * Plays one game under `options`, reads it back with the move reader and classifies it. With
 * `answering` or `choosing`, the players act on the reader's alerts over a dead sensor: the game is played
 * again with each answer, the first alert not yet answered each time (the play before an answer
 * is the same frame for frame, so what the reader said before it is too: a closed loop).
 */
export function judgeGame(
  game: GameSpec,
  options: PhysicalOptions,
  players: Players = 'passive',
): JudgedGame {
  const answers: Answer[] = [];
  const choices: Choice[] = [];
  let answeredUpTo = Number.NEGATIVE_INFINITY;
  for (;;) {
    const played: PhysicalOptions =
      answers.length > 0 ? { ...options, real: { ...options.real, answers: [...answers] } } : options;
    const judged = readBack(game, played, [...choices]);
    if (answers.length + choices.length >= MAX_ANSWERS) return judged;
    if (players === 'answering') {
      const next = firstCheck(judged.emitted, answeredUpTo);
      if (!next) return judged;
      answeredUpTo = next.t;
      answers.push({ after: next.t + REACTION_MS, squares: next.squares });
    } else if (players === 'choosing') {
      const next = firstChoice(judged, answeredUpTo, played.real?.dead?.square);
      if (!next) return judged;
      answeredUpTo = next.after;
      choices.push(next.choice);
    } else return judged;
  }
}

/**
 * What the players say about the first alert after `after` that they can answer: a dead-sensor
 * doubt among whose candidates is the truth (the one whose sensor is `dead`: the players know
 * where they set their pieces down), or an ambiguity after which the record, when they look
 * (REACTION_MS later), has a move they did not play or lacks one they did: they give the moves
 * they played from there.
 */
function firstChoice(
  judged: JudgedGame,
  after: number,
  dead: Square | undefined,
): { after: number; choice: Choice } | undefined {
  if (dead === undefined) return undefined;
  for (const e of judged.emitted) {
    if (e.type !== 'alert' || e.t <= after || e.alert.kind !== 'ambiguous') continue;
    const t = e.t + REACTION_MS;
    if (e.alert.sensors) {
      const candidate = e.alert.sensors.findIndex((s) => parseSquare(s) === dead);
      if (candidate >= 0) return { after: e.t, choice: { t, candidate, sensor: dead } };
      continue;
    }
    const reader = recordAt(judged.emitted, t);
    const game = truthAt(judged.truth, t);
    // The first move the record has wrong, or, the record behind (it could not tell what was
    // played), the first it lacks.
    let ply = reader.findIndex((m, k) => game[k] !== undefined && game[k] !== m);
    if (ply < 0 && reader.length < game.length) ply = reader.length;
    // (They say what they played from there on, as an arbiter correcting a scoresheet would.)
    if (ply >= 0) return { after: e.t, choice: { t, ply: ply + 1, line: game.slice(ply) } };
  }
  return undefined;
}

/** The reader's record (ICCS) as it stood at `t`. */
function recordAt(emitted: readonly TrackerEmitted[], t: number): string[] {
  const record: string[] = [];
  for (const e of emitted) {
    if (e.t > t) break;
    if (e.type === 'move' || e.type === 'retract')
      applyToRecord(record, e.type, e.ply, e.type === 'move' ? e.iccs : undefined);
  }
  return record;
}

/** The game as really played up to `t`. */
function truthAt(truth: readonly TruthEvent[], t: number): string[] {
  const record: string[] = [];
  for (const e of [...truth].sort((a, b) => a.t - b.t)) {
    if (e.t > t) break;
    applyToRecord(record, e.kind, e.ply, e.kind === 'move' ? e.iccs : undefined);
  }
  return record;
}

/** The first alert after `after` that asks the players to lift pieces, and their squares. */
function firstCheck(
  emitted: readonly TrackerEmitted[],
  after: number,
): { t: number; squares: Square[] } | undefined {
  for (const e of emitted) {
    if (e.type !== 'alert' || e.t <= after || !e.alert.check) continue;
    const squares = e.alert.check.map(parseSquare).filter((s): s is Square => s !== undefined);
    if (squares.length > 0) return { t: e.t, squares };
  }
  return undefined;
}

/** The players' choices as what they do off the board during a run (`runSensorEvents`). */
export function choiceActions(choices: readonly Choice[]): NonNullable<RunOptions['actions']> {
  // (A choice the reader refuses, its doubt over meanwhile, is one the players made in vain.)
  return choices.map((c) => ({
    t: c.t,
    run: (tracker) =>
      void ('candidate' in c
        ? tracker.choose(c.candidate, c.sensor)
        : tracker.correct(
            c.ply,
            c.line.flatMap((m) => {
              const move = parseIccs(m);
              return move.ok ? [move.value] : [];
            }),
          )),
  }));
}

function readBack(game: GameSpec, options: PhysicalOptions, choices: readonly Choice[]): JudgedGame {
  const play = physicalPlay(game.start, game.moves, options);
  const run = runSensorEvents(game.start, play.events, {
    sensing: options.sensing,
    actions: choiceActions(choices),
  });
  if (!run.ok) throw new Error(`${game.label}: ${run.error.message}`);
  // (Judged as published: a move read in a world of a doubt counts from when the record had it.)
  const emitted = asPublished(run.value);
  const classification = classify({
    truth: play.truth,
    emitted,
    end: play.events.at(-1)?.t ?? 0,
    ...(play.dead
      ? { dead: { iccs: play.dead.iccs, fromT: play.dead.fromT, firstUsePly: play.dead.firstUsePly } }
      : {}),
  });
  return {
    classification,
    started: emitted.some((e) => e.type === 'gameStart'),
    emitted,
    options,
    choices,
    truth: play.truth,
  };
}

/** Judges `games` under one condition; `seed` makes the handling (and dead squares) reproducible. */
export function judgeRow(
  condition: Condition,
  games: readonly GameSpec[],
  sensing: Sensing,
  seed: number,
  progress?: (done: number, row: RowResult) => void,
): RowResult {
  const row: RowResult = {
    id: condition.id,
    title: condition.title,
    sensing,
    games: 0,
    exact: 0,
    alerted: 0,
    silent: 0,
    notStarted: 0,
    deadUsed: 0,
    deadNamed: 0,
    repeatedAlerts: 0,
    plies: 0,
    pliesRight: 0,
    failures: [],
  };
  const all = rowOptions(condition, games, sensing, seed);
  games.forEach((game, k) => {
    const options = all[k];
    if (!options) return;
    const {
      classification: c,
      started,
      options: played,
      emitted,
      choices,
    } = judgeGame(game, options, condition.players);
    row.repeatedAlerts += repeatedAlerts(emitted);
    row.plies += c.game.length;
    row.pliesRight += c.game.filter((m, i) => c.reader[i] === m).length;
    row.games++;
    row[c.kind]++;
    if (!started) row.notStarted++;
    if (c.deadNamed !== undefined) {
      row.deadUsed++;
      if (c.deadNamed) row.deadNamed++;
    }
    const deadMissed = condition.dead === 'used' && c.deadNamed === false;
    if (c.kind !== 'exact' || deadMissed)
      row.failures.push(failure(condition, game, played, c, started, choices));
    progress?.(k + 1, row);
  });
  return row;
}

/**
 * The reader's `ambiguous` alerts published while the same one (its message) still stood. (A
 * game's `play_on` is said again at each new repetition: no noise.)
 */
export function repeatedAlerts(emitted: readonly TrackerEmitted[]): number {
  let standing: string | undefined;
  let repeated = 0;
  for (const e of emitted) {
    if (e.type === 'alert' && e.alert.kind === 'ambiguous') {
      if (standing === e.alert.message) repeated++;
      standing = e.alert.message;
    } else if (e.type === 'alertCleared' && e.kind === 'ambiguous') standing = undefined;
  }
  return repeated;
}

/**
 * The handling of each game of a row (undefined where the condition cannot apply): what `judgeRow`
 * plays, for replaying one game of it alone.
 */
export function rowOptions(
  condition: Condition,
  games: readonly GameSpec[],
  sensing: Sensing,
  seed: number,
): (PhysicalOptions | undefined)[] {
  const id = condition.sameAs ?? condition.id;
  const random = rng(seed ^ hash(id));
  return games.map((game, k) =>
    condition.options(
      game,
      {
        sensing,
        seed: (seed * 1_000_003 + k * 1009 + hash(id)) >>> 0,
        setupFromEmpty: k % 5 === 0,
        buttons: k % 2 === 0,
      },
      random,
    ),
  );
}

function failure(
  condition: Condition,
  game: GameSpec,
  options: PhysicalOptions,
  c: Classification,
  started: boolean,
  choices: readonly Choice[],
): Failure {
  const dead = options.real?.dead;
  return {
    row: condition.id,
    label: game.label,
    sensing: options.sensing,
    kind: c.kind,
    options,
    firstEpisode: c.episodes[0],
    reader: { plies: c.reader.length, last: c.reader.slice(-4) },
    game: { plies: c.game.length, last: c.game.slice(-4) },
    gameStarted: started,
    ...(choices.length > 0 ? { choices } : {}),
    ...(dead
      ? {
          dead: {
            square: makeSquareName(dead.square),
            named: c.deadNamed,
            ...(c.deadNamedAt !== undefined ? { namedAt: c.deadNamedAt } : {}),
          },
        }
      : {}),
  };
}

const permille = (n: number, of: number): string => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);
const pct = (n: number, of: number): string => (of === 0 ? '—' : `${n} (${Math.round((100 * n) / of)} %)`);

/** The rows as a markdown table. */
export function formatTable(rows: readonly RowResult[]): string {
  const lines = [
    '| condition | sensing | games | exact | alerted | **silent** | named within 10 moves | ambiguous said twice | moves recorded right |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const named = r.deadUsed > 0 ? `${r.deadNamed} of ${r.deadUsed}` : '';
    const started = r.notStarted > 0 ? ` (${r.notStarted} never started)` : '';
    lines.push(
      `| ${r.title} | ${r.sensing} | ${r.games}${started} | ${pct(r.exact, r.games)} | ${pct(r.alerted, r.games)} | **${r.silent}** | ${named} | ${r.repeatedAlerts} | ${permille(r.pliesRight, r.plies)} |`,
    );
  }
  return lines.join('\n');
}

/** A random legal game of up to `plies` from `start` (stops at mate or stalemate). */
export function randomGame(start: Position, plies: number, seed: number): Move[] {
  const random = rng(seed);
  const pos = start.clone();
  const moves: Move[] = [];
  for (let k = 0; k < plies; k++) {
    const legal = pos.legalMoves();
    if (legal.length === 0) break;
    const move = legal[Math.floor(random() * legal.length)]!;
    moves.push(move);
    pos.play(move);
  }
  return moves;
}

/** `count` random games from the start position, 40–119 plies. */
export function randomGames(count: number, seed: number): GameSpec[] {
  const out: GameSpec[] = [];
  for (let k = 0; k < count; k++) {
    const start = Position.default();
    out.push({
      label: `random ${seed}/${k}`,
      start,
      moves: randomGame(start, 40 + (k % 80), seed * 7919 + k),
    });
  }
  return out;
}

/** `count` of `all` spread over the whole list, the offset chosen by `seed`. */
export function sample<T>(all: readonly T[], count: number, seed: number): T[] {
  if (count >= all.length) return [...all];
  const step = all.length / count;
  const offset = Math.floor(rng(seed)() * step);
  return Array.from({ length: count }, (_, k) => all[(offset + Math.floor(k * step)) % all.length]!);
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
