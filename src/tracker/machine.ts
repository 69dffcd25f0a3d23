/**
 * The move-reading machine: snapshots and clock buttons in; what the board shows out, as emitted
 * events. What a board means is `judge()` in reader.ts; the machine decides only *when*: after a
 * bounce window for a reading to be believed, after a settle window when a sliding piece could
 * still travel, and when an explanation runs out (a stray piece back too late, an out-of-sync
 * deadline). The moves it reads leave as `commit` events: the tracker plays them into the game
 * and answers with `applied`, so no move is played inside the machine.
 */
import { assign, enqueueActions, type SnapshotFrom, setup } from 'xstate';
import {
  type Color,
  explainIllegal,
  type Move,
  makeIccs,
  makeSquareName,
  opposite,
  type Position,
  ROLE_NAMES,
  type Square,
} from '../rules/index.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import { type Correction, pairCorrections } from './corrections.js';
import type { FrameStage } from './frames.js';
import { soonestDeparture } from './lifts.js';
import {
  DEFAULT_READER_TIMING,
  type DeadWorld,
  type Displacement,
  expectedCells,
  judge,
  MIN_CARRY_MS,
  moverLifted,
  type RecordDoubt,
  type Verdict,
} from './reader.js';
import { Readings } from './readings.js';

export interface TrackerOptions {
  readonly sensing: Sensing;
  /** A reading must hold this long to be believed (sensor bounce lasts up to 30 ms). */
  readonly bounceMs: number;
  /** A move that could still extend (a slide) is committed once the board held this long. */
  readonly settleMs: number;
  /** A board that nothing explains raises an out-of-sync alert this long after it stopped fitting. */
  readonly outOfSyncMs: number;
  /** Takebacks by the player who just moved (casual play); false makes them an alert. */
  readonly takebacks: boolean;
  /** Tournament policy: an illegal move left standing this long is a foul; 0 = casual (alert only). */
  readonly foulAfterMs: number;
  /** A piece off the board that the next mover would not hold explains the board this long. */
  readonly strayMs?: number;
  /** A square that alone spoils the board this long without changing is taken for a dead sensor. */
  readonly maskAfterMs?: number;
  /** A clock button counts once a frame after it shows the board, or after this long. */
  readonly buttonGraceMs?: number;
  /**
   * Moves that cannot be told apart, where the opponent may already have replied unseen (a line
   * with its reply fits too), are announced with their candidates after this long.
   */
  readonly unseenReplyMs?: number;
  /** In setup, one square alone wrong this long is taken for a dead sensor and the game starts. */
  readonly setupFaultMs?: number;
  /**
   * A board nothing fits is read again from the record (a short line the board shows: see
   * ./resync.ts). Off in the worlds of a dead-sensor doubt: a world that loses the board is over.
   */
  readonly resync?: boolean;
}

export const DEFAULT_TRACKER_OPTIONS: Required<Omit<TrackerOptions, 'sensing'>> = {
  bounceMs: 35,
  settleMs: 130,
  outOfSyncMs: 1000,
  takebacks: true,
  foulAfterMs: 0,
  strayMs: DEFAULT_READER_TIMING.strayMs,
  maskAfterMs: DEFAULT_READER_TIMING.maskAfterMs,
  buttonGraceMs: 1200,
  unseenReplyMs: 1000,
  setupFaultMs: 1000,
  resync: true,
};

/** What the machine knows of the game: handed in at the start and after every change. */
export interface GameView {
  /** The confirmed position: never changed once handed out. */
  readonly position: Position;
  /** The position before the last move and that move (for takebacks and revisions). */
  readonly previous: { readonly position: Position; readonly move: Move } | undefined;
  readonly plies: number;
  readonly over: boolean;
  /** Over by an ending a further legal move withdraws (an unclaimed repetition, the move limit…). */
  readonly canPlayOn: boolean;
  readonly outcome: { result: string; reason: string; detail?: string } | undefined;
  /** Moves of the record in doubt, the newest last (see `RecordDoubt`). */
  readonly doubts: readonly RecordDoubt[];
}

export type TrackerState =
  | 'setup'
  | 'awaiting_move'
  | 'piece_lifted'
  | 'pending_capture'
  | 'illegal'
  | 'out_of_sync'
  | 'game_over';

export type AlertKind =
  | 'illegal_move'
  | 'check'
  | 'out_of_sync'
  | 'takeback_forbidden'
  | 'foul'
  | 'move_rejected'
  | 'play_on'
  | 'ambiguous'
  | 'sensor_fault';

export interface Alert {
  readonly kind: AlertKind;
  readonly message: string;
  readonly reason?: string;
  readonly from?: string;
  readonly to?: string;
  readonly side?: Color;
  /** Where the piece may legally go instead. */
  readonly legalTargets?: readonly string[];
  /** How to put the board right: pieces to move (from → to), to remove, or to add. */
  readonly corrections?: readonly Correction[];
  /** `sensor_fault`: the square whose sensor reads wrong, and what it reads. */
  readonly square?: string;
  readonly reads?: 'empty' | 'occupied';
  /** `ambiguous`: the lines the board still allows (ICCS). */
  readonly candidates?: readonly string[][];
  /**
   * `ambiguous`, which sensor is dead: the points whose pieces the players may lift and set back
   * to tell at once (the point that does not notice has the faulty sensor). Only points that may
   * read a piece where none stands: a sensor reading empty under its piece tells nothing so.
   */
  readonly check?: readonly string[];
  /**
   * `ambiguous`, which sensor is dead: for each candidate, the point whose sensor reads wrong if
   * that candidate is what was played. The players may say which (the `game/resolve` request).
   */
  readonly sensors?: readonly string[];
}

export interface StateDetail {
  readonly lifted?: readonly string[];
  readonly targets?: readonly string[];
  readonly candidates?: readonly string[][];
  readonly corrections?: readonly Correction[];
}

/** What the machine emits: `commit` and `foul` are for the tracker, the rest is public. */
export type MachineEmitted =
  | {
      type: 'commit';
      moves: readonly Move[];
      revision: boolean;
      t: number;
      frameT: number;
      /** With `revision`: how many moves are taken back (one when absent). */
      retracts?: number;
      /** Lines that fit as well, set aside: the moves they change are held in doubt. */
      rivals?: readonly (readonly Move[])[];
      /** The first move a capture nobody saw: where its piece could have gone unseen (held in doubt). */
      elsewhere?: readonly Move[];
    }
  | { type: 'foul'; side: Color; t: number }
  | { type: 'alert'; alert: Alert; t: number }
  | { type: 'alertCleared'; kind: AlertKind; t: number }
  | { type: 'state'; state: TrackerState; detail: StateDetail; t: number }
  | { type: 'gameStart'; t: number }
  | { type: 'gameOver'; result: string; reason: string; detail?: string; t: number }
  /**
   * Which of several squares' sensors is dead the board cannot tell yet: the tracker reads on in
   * each world (the square masked, its line played) until play leaves one. The machine stops here.
   */
  | {
      type: 'fork';
      worlds: readonly DeadWorld[];
      mask: readonly Square[];
      t: number;
      frameT: number;
    };

export type TrackerEmitted =
  | { type: 'move'; ply: number; move: Move; iccs: string; t: number; frameT: number }
  | { type: 'retract'; ply: number; t: number }
  | Exclude<MachineEmitted, { type: 'commit' } | { type: 'foul' } | { type: 'fork' }>;

export type TrackerEvent =
  | { type: 'snapshot'; t: number; cells: Cells; since?: number | undefined }
  | { type: 'button'; t: number; side: Color }
  /** The game after a commit or a foul; `rejected`: the game refused the move (why). */
  | { type: 'applied'; game: GameView; rejected?: string | undefined }
  | { type: 'options'; options: Partial<Omit<TrackerOptions, 'sensing'>> }
  /** In setup: the game is under way on this board (these sensors dead): read it from the next frame. */
  | {
      type: 'resume';
      mask: readonly Square[];
      /** The record is the players' word (they corrected it): its last move is not read as revised. */
      settled?: boolean;
      /** An `ambiguous` alert stands on the record (said by the tracker): ended with the next move. */
      doubted?: boolean;
    };

export interface TrackerInput {
  readonly options: TrackerOptions;
  readonly game: GameView;
  /** The time source the actor's timers use (a virtual clock in replay and tests). */
  readonly now: () => number;
}

/**
 * The machine's context. xstate copies it whole at every `assign` (Object.assign into a new
 * object): keep it to few keys — from 20 on, V8 builds the copy as a dictionary, 5–8 µs a copy
 * instead of 0.25 µs, and every read of it slows down. Evidence that changes per frame lives in
 * `readings`, updated in place.
 */
interface Context {
  /** The options given, every timing left out taking its default. */
  readonly options: Required<TrackerOptions>;
  readonly game: GameView;
  readonly now: () => number;
  /**
   * What the sensors have shown (cells, change times, lifts, dead sensors): one object, updated in
   * place by `record` and the evidence's resets, never copied.
   */
  readonly readings: Readings;
  readonly pending: readonly (readonly Move[])[];
  /** The side to move pressed its button at this time. */
  readonly button: { readonly side: Color; readonly t: number } | undefined;
  readonly verdict: Verdict;
  readonly settled: boolean;
  /** The last move may still be revised (no opponent action since). */
  readonly revisable: boolean;
  /**
   * When the last committed move's piece left (the soonest, after lost frames: a gap since may have
   * hidden more) and landed (a lift begun before it is no reply to it).
   */
  readonly landing: Landing;
  /** Since when no explanation fits the board. */
  readonly unfitSince: number | undefined;
  /** Since when the candidates disagree and one has the opponent's reply made already. */
  readonly replySince: number | undefined;
  /** Alerts raised by the machine's judgement and not yet ended. */
  readonly raised: ReadonlySet<'out_of_sync' | 'ambiguous'>;
  /**
   * An ambiguity was settled by the likelier story, not by proof: its alert stands, saying what
   * was recorded and what else it may have been, until the record goes past this many moves (the
   * move in doubt taken back and another read in its place is no less in doubt).
   */
  readonly doubted: number | undefined;
  /** The message of the `ambiguous` alert standing: the same said again is not published again. */
  readonly said: string | undefined;
  /**
   * The side to move pressed its clock, but the board shows none of its moves complete (a dead
   * sensor under the piece that moved, a capture nobody saw): said once, until a move is recorded.
   * `reply`: the side that pressed is the reply's, and neither its move nor the one it answers is read.
   */
  readonly unreadButton: { readonly side: Color; readonly reply: boolean } | undefined;
  /**
   * The side not to move pressed its clock: it says it has replied, so the side to move has moved
   * too, though the board may show neither.
   */
  readonly replyButton: { readonly side: Color; readonly t: number } | undefined;
}

const sq = (s: Square): string => makeSquareName(s);
const sameMove = (a: Move, b: Move): boolean => a.from === b.from && a.to === b.to;
const NEVER = 2_000_000_000;
/** Commits (moves or takebacks) one board may bring before it changes again (a line of three is the longest). */
const MAX_COMMITS_PER_BOARD = 6;

const RECORDS_CHANGES = 'recordsChanges';
const NOTES_HEARTBEATS = 'notesHeartbeats';

export type TrackerMachine = ReturnType<typeof createTrackerMachine>;

/**
 * What the machine would do with a frame in the state `snapshot` is in, for the stage in front of
 * it (frames.ts): in the bounce window a change is only recorded; in play an unchanged frame only
 * notes the time, unless a button waits for a frame to show the board (then it is judged).
 */
export function frameStage(snapshot: SnapshotFrom<TrackerMachine>): FrameStage {
  return {
    recordsChanges: snapshot.hasTag(RECORDS_CHANGES),
    notesHeartbeats: snapshot.hasTag(NOTES_HEARTBEATS) && !buttonUnjudged(snapshot.context),
  };
}

/** A clock button (the mover's or the reply side's) waits for a frame to show the board after it. */
const buttonUnjudged = (context: Context): boolean =>
  context.button !== undefined || context.replyButton !== undefined;

export function createTrackerMachine() {
  return setup({
    types: {
      context: {} as Context,
      events: {} as TrackerEvent,
      input: {} as TrackerInput,
      emitted: {} as MachineEmitted,
    },
    delays: {
      bounce: ({ context }) => context.options.bounceMs,
      /** What is left of the bounce window since the latest change (all of it at a change). */
      bounceRest: ({ context }) =>
        Math.max(0, context.readings.readAt + context.options.bounceMs - context.now()),
      settleRest: ({ context }) => Math.max(0, context.options.settleMs - context.options.bounceMs),
      outOfSync: ({ context }) =>
        Math.max(0, (context.unfitSince ?? context.now()) + context.options.outOfSyncMs - context.now()),
      recheck: ({ context }) => {
        const v = context.verdict;
        const at =
          v.kind === 'wait' || v.kind === 'unknown' || v.kind === 'illegal' ? v.recheckAt : undefined;
        return at === undefined ? NEVER : Math.max(1, at - context.now() + 1);
      },
      // (Once a frame or the grace has shown the board after it, never again: a state entered
      // again with the button still kept would otherwise judge the board every millisecond.)
      buttonGrace: ({ context }) => {
        const b = context.button;
        if (b === undefined || context.readings.frameAt >= b.t) return NEVER;
        const left = b.t + context.options.buttonGraceMs - context.now();
        return left < 0 ? NEVER : left + 1;
      },
      setupFault: ({ context }) => context.options.setupFaultMs,
      foul: ({ context }) => context.options.foulAfterMs,
    },
    guards: {
      changed: ({ context, event }) => event.type === 'snapshot' && event.cells !== context.readings.cells,
      /**
       * A change after lost frames to the position before the last move: a takeback that may have
       * stood since the gap began, and the next change can be the hand lifting the piece again (a
       * takeback seen only by a heartbeat). (Any other change waits out the bounce window: it can
       * be a hand passing by.)
       */
      takebackAfterGap: ({ context, event }) =>
        event.type === 'snapshot' &&
        event.since !== undefined &&
        event.cells !== context.readings.cells &&
        context.game.previous !== undefined &&
        readsAs(context, event.cells, expectedCells(context.game.previous.position, context.options.sensing)),
      /** The board changed again within the bounce window: the window goes on from that change. */
      held: ({ context }) => context.readings.readAt + context.options.bounceMs > context.now(),
      boardIsTarget: ({ context }) => boardMatches(context),
      oneSquareWrong: ({ context }) => setupFault(context) !== undefined,
      // (Idle keeps a button only until a frame or the grace shows the board after it.)
      buttonUnjudged: ({ context }) => buttonUnjudged(context),
      gapWhileWaiting: ({ context, event }) =>
        event.type === 'snapshot' &&
        event.since !== undefined &&
        context.verdict.kind === 'wait' &&
        context.verdict.lifted.length > 0 &&
        context.readings.readAt + context.options.bounceMs <= context.now(),
      isIdle: ({ context }) => context.verdict.kind === 'idle',
      isWait: ({ context }) => context.verdict.kind === 'wait',
      isSuspect: ({ context }) => context.verdict.kind === 'suspect',
      isDoubt: ({ context }) => context.verdict.kind === 'doubt',
      commitNow: ({ context }) => commitsNow(context),
      commitLater: ({ context }) => context.verdict.kind === 'commit',
      isTakebackRefused: ({ context }) => context.verdict.kind === 'takeback_refused',
      isIllegal: ({ context }) => context.verdict.kind === 'illegal',
      notIllegal: ({ context }) => context.verdict.kind !== 'illegal',
      tournament: ({ context }) => context.options.foulAfterMs > 0,
      // (The event's own answer: the context still holds the previous one when guards run.)
      rejected: ({ event }) => event.type === 'applied' && event.rejected !== undefined,
      appliedOver: ({ event }) => event.type === 'applied' && event.game.over && !event.game.canPlayOn,
      appliedCanPlayOn: ({ event }) => event.type === 'applied' && event.game.over && event.game.canPlayOn,
    },
    actions: {
      record: assign(({ context, event }) => {
        if (event.type !== 'snapshot') return {};
        // In place (no copy per frame): only this actor's judgement reads it, never later.
        context.readings.record(event.t, event.cells, context.now(), confirmedCells(context), event.since);
        return { settled: false };
      }),
      unmaskAlert: enqueueActions(({ context, event, enqueue }) => {
        if (event.type === 'snapshot' && context.readings.unmasks(event.cells))
          enqueue.emit({ type: 'alertCleared', kind: 'sensor_fault', t: event.t });
      }),
      heartbeat: assign(({ context, event }) => {
        if (event.type === 'snapshot') context.readings.heartbeat(event.t, event.since);
        return {};
      }),
      recordButton: assign(({ context, event }) => {
        if (event.type !== 'button') return {};
        if (event.side !== context.game.position.turn)
          return { replyButton: { side: event.side, t: event.t } };
        return { button: { side: event.side, t: event.t } };
      }),
      markSettled: assign({ settled: true }),
      /** The board judged as it stands, and the alerts that follow (one copy of the context for both). */
      judge: enqueueActions(({ context, enqueue }) => {
        const judged = evaluate(context);
        const alerts = syncAlerts({ ...context, ...judged }, (e) => enqueue.emit(e));
        enqueue.assign(() => ({ ...judged, ...alerts }));
      }),
      options: assign(({ context, event }) =>
        event.type === 'options' ? { options: { ...context.options, ...event.options } } : {},
      ),
      applied: assign(({ context, event }) => {
        if (event.type !== 'applied') return {};
        const moved = event.game.position !== context.game.position;
        if (!moved) return { game: event.game };
        // (Read before the evidence starts again.)
        const landing = landingSeen(context);
        // Lines that went further than the committed moves stay pending, rebased.
        const v = context.verdict;
        const done = v.kind === 'commit' && !v.revision && !event.rejected ? v.moves : undefined;
        const pending = done
          ? context.pending
              .filter((l) => l.length > done.length && done.every((m, k) => sameMove(m, l[k]!)))
              .map((l) => l.slice(done.length))
          : [];
        // (A move taken back at once, the board unchanged since it was read (a slide's resting
        // point read as its landing, already left), returns to the position before it, and to
        // its evidence. A takeback made later is a move of its own: master 35.)
        const back =
          v.kind === 'commit' &&
          v.revision &&
          v.moves.length === 0 &&
          (v.retracts ?? 1) === 1 &&
          context.readings.commitsSinceChange >= 2;
        const fresh = freshEvidence(context, event.game.position, true, back);
        // A committed move's piece already taken off again (the opponent holding it to capture it)
        // has been lifted since its point last changed: that lift is the next move's evidence.
        // So has a piece a takeback or revision puts back on a point that reads empty (the revised
        // move's piece gone on): it left when its point last changed, not when the next frame comes.
        const r = context.readings;
        const offAgain = (sq: Square): void => {
          if (r.cells?.[sq] === '.' && !r.mask.has(sq))
            r.lifts.liftedSince(sq, r.squareChangedAt[sq] ?? context.now());
        };
        for (const m of done ?? []) offAgain(m.to);
        if (v.kind === 'commit' && v.revision) {
          const before = context.game.position;
          const after = event.game.position;
          for (let sq = 0; sq < 90; sq++)
            if (before.colorAt(sq) === 0 && after.colorAt(sq) !== 0) offAgain(sq);
        }
        // A capturer set down on its victim, a colour sensor still reading the victim: either piece
        // read there fits until its reading changes (else the victim's colour is a piece astray).
        if (done === undefined) r.covered.clear();
        else if (context.options.sensing === 'colour') {
          const pos = context.game.position.clone();
          for (const m of done) {
            const victim = pos.colorAt(m.to);
            if (victim !== 0 && r.cells?.[m.to] === (victim === 1 ? 'r' : 'b') && !r.mask.has(m.to))
              r.covered.add(m.to);
            pos.play(m);
          }
        }
        return { game: event.game, ...fresh, pending, landing };
      }),
      emitCommit: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'commit') return;
        enqueue.assign(() => {
          context.readings.commitsSinceChange++;
          return {};
        });
        enqueue.emit({
          type: 'commit',
          moves: v.moves,
          revision: v.revision,
          t: context.now(),
          frameT: context.readings.changedAt,
          ...(v.retracts !== undefined ? { retracts: v.retracts } : {}),
          ...(v.rivals !== undefined ? { rivals: v.rivals } : {}),
          ...(v.elsewhere !== undefined ? { elsewhere: v.elsewhere } : {}),
        });
      }),
      emitFoul: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'illegal') return;
        const side = illegalSide(context, v.displacement);
        const t = context.now();
        enqueue.emit({ type: 'foul', side, t });
        enqueue.emit({
          type: 'alert',
          t,
          alert: { kind: 'foul', side, message: `foul: ${side}'s illegal move was not corrected in time` },
        });
      }),
      mask: assign(({ context }) => {
        const v = context.verdict;
        if (v.kind === 'suspect') context.readings.mask = new Set([...context.readings.mask, v.square]);
        return {};
      }),
      resume: assign(({ context, event }) => {
        if (event.type === 'resume')
          context.readings.mask = new Set([...context.readings.mask, ...event.mask]);
        // (The last move may be one just read into the game: its player may still take it back.
        // Not one the players have just said was played: the board must follow the record then.)
        const settled = event.type === 'resume' && event.settled === true;
        // An ambiguity the tracker said of the record stands until the next move is read, as the
        // machine's own do.
        const doubted = event.type === 'resume' && event.doubted === true;
        return {
          ...freshEvidence(context, context.game.position, !settled && context.game.previous !== undefined),
          ...(doubted
            ? { raised: new Set([...context.raised, 'ambiguous' as const]), doubted: context.game.plies }
            : {}),
        };
      }),
      emitFork: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'doubt') return;
        const t = context.now();
        // (The alerts raised so far are ended by `clearAll` before this: the doubt's replaces them.
        // A single world is no doubt to tell the players of: it is read on and named at once.)
        if (v.worlds.length > 1) {
          enqueue.assign({ raised: new Set(['ambiguous' as const]) });
          enqueue.emit({ type: 'alert', t, alert: deadDoubtAlert(context, v.worlds) });
        }
        enqueue.emit({
          type: 'fork',
          worlds: v.worlds,
          mask: [...context.readings.mask],
          t,
          frameT: context.readings.changedAt,
        });
      }),
      emitSensorFault: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind === 'suspect') enqueue.emit(sensorFault(context, v.square, v.reads, v.phantom));
      }),
      startWithFault: enqueueActions(({ context, enqueue }) => {
        const fault = setupFault(context);
        if (!fault) return;
        enqueue.assign(() => {
          context.readings.mask = new Set([...context.readings.mask, fault.square]);
          return {};
        });
        enqueue.emit(sensorFault(context, fault.square, fault.reads));
      }),
      raiseOutOfSync: enqueueActions(({ context, enqueue }) => {
        if (context.raised.has('out_of_sync')) return;
        const t = context.now();
        const corrections = correctionsFor(context);
        enqueue.assign({ raised: new Set([...context.raised, 'out_of_sync' as const]) });
        enqueue.emit({
          type: 'alert',
          t,
          alert: {
            kind: 'out_of_sync',
            message: `the board does not match the game: ${corrections.map((c) => c.text).join('; ')}`,
            corrections,
          },
        });
        enqueue.emit({ type: 'state', state: 'out_of_sync', t, detail: { corrections } });
      }),
      clearAll: enqueueActions(({ context, enqueue }) => {
        const t = context.now();
        for (const kind of context.raised) enqueue.emit({ type: 'alertCleared', kind, t });
        enqueue.assign({ raised: new Set(), doubted: undefined });
      }),
      resetEvidence: assign(({ context }) => freshEvidence(context, context.game.position, false)),
      emitGameStart: enqueueActions(({ context, enqueue }) =>
        enqueue.emit({ type: 'gameStart', t: context.now() }),
      ),
      emitSetup: enqueueActions(({ context, enqueue }) =>
        enqueue.emit(stateEvent(context, 'setup', { corrections: correctionsFor(context) })),
      ),
      emitIdle: enqueueActions(({ context, enqueue }) =>
        enqueue.emit(stateEvent(context, 'awaiting_move', {})),
      ),
      emitWaiting: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'wait') return;
        if (v.candidates.length > 0) {
          const candidates = v.candidates.map((l) => l.map(makeIccs));
          enqueue.emit(stateEvent(context, 'pending_capture', { candidates }));
        } else enqueue.emit(stateEvent(context, 'piece_lifted', liftedDetail(context, v.lifted)));
      }),
      emitIllegal: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'illegal') return;
        const t = context.now();
        enqueue.emit({ type: 'alert', t, alert: illegalAlert(context, v.displacement) });
        enqueue.emit({ type: 'state', state: 'illegal', t, detail: {} });
      }),
      clearIllegal: enqueueActions(({ context, enqueue }) =>
        enqueue.emit({ type: 'alertCleared', kind: 'illegal_move', t: context.now() }),
      ),
      emitTakebackRefused: enqueueActions(({ context, enqueue }) =>
        enqueue.emit({
          type: 'alert',
          t: context.now(),
          alert: {
            kind: 'takeback_forbidden',
            message: 'takebacks are not allowed in this game: play the last move again',
          },
        }),
      ),
      clearTakebackRefused: enqueueActions(({ context, enqueue }) =>
        enqueue.emit({ type: 'alertCleared', kind: 'takeback_forbidden', t: context.now() }),
      ),
      emitGameOver: enqueueActions(({ context, enqueue }) => {
        const outcome = context.game.outcome;
        if (outcome) enqueue.emit({ type: 'gameOver', ...outcome, t: context.now() });
        enqueue.emit(stateEvent(context, 'game_over', {}));
      }),
    },
  }).createMachine({
    id: 'tracker',
    context: ({ input }) => ({
      options: { ...DEFAULT_TRACKER_OPTIONS, ...input.options },
      game: input.game,
      now: input.now,
      readings: new Readings(input.options.sensing, input.options.bounceMs, input.now()),
      pending: [],
      button: undefined,
      verdict: { kind: 'unknown' },
      settled: false,
      revisable: false,
      landing: { leftAt: Number.NEGATIVE_INFINITY, landedAt: Number.NEGATIVE_INFINITY },
      unfitSince: undefined,
      replySince: undefined,
      raised: new Set(),
      doubted: undefined,
      said: undefined,
      unreadButton: undefined,
      replyButton: undefined,
    }),
    on: {
      options: { actions: 'options' },
    },
    initial: 'setup',
    states: {
      /** Waiting for the board to show the game's position (the start, a FEN, or a resumed game). */
      setup: {
        initial: 'reading',
        on: {
          snapshot: {
            guard: 'changed',
            target: '.reading',
            reenter: true,
            actions: ['unmaskAlert', 'record'],
          },
          resume: { target: '#tracker.playing', actions: 'resume' },
        },
        states: {
          reading: {
            after: {
              bounce: [
                {
                  guard: 'boardIsTarget',
                  target: '#tracker.playing',
                  actions: ['resetEvidence', 'emitGameStart'],
                },
                { target: 'wrong', actions: 'emitSetup' },
              ],
            },
          },
          // One square alone wrong for long enough: a dead sensor must not stop the game.
          wrong: {
            after: {
              setupFault: {
                guard: 'oneSquareWrong',
                target: '#tracker.playing',
                actions: ['startWithFault', 'resetEvidence', 'emitGameStart'],
              },
            },
          },
        },
      },
      playing: {
        initial: 'idle',
        // (An unchanged frame with no button waiting only notes the time: see `frameStage`.)
        tags: [NOTES_HEARTBEATS],
        on: {
          snapshot: [
            {
              guard: 'takebackAfterGap',
              target: '.judging',
              reenter: true,
              actions: ['unmaskAlert', 'record'],
            },
            { guard: 'changed', target: '.changing', reenter: true, actions: ['unmaskAlert', 'record'] },
            // A heartbeat: the board is as we last read it, so a button before it can count.
            { guard: 'buttonUnjudged', target: '.judging', reenter: true, actions: 'heartbeat' },
            // (After lost frames, while pieces are in the hand: the gap may have hidden a capture.)
            { guard: 'gapWhileWaiting', target: '.judging', reenter: true, actions: 'heartbeat' },
            { actions: 'heartbeat' },
          ],
        },
        states: {
          idle: {
            entry: 'emitIdle',
            on: { button: { target: 'judging', actions: 'recordButton' } },
            after: { buttonGrace: 'judging' },
          },
          changing: {
            // (A change is only recorded here: the stage in front of the machine records it, see
            // `frameStage`. `settled` is already false: the change that entered the state said so.)
            tags: [RECORDS_CHANGES],
            on: {
              button: { actions: 'recordButton' },
              // Recorded without leaving the state: no timer cancelled and set again per frame.
              snapshot: [
                { guard: 'takebackAfterGap', target: 'judging', actions: ['unmaskAlert', 'record'] },
                { guard: 'changed', actions: ['unmaskAlert', 'record'] },
              ],
            },
            // The window from the latest change: a change within it waits out the rest.
            after: {
              bounceRest: [{ guard: 'held', target: 'changing', reenter: true }, { target: 'judging' }],
            },
          },
          judging: {
            entry: 'judge',
            always: [
              { guard: 'isSuspect', target: 'judging', reenter: true, actions: ['mask', 'emitSensorFault'] },
              { guard: 'isDoubt', target: '#tracker.forked', actions: ['clearAll', 'emitFork'] },
              { guard: 'commitNow', target: 'committing' },
              { guard: 'commitLater', target: 'settling' },
              { guard: 'isWait', target: 'waiting' },
              { guard: 'isIdle', target: 'idle' },
              { guard: 'isTakebackRefused', target: 'takebackRefused' },
              { guard: 'isIllegal', target: 'illegalCandidate' },
              { target: 'unmatched' },
            ],
          },
          settling: {
            // A button is evidence once a frame after it shows the board: the settle goes on.
            on: { button: { actions: 'recordButton' } },
            after: { settleRest: { target: 'judging', actions: 'markSettled' } },
          },
          committing: {
            entry: 'emitCommit',
            on: {
              // (The game the event brings decides where to: no step through a state of its own.)
              applied: [
                { guard: 'rejected', target: 'unmatched', actions: 'applied' },
                { guard: 'appliedCanPlayOn', target: 'ended', actions: 'applied' },
                { guard: 'appliedOver', target: '#tracker.gameOver', actions: 'applied' },
                { target: 'judging', actions: 'applied' },
              ],
            },
          },
          waiting: {
            entry: 'emitWaiting',
            on: { button: { target: 'judging', actions: 'recordButton' } },
            // (A button no frame has shown the board after yet counts once its grace is out.)
            after: { recheck: 'judging', buttonGrace: 'judging' },
          },
          takebackRefused: { entry: 'emitTakebackRefused', exit: 'clearTakebackRefused' },
          illegalCandidate: { after: { settleRest: 'illegal' } },
          illegal: {
            entry: 'emitIllegal',
            exit: 'clearIllegal',
            // The board, still a while, may read as legal moves after all (see reader.ts readAgain).
            after: { recheck: { actions: 'judge' } },
            always: { guard: 'notIllegal', target: 'judging' },
            initial: 'standing',
            states: {
              standing: {
                after: { foul: { guard: 'tournament', target: 'fouled', actions: 'emitFoul' } },
              },
              fouled: {
                on: {
                  applied: [
                    { guard: 'appliedOver', target: '#tracker.gameOver', actions: 'applied' },
                    { actions: 'applied' },
                  ],
                },
              },
            },
          },
          /** Ended by an ending the players may play past: the board is still read. */
          ended: { entry: 'emitGameOver' },
          unmatched: {
            on: { button: { actions: 'recordButton' } },
            after: {
              outOfSync: { target: 'outOfSync' },
              recheck: 'judging',
            },
          },
          outOfSync: {
            entry: 'raiseOutOfSync',
            after: { recheck: 'judging' },
          },
        },
      },
      gameOver: { entry: ['clearAll', 'emitGameOver'] },
      /** Read on in the worlds of a dead sensor (the tracker's business): this actor is done. */
      forked: {},
    },
  });
}

/** The verdict's moves are recorded now (else the board must hold still a while first). */
function commitsNow(context: Context): boolean {
  const v = context.verdict;
  if (v.kind !== 'commit') return false;
  // A takeback or a revision must hold still like a slide: the hand may be passing by. (A board
  // read again has held still longer than that; so has one whose change a lost frame hid.)
  const still = context.settled || context.now() >= context.readings.stillFrom + context.options.settleMs;
  return v.ready && (!v.revision || still || v.movedOn === true || v.resynced === true);
}

const stateEvent = (context: Context, state: TrackerState, detail: StateDetail): MachineEmitted => ({
  type: 'state',
  state,
  detail,
  t: context.now(),
});

/** Alerts that follow from the judgement: out of sync past its deadline, ambiguity; what they change. */
function syncAlerts(context: Context, emit: (e: MachineEmitted) => void): Partial<Context> {
  const t = context.now();
  const v = context.verdict;
  // The record's length now, and once the verdict's commit is applied.
  const plies = context.game.plies;
  const pliesAfter =
    v.kind === 'commit' ? plies - (v.revision ? (v.retracts ?? 1) : 0) + v.moves.length : plies;
  // (A new set only when it changes.)
  let raised = context.raised;
  const raise = (kind: 'out_of_sync' | 'ambiguous'): void => {
    if (!raised.has(kind)) raised = new Set([...raised, kind]);
  };
  const end = (kind: 'out_of_sync' | 'ambiguous'): boolean => {
    if (!raised.has(kind)) return false;
    raised = new Set([...raised].filter((k) => k !== kind));
    return true;
  };
  // An ambiguity said while it stands, once: a board read again and again (a piece sliding on)
  // tells the players nothing new.
  let said = context.said;
  const sayAmbiguous = (alert: Alert): void => {
    const standing = context.raised.has('ambiguous') && said === alert.message;
    raise('ambiguous');
    said = alert.message;
    if (!standing) emit({ type: 'alert', t, alert });
  };
  const fits = v.kind !== 'unknown' && v.kind !== 'suspect' && v.kind !== 'doubt';
  if (fits && end('out_of_sync')) emit({ type: 'alertCleared', kind: 'out_of_sync', t });
  const ambiguous = v.kind === 'wait' && v.ambiguous;
  if (context.unreadButton !== undefined) {
    if (context.doubted === undefined) sayAmbiguous(unreadButtonAlert(context.unreadButton));
    return { raised, doubted: plies, said, unreadButton: undefined };
  }
  // (What is said of a move recorded is said as it is: a slide that may still go on is not yet.)
  if (v.kind === 'commit' && !commitsNow(context)) return { raised, doubted: context.doubted, said };
  // (A move recorded in doubt stays in doubt until the record goes past it: taken back and another
  // read in its place is no less so.)
  if (v.kind === 'commit' && v.knocked) {
    sayAmbiguous(knockAlert(context, v.moves[0]!));
    return { raised, doubted: pliesAfter, said };
  }
  if (v.kind === 'commit' && v.blind !== undefined) {
    sayAmbiguous(blindAlert(context, v.blind));
    return { raised, doubted: pliesAfter, said };
  }
  if (v.kind === 'wait' && v.held !== undefined) {
    sayAmbiguous(heldAlert(context, v.held, v.candidates));
    return { raised, doubted: plies, said };
  }
  if (v.kind === 'commit' && v.resynced) {
    sayAmbiguous(resyncAlert(context, v.moves, v.revision ? (v.retracts ?? 1) : 0));
    // (The whole reading is in doubt, until the record goes past it.)
    return { raised, doubted: pliesAfter, said };
  }
  // Another line fits as well, set aside as the weaker story: say so. (A capture unseen,
  // committed while an ambiguity stands, keeps it.)
  if (v.kind === 'commit' && (v.rivals !== undefined || (v.unseen && raised.has('ambiguous')))) {
    sayAmbiguous(doubtAlert(context, v.moves, v.rivals ?? []));
    return { raised, doubted: pliesAfter, said };
  }
  // The move in doubt read again in its place (revised, or taken back and another read): what was
  // said of it no longer says what the record holds. Said anew (it may have been read again on
  // evidence no stronger), until the record goes past it.
  const from = plies - (v.kind === 'commit' && v.revision ? (v.retracts ?? 1) : 0);
  if (
    v.kind === 'commit' &&
    v.moves.length > 0 &&
    context.doubted !== undefined &&
    raised.has('ambiguous') &&
    from < context.doubted
  ) {
    const alert = rereadAlert(context, v.moves, from, v.revision && v.retracts === undefined);
    if (said !== alert.message && end('ambiguous')) emit({ type: 'alertCleared', kind: 'ambiguous', t });
    sayAmbiguous(alert);
    return { raised, doubted: pliesAfter, said };
  }
  // (Settled by the next move recorded: past the move in doubt, or the record as it was when a
  // doubt with no move recorded was said.)
  const settled =
    context.doubted === undefined ||
    (v.kind === 'commit' && v.moves.length > 0 && pliesAfter > context.doubted);
  let doubted = context.doubted;
  if (!ambiguous && v.kind !== 'unknown' && settled && end('ambiguous')) {
    emit({ type: 'alertCleared', kind: 'ambiguous', t });
    doubted = undefined;
  }
  if (ambiguous && !raised.has('ambiguous'))
    sayAmbiguous(v.revised ? revisedAlert(context, v.revised) : ambiguousAlert(context, v.candidates));
  return { raised, doubted, said };
}

function evaluate(context: Context): Partial<Context> {
  const r = context.readings;
  const cells = r.cells;
  if (cells === undefined) return { verdict: { kind: 'unknown' } };
  const now = context.now();
  // A button counts once a frame read after it shows the board (a lost frame may hide a landing).
  // Without one, it counts once a heartbeat should have come (the link lost it, or has none).
  const grace = context.options.buttonGraceMs;
  const shown = (b: { readonly t: number }): boolean => r.frameAt >= b.t || now >= b.t + grace;
  const fresh = context.button && shown(context.button);
  const button = fresh ? context.button!.side : undefined;
  const judged = judge({
    base: context.game.position,
    previous: context.game.previous,
    revisable: context.revisable,
    landedAt: context.landing.landedAt,
    leftAt: context.landing.leftAt,
    takebacks: context.options.takebacks,
    pending: context.pending,
    // (A capture the last judgement held back in doubt of a knock.)
    held: context.verdict.kind === 'wait' ? context.verdict.hold : undefined,
    observed: cells,
    covered: r.covered,
    sensing: context.options.sensing,
    mask: r.mask,
    evidence: {
      lifted: r.lifts.at(now, r.mask),
      firstLifted: r.lifts.firstAt(now, r.mask),
      departedAfterGap: r.lifts.departedAfterGap(),
      gapFrameAt: r.gapFrameAt,
      lostUntil: r.lostUntil,
      buttonBy: button,
      buttonAt: fresh ? context.button!.t : undefined,
      pressedAt: context.button?.t,
      changedAt: r.squareChangedAt,
      visited: r.lifts.visited(),
      history: r.lifts,
    },
    now,
    settled: context.settled || now >= r.changedAt + context.options.settleMs,
    settleAt: r.changedAt + context.options.settleMs,
    timing: {
      strayMs: context.options.strayMs,
      maskAfterMs: context.options.maskAfterMs,
    },
    resync: context.options.resync,
    doubts: context.game.doubts,
    lastInDoubt:
      context.raised.has('ambiguous') &&
      context.doubted !== undefined &&
      context.doubted >= context.game.plies - 1,
  });
  // The record changing again and again on one board is no reading of it: nothing fits.
  const verdict: Verdict =
    judged.kind === 'commit' && r.commitsSinceChange >= MAX_COMMITS_PER_BOARD ? { kind: 'unknown' } : judged;
  const out: { -readonly [K in keyof Context]?: Context[K] } = { verdict };
  const mover = context.game.position.turn;
  if (
    button === mover &&
    (verdict.kind === 'idle' ||
      verdict.kind === 'unknown' ||
      (verdict.kind === 'wait' && verdict.candidates.length === 0))
  )
    out.unreadButton = { side: mover, reply: false };
  // The reply's side pressed its clock, and pieces of both sides are off their points with no line
  // that has them both moved: neither move can be read (two landings nobody saw).
  // (Judged once a frame after it shows the board, as the mover's button is.)
  const reply = context.replyButton;
  if (reply !== undefined && shown(reply)) {
    out.replyButton = undefined;
    if (verdict.kind === 'wait' && !verdict.candidates.some((l) => l.length >= 2)) {
      const sides = new Set(verdict.lifted.map((s) => context.game.position.colorAt(s)));
      if (sides.has(1) && sides.has(2)) out.unreadButton = { side: reply.side, reply: true };
    }
  }
  const fits = verdict.kind !== 'unknown' && verdict.kind !== 'suspect' && verdict.kind !== 'doubt';
  out.unfitSince = fits ? undefined : (context.unfitSince ?? now);
  if (verdict.kind === 'wait') {
    out.pending = verdict.keep;
    // (A button not yet fresh, the mover's or the reply side's, is judged again once the grace is out.)
    const unshown = [context.button, reply].filter((b) => b !== undefined && !shown(b));
    if (unshown.length > 0) {
      const at = Math.min(...unshown.map((b) => b!.t)) + grace;
      out.verdict = { ...verdict, recheckAt: Math.min(verdict.recheckAt ?? at, at) };
    }
    // The mover's clock says its move is over, and still the board allows several: say so. So
    // too when a reply may have been made that nobody saw, or the last move taken back, once that
    // has lasted a while.
    const v = out.verdict as typeof verdict;
    const replied =
      (verdict.candidates.length > 1 && verdict.candidates.some((l) => l.length > 1)) ||
      verdict.revised !== undefined;
    out.replySince = replied ? (context.replySince ?? now) : undefined;
    const since = out.replySince;
    if (button === mover && verdict.candidates.length > 1) out.verdict = { ...v, ambiguous: true };
    else if (since !== undefined && now - since >= context.options.unseenReplyMs)
      out.verdict = { ...v, ambiguous: true };
    else if (since !== undefined) {
      const at = since + context.options.unseenReplyMs;
      out.verdict = { ...v, recheckAt: Math.min(v.recheckAt ?? at, at) };
    }
  } else out.replySince = undefined;
  if (verdict.kind === 'idle') {
    // The board is back as it was: what was lifted and put back is evidence for nothing next.
    // (A button by the side to move not yet fresh is kept: fresh, with nothing moved, it is said.)
    const waitingButton = !fresh && context.button?.side === mover ? context.button : undefined;
    return {
      ...out,
      ...freshEvidence(
        context,
        context.game.position,
        context.revisable &&
          !moverLifted(
            context.game.position,
            r.lifts.at(context.now(), r.mask),
            undefined,
            context.landing.landedAt,
          ),
      ),
      button: waitingButton,
    };
  }
  return out;
}

interface Landing {
  readonly leftAt: number;
  readonly landedAt: number;
}

/**
 * When the committed move's piece left, and when the sensors showed it land: its square changed
 * after the piece left. A landing nobody saw (a capture swapped within a scan) has no time:
 * nothing is dismissed.
 */
function landingSeen(context: Context): Landing {
  const v = context.verdict;
  const last = v.kind === 'commit' ? v.moves.at(-1) : undefined;
  const none = Number.NEGATIVE_INFINITY;
  if (!last) return { leftAt: none, landedAt: none };
  const r = context.readings;
  // (Seen to leave only after lost frames: it may have left as soon as just after the gap began.)
  const left = soonestDeparture(
    r.lifts.firstAt(context.now(), r.mask),
    r.lifts.departedAfterGap(),
    last.from,
  );
  const landed = (landedAt: number): Landing => ({ leftAt: left ?? none, landedAt });
  // A capture's point shows its landing only if it shows the capturer now (its last change, after
  // the piece left), seen empty between (its victim taken off first); else it changed since for
  // other reasons (the opponent taking the capturer in turn), or a colour sensor flipped from the
  // victim to the capturer (set on top: the sensor reads the lower piece until the victim is pulled
  // out): only the departure and a carry bound the landing.
  const moves = v.kind === 'commit' ? v.moves : [];
  const before = positionAfter(context, moves.slice(0, -1));
  if (left !== undefined && before.colorAt(last.to) !== 0) {
    const reads = r.cells?.[last.to];
    const mover = before.colorAt(last.from) === 1 ? 'r' : 'b';
    const shows = reads === 'x' || (reads === mover && r.lifts.at(context.now(), r.mask).has(last.to));
    const changed = r.squareChangedAt[last.to] ?? Number.NEGATIVE_INFINITY;
    return landed(shows && changed > left ? changed : left + MIN_CARRY_MS);
  }
  // When its point first read it (a bounce as it was set down changes the point again).
  const spell = left === undefined ? undefined : r.lifts.spells(last.to).find((sp) => sp.from > left);
  if (spell !== undefined) return landed(spell.from);
  const changed = r.squareChangedAt[last.to];
  return landed(left !== undefined && changed !== undefined && changed > left ? changed : none);
}

/** Evidence starts again from a new confirmed position (or the same one, seen again). */
function freshEvidence(context: Context, pos: Position, revisable: boolean, back = false): Partial<Context> {
  const cells = context.readings.cellsOf(pos);
  const side = pos.turnCode;
  // (A masked point reads nothing of its piece: no lift of the mover's under way there, and no
  // evidence kept since a dead sensor's first reading.)
  const { mask } = context.readings;
  const mover = (s: Square): boolean => pos.colorAt(s) === side && !mask.has(s);
  if (back) context.readings.lifts.resetBack(cells, mover);
  else context.readings.lifts.reset(cells, mover);
  return {
    button: undefined,
    replyButton: undefined,
    pending: [],
    settled: false,
    revisable,
    unfitSince: undefined,
    replySince: undefined,
  };
}

/**
 * What the confirmed position shows the sensors, worked out once per position (the game view
 * hands out the same position object until a move changes it): every frame needs it.
 */
function confirmedCells(context: Context): Cells {
  return context.readings.cellsOf(context.game.position);
}

function boardMatches(context: Context): boolean {
  const { cells } = context.readings;
  return cells !== undefined && readsAs(context, cells, confirmedCells(context));
}

/** The frame reads as `expected` on every square not masked as dead. */
function readsAs(context: Context, cells: Cells, expected: Cells): boolean {
  const { mask } = context.readings;
  if (mask.size === 0) return cells === expected;
  for (let s = 0; s < 90; s++) if (!mask.has(s) && cells[s] !== expected[s]) return false;
  return true;
}

/** Setup: exactly one square reads wrong, and has read so since the setup's last change there. */
function setupFault(context: Context): { square: Square; reads: 'empty' | 'occupied' } | undefined {
  const { cells, mask } = context.readings;
  if (cells === undefined) return undefined;
  const expected = confirmedCells(context);
  let wrong: Square | undefined;
  for (let s = 0; s < 90; s++) {
    if (mask.has(s) || cells[s] === expected[s]) continue;
    if (wrong !== undefined) return undefined;
    wrong = s;
  }
  if (wrong === undefined) return undefined;
  const since = context.readings.squareChangedAt[wrong] ?? 0;
  if (context.now() - since < context.options.setupFaultMs) return undefined;
  return { square: wrong, reads: cells[wrong] === '.' ? 'empty' : 'occupied' };
}

function sensorFault(
  context: Context,
  square: Square,
  reads: 'empty' | 'occupied',
  phantom?: boolean,
): MachineEmitted {
  return {
    type: 'alert',
    t: context.now(),
    alert: sensorFaultAlert(context.options.sensing, context.game.position, square, reads, phantom),
  };
}

/** The sensor of `square` reads wrong (the machine's, and the tracker's when one world of a doubt is left). */
export function sensorFaultAlert(
  sensing: Sensing,
  position: Position,
  square: Square,
  reads: 'empty' | 'occupied',
  phantom?: boolean,
): Alert {
  const name = sq(square);
  // A piece from nowhere may be a real stray piece as well as a stuck sensor: say both.
  const message = phantom
    ? `${name} reads a piece the game does not have there: take off any piece standing on ${name}; ` +
      `if there is none, its sensor is faulty and should be repaired; moves are read from the other squares`
    : undefined;
  // What the board needs there is the other reading (or, to a colour sensor, the other colour).
  const wrongColour = reads === 'occupied' && sensing === 'colour' && position.colorAt(square) !== 0;
  // (Found out after the piece that showed it moved on: the reading is right by chance now.)
  const agrees = (reads === 'empty') === (position.colorAt(square) === 0);
  const what = wrongColour
    ? 'the wrong colour'
    : agrees
      ? `${reads}, whatever stands there`
      : `${reads} (it should read ${reads === 'empty' ? 'occupied' : 'empty'})`;
  return {
    kind: 'sensor_fault',
    square: name,
    reads,
    message:
      message ??
      `the sensor on ${name} always reads ${what}: check the piece there ` +
        `stands in the middle of its point, or have the sensor repaired; moves are read from the other squares`,
  };
}

/** Several sensors may be the dead one: what each would mean, and how the players can tell. */
/** A dead-sensor doubt's worlds told in an alert's words (all of them are its candidates). */
const MAX_WORLDS_SAID = 4;

function deadDoubtAlert(context: Context, worlds: readonly DeadWorld[]): Alert {
  const pos = context.game.position;
  const last = context.game.previous?.move;
  const sensors = worlds.map((w) => sq(w.square));
  const each = worlds.map((w) => {
    const first = w.moves[0];
    const line = first
      ? `${makeIccs(first)}${w.moves.length > 1 ? ` (then ${w.moves.slice(1).map(makeIccs).join(' ')})` : ''}`
      : undefined;
    const taken =
      (w.retract ?? 0) > 1
        ? `the last ${w.retract} moves taken back`
        : `the last move${last ? ` ${makeIccs(last)}` : ''} taken back`;
    const what = w.retract ? (line ? `${taken}, then ${line}` : taken) : (line ?? 'no move');
    return `${what} if the sensor of ${sq(w.square)} always reads ${w.reads}`;
  });
  // (Many worlds: the first few in words, all of them in `candidates`.)
  const said =
    each.length > MAX_WORLDS_SAID
      ? `${each.slice(0, MAX_WORLDS_SAID).join('; ')}; and ${each.length - MAX_WORLDS_SAID} more (the candidates)`
      : each.join('; ');
  // Lifting tells only a sensor that reads a piece where none stands: the live points among them
  // have pieces the players lift, and notice. One that reads empty under its piece notices nothing,
  // nor do the empty points it is told from: only saying which tells those.
  const check = [...new Set(worlds.filter((w) => w.reads === 'occupied').map((w) => sq(w.square)))];
  const lift =
    check.length > 0
      ? `lift each piece standing on ${check.join(', ')} and set it back: the point that does not notice ` +
        'has the faulty sensor; or say which candidate was played'
      : 'say which candidate was played';
  return {
    kind: 'ambiguous',
    side: pos.turn,
    message:
      `one sensor reads wrong, and the board cannot tell which yet: ${said}. Play goes on; ` +
      `the moves are recorded once play shows which. To tell at once, ${lift}`,
    candidates: worlds.map((w) => w.moves.map(makeIccs)),
    ...(check.length > 0 ? { check } : {}),
    sensors,
  };
}

function ambiguousAlert(context: Context, candidates: readonly (readonly Move[])[]): Alert {
  const pos = context.game.position;
  const firsts = [...new Set(candidates.map((l) => makeIccs(l[0]!)))];
  const from = candidates[0]?.[0]?.from;
  const piece = from !== undefined ? pos.pieceAt(from) : undefined;
  const what = piece
    ? `the ${piece.color} ${ROLE_NAMES[piece.role]} from ${sq(from!)}`
    : 'the last piece moved';
  return {
    kind: 'ambiguous',
    side: pos.turn,
    message:
      `cannot tell what ${what} did (${firsts.join(' or ')}, or it is still in the hand): ` +
      'take the moves since back and play the capture again, lifting the captured piece off first',
    candidates: candidates.map((l) => l.map(makeIccs)),
  };
}

function revisedAlert(context: Context, lines: readonly (readonly Move[])[]): Alert {
  const last = context.game.previous?.move;
  const ways = lines.map((l) => (l.length === 0 ? 'taken back' : `changed to ${l.map(makeIccs).join(' ')}`));
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `the last move${last ? ` ${makeIccs(last)}` : ''} may have been ${ways.join(' or ')}, or a piece ` +
      'is still in the hand: set every piece in the hand down in the middle of its point, and the ' +
      'record follows the board',
    candidates: lines.filter((l) => l.length > 0).map((l) => l.map(makeIccs)),
  };
}

/**
 * A move recorded in doubt, read again: what the record holds now from ply `from` + 1 (`revised`:
 * in place of the last move, named).
 */
function rereadAlert(context: Context, moves: readonly Move[], from: number, revised: boolean): Alert {
  const was = revised ? context.game.previous?.move : undefined;
  const line = moves.map(makeIccs).join(' ');
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `read again: move ${from + 1} is ${line}${was ? `, not ${makeIccs(was)}` : ''}, which was in doubt: ` +
      'if another move was played, say which (correct the record), or take the moves since back and ' +
      'play them again',
    candidates: [moves.map(makeIccs), ...(was ? [[makeIccs(was)]] : [])],
  };
}

function doubtAlert(context: Context, moves: readonly Move[], rivals: readonly (readonly Move[])[]): Alert {
  const line = (l: readonly Move[]) => l.map(makeIccs).join(' ');
  const instead =
    rivals.length > 0
      ? `it may have been ${rivals.map(line).join(' or ')}`
      : 'its piece was never seen landing';
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `recorded ${line(moves)}, but ${instead}: if it was another move, say which (correct the ` +
      'record), or take the moves since back and play them again, lifting a captured piece off first',
    candidates: [moves, ...rivals].map((l) => l.map(makeIccs)),
  };
}

function heldAlert(
  context: Context,
  held: { readonly moves: readonly Move[]; readonly lost?: true; readonly answered?: Move },
  captures: readonly (readonly Move[])[],
): Alert {
  const { moves } = held;
  const from = (moves[0] ?? captures[0]![0]!).from;
  const piece = context.game.position.pieceAt(from);
  const what = piece
    ? `the ${piece.color} ${ROLE_NAMES[piece.role]} from ${sq(from)}`
    : `the piece from ${sq(from)}`;
  const points = moves.map((m) => sq(m.to)).join(' or ');
  const took = captures.map((l) => sq(l[0]!.to)).join(' or ');
  const side = context.game.position.turn;
  const candidates = [...captures.map((l) => l.map(makeIccs)), ...moves.map((m) => [makeIccs(m)])];
  // (The last move's landing perhaps lost with the frames: the piece seen landing was this one,
  // taking it, and only the record can be told so: the clock would not bring back what was lost.)
  const gone = held.answered && context.game.position.pieceAt(held.answered.to);
  if (held.answered && gone) {
    const message =
      `frames from the board were lost while the ${gone.color} ${ROLE_NAMES[gone.role]} went from ` +
      `${sq(held.answered.from)} to ${sq(held.answered.to)}: it may have landed unseen and been ` +
      `taken there. If ${what} took it, say so (correct the record); if not, set it down`;
    return { kind: 'ambiguous', side, message, candidates };
  }
  // (Lost frames: only captures whose victim's removal the gap may have hidden.)
  const where = held.lost
    ? `frames from the board were lost while ${what} was off the board: if it took on ${took}`
    : `${what} has been off the board a while: if it stands on ${points}, whose sensor is dead` +
      `${took.length > 0 ? `, or took on ${took}` : ''}`;
  return {
    kind: 'ambiguous',
    side,
    message: `${where}, press the clock or say which (correct the record); if not, set it down`,
    candidates,
  };
}

function resyncAlert(context: Context, moves: readonly Move[], retracts: number): Alert {
  const last = context.game.previous?.move;
  const from = context.game.plies - retracts + 1;
  const taken =
    retracts > 1
      ? `the record from ply ${from} on changed to `
      : retracts === 1 && last
        ? `${makeIccs(last)} taken back, then `
        : '';
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `the moves were not seen as they were made; the board reads as ${taken}${moves.map(makeIccs).join(' ')}, ` +
      'recorded so: if other moves were played, say which (correct the record)',
    candidates: [moves.map(makeIccs)],
  };
}

function unreadButtonAlert({ side, reply }: { readonly side: Color; readonly reply: boolean }): Alert {
  const other = opposite(side);
  return {
    kind: 'ambiguous',
    side,
    message: reply
      ? `${side} pressed the clock, but neither ${other}'s move nor ${side}'s reply was seen complete: ` +
        'lift each piece that moved and set it down again in the middle of its point (its sensor may ' +
        'not read it)'
      : `${side} pressed the clock, but no move of ${side}'s was seen complete: lift the piece ` +
        'that moved and set it down again in the middle of its point (its sensor may not read it); ' +
        'if nothing moved, make the move',
  };
}

function blindAlert(context: Context, moves: readonly Move[]): Alert {
  const pieces = moves.map((m, k) => {
    const piece = positionAfter(context, moves.slice(0, k)).pieceAt(m.from);
    return piece
      ? `the ${piece.color} ${ROLE_NAMES[piece.role]} from ${sq(m.from)}`
      : `the piece from ${sq(m.from)}`;
  });
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `recorded ${moves.map(makeIccs).join(', ')}, a capture nobody saw: nothing was seen taken off ` +
      `${moves.map((m) => sq(m.to)).join(', ')}. If ${pieces.join(' or ')} went to another point ` +
      "instead, that point's sensor may not read it: say where it went (correct the record), or take " +
      'the moves since back and play them again, lifting the captured piece off first',
    candidates: [moves.map(makeIccs)],
  };
}

function knockAlert(context: Context, move: Move): Alert {
  const from = sq(move.from);
  const to = sq(move.to);
  return {
    kind: 'ambiguous',
    side: context.game.position.turn,
    message:
      `recorded ${makeIccs(move)}, but the piece on ${to} may only have been knocked and put back: ` +
      `if the piece from ${from} is still in the hand, set it down where it goes and the record follows`,
    candidates: [[makeIccs(move)]],
  };
}

function liftedDetail(context: Context, lifted: readonly Square[]): StateDetail {
  const pos = context.game.position;
  const side = pos.turnCode;
  const own = lifted.filter((s) => pos.colorAt(s) === side);
  const targets = own.length === 1 ? pos.legalDestinations(own[0]!).map(sq) : [];
  return { lifted: lifted.map(sq), targets };
}

function correctionsFor(context: Context): Correction[] {
  const expected = confirmedCells(context);
  const { mask } = context.readings;
  let observed = context.readings.cells ?? '.'.repeat(90);
  if (mask.size > 0) {
    observed = [...observed].map((c, s) => (mask.has(s) ? expected[s] : c)).join('');
  }
  return pairCorrections(expected, observed);
}

function positionAfter(context: Context, moves: readonly Move[]): Position {
  const pos = context.game.position.clone();
  for (const m of moves) pos.play(m);
  return pos;
}

function illegalSide(context: Context, d: Displacement): Color {
  const pos = positionAfter(context, d.after);
  const c = pos.colorAt(d.from);
  return c === 1 ? 'red' : c === 2 ? 'black' : pos.turn;
}

function illegalAlert(context: Context, d: Displacement): Alert {
  const pos = positionAfter(context, d.after);
  const why = explainIllegal(pos, { from: d.from, to: d.to }) ?? {
    code: 'illegal',
    message: 'the move is not legal',
  };
  const side = illegalSide(context, d);
  return {
    kind: 'illegal_move',
    reason: why.code,
    message: why.message,
    from: sq(d.from),
    to: sq(d.to),
    side,
    legalTargets: side === pos.turn ? pos.legalDestinations(d.from).map(sq) : [],
  };
}
