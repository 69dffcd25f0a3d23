/**
 * `board/simulate` on a simulated board: requests wait in a queue and each is answered when its
 * move is recorded (the journal has it) or refused, never before. A move that would record nothing
 * (the board in setup, the game over, the wrong side's move, an illegal one) is refused before the
 * hand touches a piece, with the reason.
 */
import { notationOf, parseMoveAny } from '../notation/index.js';
import {
  explainIllegal,
  INITIAL_FEN,
  type Move,
  makeIccs,
  opposite,
  Position,
  parseIccs,
} from '../rules/index.js';
import type { BoardSimulator, SimulatedHand } from '../sensors/simulator.js';
import type { Clock } from '../util/clock.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import type { Bus } from './bus.js';
import type { SessionCore } from './session-core.js';

export type SessionErrorCode =
  | 'bad_position'
  | 'no_game'
  | 'game_over'
  | 'setup'
  | 'game'
  | 'not_simulated'
  | 'bad_move'
  | 'wrong_side'
  | 'illegal_move'
  | 'refused'
  | 'not_recorded'
  | 'record_failed'
  | 'stopped'
  | 'engine'
  | 'no_doubt'
  | 'bad_candidate'
  | 'contradicted'
  | 'stale'
  | 'doubt'
  | 'bad_ply'
  | 'unsettled';
export type SessionError = CodedError<SessionErrorCode>;

export const fail = (code: SessionErrorCode, message: string): { ok: false; error: SessionError } =>
  err({ code, message });

export type SimulateRequest = { move: string } | { reset: true } | { fen: string };

export interface SimulateAnswer {
  readonly iccs?: string;
  /** The ply the move was recorded as. */
  readonly ply?: number;
}

/** Alerts that mean the board's move will not be recorded. */
const REFUSALS = new Set([
  'illegal_move',
  'move_rejected',
  'record_failed',
  'storage',
  'out_of_sync',
  'takeback_forbidden',
]);

export class SimulateQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Cancels the wait for the move being recorded now. */
  private cancelWait: (() => void) | undefined;

  constructor(
    private readonly board: string,
    private readonly sim: BoardSimulator,
    private readonly hand: SimulatedHand,
    private readonly core: SessionCore,
    private readonly bus: Bus,
    private readonly clock: Clock,
    /** How long after the piece is set down the move may take to be recorded. */
    private readonly recordWaitMs: number,
  ) {}

  request(req: SimulateRequest): Promise<Result<SimulateAnswer, SessionError>> {
    const run = this.tail.then(() => this.run(req));
    this.tail = run.catch(() => undefined);
    return run;
  }

  stop(): void {
    this.stopped = true;
    this.hand.stop();
    this.cancelWait?.();
  }

  /** A new game: the move in progress is dropped where it is (the board is set up anew). */
  interrupt(reason: string): void {
    this.hand.stop(reason);
  }

  private async run(req: SimulateRequest): Promise<Result<SimulateAnswer, SessionError>> {
    if (this.stopped) return fail('stopped', 'the board is stopping');
    if (!('move' in req)) {
      const r = this.sim.setPosition('fen' in req ? req.fen : INITIAL_FEN);
      return r.ok ? ok({}) : fail('bad_position', r.error.message);
    }
    const phase = this.core.phase;
    if (phase === 'over') return fail('game_over', 'the game is over: start a new game first');
    if (phase === 'setup') {
      return fail('setup', "the board is in setup: set the game's position up (reset) before moving");
    }
    const game = this.core.game;
    if (game.isOver && !game.canPlayOn) return fail('game_over', 'the game is over');
    const move = readMove(game.position, req.move);
    if (!move.ok) return move;
    const ply = game.moves.length + 1;
    const recorded = this.waitForRecord(ply);
    this.cancelWait = recorded.cancel;
    const placed = await this.hand.play(move.value.from, move.value.to);
    if (!placed.ok) {
      recorded.cancel();
      if (placed.error.code === 'interrupted') return fail('refused', placed.error.message);
      return fail('bad_move', `the board does not show the game: ${placed.error.message}`);
    }
    recorded.arm();
    return recorded.promise;
  }

  /** The move of `ply` recorded, or a refusal; the time limit starts once the piece is down. */
  private waitForRecord(ply: number) {
    let settle!: (r: Result<SimulateAnswer, SessionError>) => void;
    const promise = new Promise<Result<SimulateAnswer, SessionError>>((resolve) => {
      settle = resolve;
    });
    let cancelTimer: (() => void) | undefined;
    const offs = [
      this.bus.on('game.move', (e) => {
        if (e.board === this.board && e.move.ply === ply) done(ok({ iccs: e.move.iccs, ply }));
      }),
      this.bus.on('tracker.alert', (e) => {
        if (e.board === this.board && REFUSALS.has(e.alert.kind)) {
          done(fail('refused', `${e.alert.kind}: ${e.alert.message}`));
        }
      }),
      this.bus.on('game.view', (e) => {
        if (e.board === this.board && e.view.status === 'setup') done(fail('refused', 'a new game started'));
      }),
    ];
    const done = (r: Result<SimulateAnswer, SessionError>): void => {
      for (const off of offs) off();
      cancelTimer?.();
      this.cancelWait = undefined;
      settle(r);
    };
    return {
      promise,
      cancel: () => done(fail('stopped', 'the board stopped before the move was recorded')),
      arm: () => {
        cancelTimer = this.clock.setTimer(
          () => done(fail('not_recorded', `the board did not record ply ${ply} (is it out of sync?)`)),
          this.recordWaitMs,
        );
      },
    };
  }
}

/**
 * A move of the side to move, in any notation; a refusal says why: the other side's move, or the
 * rule an ICCS move breaks.
 */
export function readMove(pos: Position, text: string): Result<Move, SessionError> {
  // Chinese notation says whose move it is: Red counts in 一…九, Black in digits (８, 8). The
  // parser reads either for the side to move; a Red move with Black to move is refused here.
  const side = notationOf(text) === 'chinese' ? chineseSide(text) : undefined;
  if (side !== undefined && side !== pos.turn) {
    return fail('wrong_side', `'${text}' is a move of ${side}: ${pos.turn} is to move`);
  }
  const parsed = parseMoveAny(pos, text);
  if (parsed.ok) return parsed;
  const flipped = Position.fromSetup({ ...pos.toSetup(), turn: opposite(pos.turn) });
  if (flipped.ok && parseMoveAny(flipped.value, text).ok) {
    return fail('wrong_side', `'${text}' is a move of ${opposite(pos.turn)}: ${pos.turn} is to move`);
  }
  const iccs = parseIccs(text.normalize('NFKC').trim());
  if (iccs.ok) {
    const why = explainIllegal(pos, iccs.value);
    if (why) return fail('illegal_move', `'${makeIccs(iccs.value)}' is not legal: ${why.message}`);
  }
  return fail('bad_move', parsed.error.message);
}

function chineseSide(text: string): 'red' | 'black' | undefined {
  if (/[一二三四五六七八九]/.test(text)) return 'red';
  return /[0-9０-９]/.test(text) ? 'black' : undefined;
}
