/**
 * The move-reading machine: snapshots and clock buttons in; moves, retractions, alerts and its own
 * state out, as emitted events. What a board means is `judge()` in reader.ts; the machine decides
 * *when* to judge and act: after a bounce window for a reading to be believed, after a settle
 * window when a sliding piece could still travel, and after longer for an out-of-sync alert.
 */
import { enqueueActions, setup } from 'xstate';
import { makeIccs } from '../rules/iccs.js';
import type { Position } from '../rules/position.js';
import type { Color, Move, Square } from '../rules/types.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import { type Correction, pairCorrections } from './corrections.js';
import { Lifts } from './lifts.js';
import { commonPrefix, type Displacement, expectedCells, judge, type Line, type Verdict } from './reader.js';

export interface TrackerOptions {
  readonly sensing: Sensing;
  /** A reading must hold this long to be believed (sensor bounce lasts up to 30 ms). */
  readonly bounceMs: number;
  /** A move that could still extend (a slide) is committed once the board held this long. */
  readonly settleMs: number;
  /** A board that nothing explains raises an out-of-sync alert after this long. */
  readonly outOfSyncMs: number;
  /** Takebacks by the player who just moved (casual play); false makes them an alert. */
  readonly takebacks: boolean;
  /** Tournament policy: an illegal move left standing this long is a foul; 0 = casual (alert only). */
  readonly foulAfterMs: number;
}

export const DEFAULT_TRACKER_OPTIONS: Omit<TrackerOptions, 'sensing'> = {
  bounceMs: 35,
  settleMs: 130,
  outOfSyncMs: 2000,
  takebacks: true,
  foulAfterMs: 0,
};

/** What the machine needs of the game; the game model adapts to it. */
export interface GamePort {
  /** The confirmed position: an object never changed once handed out (a move gives a new one). */
  readonly position: Position;
  /** The position before the last move and that move (for takebacks), if there is one. */
  readonly previous: { readonly position: Position; readonly move: Move } | undefined;
  readonly plies: number;
  readonly over: boolean;
  /** Over by an ending a further legal move withdraws (an unclaimed repetition, the move limit…). */
  readonly canPlayOn: boolean;
  /** The result, once over. */
  readonly outcome: { result: string; reason: string; detail?: string } | undefined;
  /** Plays a move the board showed; a refusal (the game's clock ran out first…) says why. */
  play(move: Move, t: number): { ok: true } | { ok: false; message: string };
  /** Takes back the last move; false when the game refuses (it ended by resignation, say). */
  undoLast(t: number): boolean;
  foul(color: Color, t: number): void;
  /** Why a move is illegal, for the alert. */
  explain(pos: Position, move: Move): { code: string; message: string };
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
  | 'play_on';

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
}

export interface StateDetail {
  readonly lifted?: readonly string[];
  readonly targets?: readonly string[];
  readonly candidates?: readonly string[][];
  readonly corrections?: readonly Correction[];
}

export type TrackerEmitted =
  | { type: 'move'; ply: number; move: Move; iccs: string; t: number; frameT: number }
  | { type: 'retract'; ply: number; t: number }
  | { type: 'alert'; alert: Alert; t: number }
  | { type: 'alertCleared'; kind: AlertKind; t: number }
  | { type: 'state'; state: TrackerState; detail: StateDetail; t: number }
  | { type: 'gameStart'; t: number }
  | { type: 'gameOver'; result: string; reason: string; detail?: string; t: number };

export type TrackerEvent =
  | { type: 'snapshot'; t: number; cells: Cells }
  | { type: 'button'; t: number; side: Color };

export interface TrackerInput {
  readonly options: TrackerOptions;
  readonly game: GamePort;
  /** The time source the actor's timers use (a virtual clock in replay and tests). */
  readonly now: () => number;
  /** Resume: the game is already under way; the board is checked against it first. */
  readonly resume?: boolean;
}

interface Context {
  readonly options: TrackerOptions;
  readonly game: GamePort;
  readonly now: () => number;
  cells: Cells | undefined;
  /** Time of the last change of the board (the frame that completes a move). */
  changedAt: number;
  /** Squares lifted since the confirmed position (evidence for captures). */
  readonly lifts: Lifts;
  pending: readonly Line[];
  buttonBy: Color | undefined;
  verdict: Verdict;
  /** The game refused the last move the board showed. */
  rejected: boolean;
  /** The cells of the confirmed position, kept while it stands. */
  expected?: { readonly pos: Position; readonly cells: Cells } | undefined;
}

const sq = (s: Square): string => makeIccs({ from: s, to: s }).slice(0, 2);

export function createTrackerMachine() {
  return setup({
    types: {
      context: {} as Context,
      events: {} as TrackerEvent,
      input: {} as TrackerInput,
      emitted: {} as TrackerEmitted,
    },
    delays: {
      bounce: ({ context }) => context.options.bounceMs,
      settleRest: ({ context }) => Math.max(0, context.options.settleMs - context.options.bounceMs),
      outOfSyncRest: ({ context }) => Math.max(0, context.options.outOfSyncMs - context.options.bounceMs),
      foul: ({ context }) => context.options.foulAfterMs,
    },
    guards: {
      changed: ({ context, event }) => event.type === 'snapshot' && event.cells !== context.cells,
      boardIsTarget: ({ context }) => context.cells === confirmedCells(context),
      isIdle: ({ context }) => context.verdict.kind === 'idle',
      isTransit: ({ context }) => context.verdict.kind === 'transit',
      isPending: ({ context }) => context.verdict.kind === 'pending',
      // A slide may go on; a clock button by the mover ends it at once.
      isMoveNow: ({ context }) =>
        context.verdict.kind === 'move' &&
        (!context.verdict.extendable || context.buttonBy === context.game.position.turn),
      isMove: ({ context }) => context.verdict.kind === 'move',
      isTakeback: ({ context }) => context.verdict.kind === 'takeback',
      isIllegal: ({ context }) => context.verdict.kind === 'illegal',
      takebacksAllowed: ({ context }) => context.options.takebacks,
      tournament: ({ context }) => context.options.foulAfterMs > 0,
      gameOver: ({ context }) => context.game.over,
      canPlayOn: ({ context }) => context.game.canPlayOn,
      rejected: ({ context }) => context.rejected,
    },
    actions: {
      record: ({ context, event }) => {
        if (event.type !== 'snapshot') return;
        trackLifts(context, event.cells, event.t);
        context.cells = event.cells;
        context.changedAt = event.t;
      },
      recordButton: ({ context, event }) => {
        if (event.type === 'button') context.buttonBy = event.side;
      },
      evaluate: ({ context }) => {
        evaluate(context);
      },
      commit: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        for (const e of commitMoves(context, v.kind === 'move' ? v.line.moves : [])) enqueue.emit(e);
      }),
      retract: enqueueActions(({ context, enqueue }) => {
        const t = context.now();
        const ply = context.game.plies;
        if (!context.game.undoLast(t)) return;
        resetEvidence(context);
        enqueue.emit({ type: 'retract', ply, t });
      }),
      foul: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'illegal') return;
        const t = context.now();
        context.game.foul(v.displacement.turn, t);
        enqueue.emit({
          type: 'alert',
          t,
          alert: {
            kind: 'foul',
            side: v.displacement.turn,
            message: `foul: ${v.displacement.turn}'s illegal move was not corrected in time`,
          },
        });
      }),
      clearPending: ({ context }) => {
        context.pending = [];
      },
      resetEvidence: ({ context }) => resetEvidence(context),
      emitGameStart: enqueueActions(({ context, enqueue }) => {
        enqueue.emit({ type: 'gameStart', t: context.now() });
      }),
      emitSetup: enqueueActions(({ context, enqueue }) =>
        enqueue.emit(stateEvent(context, 'setup', { corrections: correctionsFor(context) })),
      ),
      emitIdle: enqueueActions(({ context, enqueue }) =>
        enqueue.emit(stateEvent(context, 'awaiting_move', {})),
      ),
      emitLifted: enqueueActions(({ context, enqueue }) =>
        enqueue.emit(stateEvent(context, 'piece_lifted', liftedDetail(context))),
      ),
      emitPending: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        const candidates = v.kind === 'pending' ? v.lines.map((l) => l.moves.map(makeIccs)) : [];
        enqueue.emit(stateEvent(context, 'pending_capture', { candidates }));
      }),
      emitIllegal: enqueueActions(({ context, enqueue }) => {
        const v = context.verdict;
        if (v.kind !== 'illegal') return;
        const t = context.now();
        enqueue.emit({ type: 'alert', t, alert: illegalAlert(context, v.displacement) });
        enqueue.emit({ type: 'state', state: 'illegal', t, detail: {} });
      }),
      clearIllegal: enqueueActions(({ context, enqueue }) => {
        enqueue.emit({ type: 'alertCleared', kind: 'illegal_move', t: context.now() });
      }),
      emitTakebackRefused: enqueueActions(({ context, enqueue }) => {
        enqueue.emit({
          type: 'alert',
          t: context.now(),
          alert: {
            kind: 'takeback_forbidden',
            message: 'takebacks are not allowed in this game: play the last move again',
          },
        });
      }),
      clearTakebackRefused: enqueueActions(({ context, enqueue }) => {
        enqueue.emit({ type: 'alertCleared', kind: 'takeback_forbidden', t: context.now() });
      }),
      emitOutOfSync: enqueueActions(({ context, enqueue }) => {
        const t = context.now();
        const corrections = correctionsFor(context);
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
      clearOutOfSync: enqueueActions(({ context, enqueue }) => {
        enqueue.emit({ type: 'alertCleared', kind: 'out_of_sync', t: context.now() });
      }),
      emitGameOver: enqueueActions(({ context, enqueue }) => {
        const outcome = context.game.outcome;
        if (outcome) enqueue.emit({ type: 'gameOver', ...outcome, t: context.now() });
        enqueue.emit(stateEvent(context, 'game_over', {}));
      }),
    },
  }).createMachine({
    id: 'tracker',
    context: ({ input }) => ({
      options: input.options,
      game: input.game,
      now: input.now,
      cells: undefined,
      changedAt: 0,
      lifts: new Lifts(input.options.bounceMs),
      pending: [],
      buttonBy: undefined,
      verdict: { kind: 'unknown', keep: [] },
      rejected: false,
    }),
    initial: 'setup',
    states: {
      /** Waiting for the board to show the game's position (the start, a FEN, or a resumed game). */
      setup: {
        on: {
          snapshot: { guard: 'changed', target: 'setup', reenter: true, actions: 'record' },
        },
        after: {
          bounce: [
            { guard: 'boardIsTarget', target: 'playing', actions: ['resetEvidence', 'emitGameStart'] },
            { actions: 'emitSetup' },
          ],
        },
      },
      playing: {
        initial: 'idle',
        on: {
          snapshot: { guard: 'changed', target: '.changing', reenter: true, actions: 'record' },
        },
        states: {
          idle: {
            entry: 'emitIdle',
            on: { button: { target: 'judging', actions: ['recordButton', 'evaluate'] } },
          },
          changing: {
            on: { button: { actions: 'recordButton' } },
            after: { bounce: { target: 'judging', actions: 'evaluate' } },
          },
          judging: {
            always: [
              { guard: 'isMoveNow', target: 'committed', actions: 'commit' },
              { guard: 'isMove', target: 'settling' },
              { guard: 'isPending', target: 'pendingCapture' },
              { guard: 'isTransit', target: 'lifted' },
              { guard: 'isIdle', target: 'idle', actions: 'clearPending' },
              { guard: 'isTakeback', target: 'takebackCandidate' },
              { guard: 'isIllegal', target: 'illegalCandidate' },
              { target: 'unmatched' },
            ],
          },
          committed: {
            always: [
              { guard: 'canPlayOn', target: 'ended' },
              { guard: 'gameOver', target: '#tracker.gameOver' },
              { guard: 'rejected', target: 'unmatched' },
              { target: 'judging', actions: 'evaluate' },
            ],
          },
          settling: {
            on: { button: { target: 'judging', actions: ['recordButton', 'evaluate'] } },
            after: { settleRest: { target: 'committed', actions: 'commit' } },
          },
          pendingCapture: {
            entry: 'emitPending',
            on: { button: { target: 'judging', actions: ['recordButton', 'evaluate'] } },
          },
          lifted: {
            entry: 'emitLifted',
            on: { button: { target: 'judging', actions: ['recordButton', 'evaluate'] } },
          },
          takebackCandidate: {
            after: {
              settleRest: [
                { guard: 'takebacksAllowed', target: 'judging', actions: ['retract', 'evaluate'] },
                { target: 'takebackRefused' },
              ],
            },
          },
          takebackRefused: { entry: 'emitTakebackRefused', exit: 'clearTakebackRefused' },
          illegalCandidate: { after: { settleRest: 'illegal' } },
          illegal: {
            entry: 'emitIllegal',
            exit: 'clearIllegal',
            initial: 'standing',
            states: {
              standing: {
                after: { foul: { guard: 'tournament', target: 'fouled', actions: 'foul' } },
              },
              fouled: {
                always: { guard: 'gameOver', target: '#tracker.gameOver' },
              },
            },
          },
          /** Ended by an ending the players may play past: the board is still read. */
          ended: { entry: 'emitGameOver' },
          unmatched: { after: { outOfSyncRest: 'outOfSync' } },
          outOfSync: { entry: 'emitOutOfSync', exit: 'clearOutOfSync' },
        },
      },
      gameOver: { entry: 'emitGameOver' },
    },
  });
}

const stateEvent = (context: Context, state: TrackerState, detail: StateDetail): TrackerEmitted => ({
  type: 'state',
  state,
  detail,
  t: context.now(),
});

function evaluate(context: Context): void {
  const cells = context.cells;
  if (cells === undefined) {
    context.verdict = { kind: 'unknown', keep: [] };
    return;
  }
  const now = context.now();
  const lifted = context.lifts.at(now);
  const verdict = judge(
    context.game.position,
    cells,
    context.options.sensing,
    context.pending,
    { lifted, buttonBy: context.buttonBy },
    context.game.previous,
  );
  context.verdict = verdict;
  if ('keep' in verdict && verdict.keep) context.pending = verdict.keep;
  else if (verdict.kind === 'idle') {
    // The board is back as it was: what was lifted and put back (a touch, a takeback refused and
    // replayed) is evidence for nothing that comes next.
    context.pending = [];
    resetEvidence(context);
  }
}

function commitMoves(context: Context, moves: readonly Move[]): TrackerEmitted[] {
  const out: TrackerEmitted[] = [];
  const t = context.now();
  context.rejected = false;
  for (const move of moves) {
    const ended = context.game.outcome;
    const played = context.game.play(move, t);
    if (!played.ok) {
      context.rejected = true;
      out.push({ type: 'alert', t, alert: { kind: 'move_rejected', message: played.message } });
      break;
    }
    if (ended) {
      out.push({
        type: 'alert',
        t,
        alert: {
          kind: 'play_on',
          message: `play goes on past the ${ended.reason.replace(/_/g, ' ')} (${ended.result})`,
        },
      });
    }
    out.push({
      type: 'move',
      ply: context.game.plies,
      move,
      iccs: makeIccs(move),
      t,
      frameT: context.changedAt,
    });
    if (context.game.over) break;
    if (context.game.position.isCheck()) {
      out.push({
        type: 'alert',
        t,
        alert: {
          kind: 'check',
          side: context.game.position.turn,
          message: `${context.game.position.turn} is in check`,
        },
      });
    }
  }
  // Lines that went further than the committed moves stay pending, rebased.
  const n = moves.length;
  context.pending = context.pending
    .filter((l) => l.moves.length > n && commonPrefix([l, { moves, weak: false }]).length === n)
    .map((l) => ({ moves: l.moves.slice(n), weak: l.weak }));
  resetEvidence(context);
  return out;
}

/**
 * What the confirmed position shows the sensors, worked out once per position (the game port
 * hands out the same position object until a move changes it): every frame needs it.
 */
function confirmedCells(context: Context): Cells {
  const pos = context.game.position;
  if (context.expected?.pos !== pos) {
    context.expected = { pos, cells: expectedCells(pos, context.options.sensing) };
  }
  return context.expected.cells;
}

function trackLifts(context: Context, cells: Cells, t: number): void {
  context.lifts.observe(confirmedCells(context), cells, t);
}

function resetEvidence(context: Context): void {
  context.buttonBy = undefined;
  context.lifts.reset(confirmedCells(context));
}

function liftedDetail(context: Context): StateDetail {
  const v = context.verdict;
  if (v.kind !== 'transit') return {};
  const pos = context.game.position;
  const own = v.lifted.filter((s) => pos.pieceAt(s)?.color === pos.turn);
  const targets = own.length === 1 ? pos.legalDestinations(own[0]!).map(sq) : [];
  return { lifted: v.lifted.map(sq), targets };
}

function correctionsFor(context: Context): Correction[] {
  return pairCorrections(confirmedCells(context), context.cells ?? '.'.repeat(90));
}

function illegalAlert(context: Context, d: Displacement): Alert {
  const pos = context.game.position.clone();
  for (const m of d.after) pos.play(m);
  const move = { from: d.from, to: d.to };
  const why = context.game.explain(pos, move);
  const mine = pos.pieceAt(d.from)?.color === pos.turn;
  return {
    kind: 'illegal_move',
    reason: why.code,
    message: why.message,
    from: sq(d.from),
    to: sq(d.to),
    side: pos.pieceAt(d.from)?.color ?? pos.turn,
    legalTargets: mine ? pos.legalDestinations(d.from).map(sq) : [],
  };
}
