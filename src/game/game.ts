/**
 * A game of xiangqi as the rules text (../shared/docs/rules.md, rule 4) ends it: the start
 * position, the moves with their times, the position history and the outcome with its reason and
 * article. Pure: no I/O, no wall clock; every time (ms, any monotonic scale) is given by the
 * caller — the move-reading machine, a log replay or a test.
 *
 * The move reader drives it with `play`/`undoLast` as the board changes; a recorder reads `moves`,
 * `history` and `outcome`. Bad requests come back as coded errors, never as exceptions.
 */

import {
  type Color,
  type Move,
  makeFen,
  makeIccs,
  makeSquareName,
  opposite,
  type Piece,
  Position,
  parseFen,
  type Setup,
} from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { ChessClock, type ClockControl, type Flag } from './clock.js';
import { isInsufficientMaterial } from './material.js';
import {
  ARTICLES,
  type GameResult,
  type Outcome,
  type OutcomeReason,
  RULES_REASONS,
  resultFor,
} from './outcome.js';
import { CASUAL, type IllegalMovePolicy } from './policy.js';
import { type HistoryState, judgeRepetition, type RepetitionVerdict } from './repetition.js';

export interface GameOptions {
  /** Rule 4.2.4: plies without a capture that draw (default 120 = 60 moves); 0 turns it off. */
  readonly moveLimit?: number;
  /**
   * When set, each side's checks beyond this many (in the current capture-free stretch) do not
   * count towards the move limit (Pikafish uses 10). Default: every ply counts.
   */
  readonly moveLimitCheckCap?: number;
  /** Illegal moves reported by the board (default casual). */
  readonly policy?: IllegalMovePolicy;
  /** Time control; without it the game has no clock of its own (`flag` then takes the word of an outside clock). */
  readonly clock?: ClockControl;
  /** The clock switches when a move is completed (default) or only on a clock button. */
  readonly clockSwitch?: 'move' | 'button';
  /**
   * Play on past an ending that players may play past at the board — a repetition verdict, the
   * move limit, insufficient material — when a further legal move is made: the ending was not
   * claimed or enforced, so it is withdrawn. Off by default (the rules decide, as `xqboard game`).
   */
  readonly playOn?: boolean;
}

/** Endings the players may play past when nobody claims or enforces them. */
export const PLAY_ON_REASONS: ReadonlySet<OutcomeReason> = new Set<OutcomeReason>([
  'perpetual_check',
  'perpetual_chase',
  'repetition',
  'move_limit',
  'insufficient_material',
]);

export const DEFAULT_MOVE_LIMIT = 120;

export interface PlayedMove {
  /** 1 for the first move of the game. */
  readonly ply: number;
  readonly move: Move;
  readonly iccs: string;
  readonly color: Color;
  readonly piece: Piece;
  readonly captured?: Piece;
  /** The move gives check. */
  readonly check: boolean;
  /** Game time (ms) at which the move was completed. */
  readonly t: number;
  /** Zobrist key of the position after the move. */
  readonly hash: number;
  /** FEN of the position after the move. */
  readonly fen: string;
}

export type GameErrorCode =
  | 'bad_position'
  | 'illegal_move'
  | 'game_over'
  | 'time_backwards'
  | 'nothing_to_undo'
  | 'cannot_undo'
  | 'not_flagged'
  | 'no_draw_offer'
  | 'bad_request'
  | 'clock';
export type GameError = CodedError<GameErrorCode>;

export interface IllegalReport {
  readonly color: Color;
  /** 4.1.2 (generals facing) or 4.1.6 (against the rules of movement). */
  readonly kind: 'illegal_move' | 'facing_generals';
  /** How long the completed illegal move has stood without being corrected. */
  readonly uncorrectedMs: number;
  readonly move?: Move;
  readonly detail?: string;
}

export interface IllegalVerdict {
  /** It counted as a foul (tournament policy). */
  readonly foul: boolean;
  /** Fouls of that side so far. */
  readonly fouls: number;
  /** Set when it ended the game. */
  readonly outcome?: Outcome;
}

const failure = (code: GameErrorCode, message: string): Result<never, GameError> => err({ code, message });

export class Game {
  /** The current position; its undo stack takes moves back (no replay from the start). */
  private readonly pos: Position;
  /** The position after each ply, the start first: what readers ask for by ply, kept as played. */
  private readonly positions: Position[];
  private readonly played: PlayedMove[] = [];
  private readonly states: HistoryState[] = [];
  private ended: Outcome | undefined;
  private lastTime = 0;
  private drawOffer: { color: Color; ply: number } | undefined;
  private readonly foulCount: Record<Color, number> = { red: 0, black: 0 };
  private readonly clockModel: ChessClock | undefined;
  readonly moveLimit: number;

  private constructor(
    start: Position,
    private readonly startFenText: string,
    readonly options: GameOptions,
    clock: ChessClock | undefined,
  ) {
    this.pos = start.clone();
    this.positions = [start];
    this.clockModel = clock;
    this.moveLimit = options.moveLimit ?? DEFAULT_MOVE_LIMIT;
    this.states.push(this.stateOf(undefined).state);
    this.ended = this.judge(0);
  }

  /** A game from a position, a setup or a FEN (the start position without one). */
  static start(from?: Position | Setup | string, options: GameOptions = {}): Result<Game, GameError> {
    let pos: Position;
    if (from instanceof Position) pos = from.clone();
    else {
      let setup: Setup | undefined;
      if (typeof from === 'string') {
        const parsed = parseFen(from);
        if (!parsed.ok)
          return failure('bad_position', `bad FEN (${parsed.error.code}): ${parsed.error.message}`);
        setup = parsed.value;
      } else setup = from;
      const built = setup ? Position.fromSetup(setup) : ok(Position.default());
      if (!built.ok)
        return failure('bad_position', `illegal position (${built.error.code}): ${built.error.message}`);
      pos = built.value;
    }
    const limit = options.moveLimit ?? DEFAULT_MOVE_LIMIT;
    if (!(Number.isInteger(limit) && limit >= 0)) {
      return failure('bad_request', `move limit ${limit} must be a whole number of plies (0 = none)`);
    }
    let clock: ChessClock | undefined;
    if (options.clock) {
      const made = ChessClock.create(options.clock);
      if (!made.ok) return failure('clock', made.error.message);
      clock = made.value;
    }
    return ok(new Game(pos, makeFen(pos.toSetup()), options, clock));
  }

  /**
   * A game rebuilt from its record (a journal after a restart, a PGN): the moves are played again
   * with their times, and the first one that does not fit is named with its ply.
   */
  static fromRecord(
    record: {
      readonly fen?: string;
      readonly moves: readonly { readonly move: Move; readonly t?: number }[];
    },
    options: GameOptions = {},
  ): Result<Game, GameError> {
    const started = Game.start(record.fen, options);
    if (!started.ok) return started;
    for (const m of record.moves) {
      const played = started.value.play(m.move, m.t ?? started.value.lastTime);
      if (!played.ok) return played;
    }
    return started;
  }

  // ------------------------------------------------------------------ reading

  /** A copy of the current position: changing it does not change the game. */
  get position(): Position {
    return this.pos.clone();
  }

  get startPosition(): Position {
    return this.positions[0]!.clone();
  }

  /**
   * A copy of the position after `plies` moves (0: the start), undefined outside the game. Kept
   * per ply, so the position before the last move costs a copy, not a replay of the game.
   */
  positionAfter(plies: number): Position | undefined {
    return this.positions[plies]?.clone();
  }

  get startFen(): string {
    return this.startFenText;
  }

  get fen(): string {
    return this.played.at(-1)?.fen ?? this.startFenText;
  }

  get turn(): Color {
    return this.pos.turn;
  }

  get moves(): readonly PlayedMove[] {
    return this.played;
  }

  /** Positions of the game, the start first: hash, board FEN + side, check. */
  get history(): readonly Readonly<Pick<HistoryState, 'hash' | 'key' | 'check'>>[] {
    return this.states;
  }

  get outcome(): Outcome | undefined {
    return this.ended;
  }

  /** The game ended by an ending that a further legal move withdraws (`playOn`). */
  get canPlayOn(): boolean {
    return (
      this.options.playOn === true &&
      this.ended !== undefined &&
      PLAY_ON_REASONS.has(this.ended.reason) &&
      this.ended.ply === this.played.length
    );
  }

  get isOver(): boolean {
    return this.ended !== undefined;
  }

  get clock(): ChessClock | undefined {
    return this.clockModel;
  }

  get pendingDrawOffer(): Color | undefined {
    return this.drawOffer?.color;
  }

  fouls(color: Color): number {
    return this.foulCount[color];
  }

  /** Plies counted towards the move limit now (see `moveLimitCheckCap`). */
  get movesTowardLimit(): number {
    const plies = this.pos.halfmoves;
    const cap = this.options.moveLimitCheckCap;
    if (cap === undefined) return plies;
    const checks: Record<Color, number> = { red: 0, black: 0 };
    const n = this.played.length;
    for (let k = n - 1; k >= 0 && k >= n - plies; k--) {
      const m = this.played[k]!;
      if (m.check) checks[m.color]++;
    }
    return plies - Math.max(0, checks.red - cap) - Math.max(0, checks.black - cap);
  }

  // ------------------------------------------------------------------ moves

  /**
   * Plays a completed move at time `t`. Refuses an illegal move (`illegal_move`, the game goes on)
   * and any move once the game is over (`game_over`). With a clock switched by moves, a move
   * completed after the mover's time ran out is not played: the flag fell first (4.1.4).
   */
  play(move: Move, t: number = this.lastTime): Result<PlayedMove, GameError> {
    const ply = this.played.length + 1;
    const iccs = validSquares(move) ? makeIccs(move) : `${move.from}-${move.to}`;
    if (this.ended && this.canPlayOn && validSquares(move) && this.pos.isLegal(move)) {
      this.ended = undefined;
    }
    if (this.ended) {
      return failure(
        'game_over',
        `move ${iccs} (ply ${ply}) comes after the end of the game (${this.ended.reason})`,
      );
    }
    const time = this.advance(t);
    if (!time.ok) return time;
    const color = this.pos.turn;
    const piece = validSquares(move) ? this.pos.pieceAt(move.from) : undefined;
    if (!validSquares(move) || !piece || piece.color !== color || !this.pos.isLegal(move)) {
      const why = !validSquares(move)
        ? 'a square is off the board'
        : !piece
          ? `there is no piece on ${makeSquareName(move.from)}`
          : piece.color !== color
            ? `it is ${color}'s move, the piece on ${makeSquareName(move.from)} is ${piece.color}'s`
            : `the ${piece.role} on ${makeSquareName(move.from)} cannot go to ${makeSquareName(move.to)}`;
      return failure('illegal_move', `move ${iccs} (ply ${ply}) is illegal: ${why}`);
    }
    if (this.clockModel && (this.options.clockSwitch ?? 'move') === 'move') {
      const clock = this.clockModel;
      if (!clock.running && !clock.flag) clock.start(color, t);
      const pressed = clock.press(color, t);
      if (!pressed.ok) {
        const flag = clock.flag;
        if (flag) {
          this.endOnTime(flag);
          return failure(
            'game_over',
            `move ${iccs} (ply ${ply}) came after ${color}'s flag fell at ${flag.at} ms`,
          );
        }
        return failure('clock', pressed.error.message);
      }
    }
    const captured = this.pos.play(move);
    this.positions.push(this.pos.clone());
    const { state, fen } = this.stateOf(move);
    const check = state.check;
    this.states.push(state);
    const played: PlayedMove = {
      ply,
      move,
      iccs,
      color,
      piece,
      ...(captured ? { captured } : {}),
      check,
      t,
      hash: state.hash,
      fen,
    };
    this.played.push(played);
    if (this.drawOffer && this.drawOffer.color !== color) this.drawOffer = undefined;
    this.ended = this.judge(t);
    if (this.ended) this.clockModel?.stop(t);
    return ok(played);
  }

  /**
   * Takes back the last move (a takeback on the board). A game that the move ended by the rules
   * (mate, repetition, …) goes on again; one ended by a player or the arbiter cannot be undone.
   */
  undoLast(t: number = this.lastTime): Result<PlayedMove, GameError> {
    const last = this.played.at(-1);
    if (!last) return failure('nothing_to_undo', 'no move to take back');
    if (this.ended && !(RULES_REASONS.has(this.ended.reason) && this.ended.ply === last.ply)) {
      return failure(
        'cannot_undo',
        `the game is over (${this.ended.reason}); its last move cannot be taken back`,
      );
    }
    const time = this.advance(t);
    if (!time.ok) return time;
    this.played.pop();
    this.states.pop();
    this.positions.pop();
    this.pos.undo();
    this.ended = undefined;
    this.drawOffer = undefined;
    if (this.clockModel && (this.options.clockSwitch ?? 'move') === 'move') this.clockModel.takeBack(t);
    return ok(last);
  }

  // ------------------------------------------------------------------ clock

  /** Starts the clock of the side to move (without it, the first move starts it). */
  startClock(t: number): Result<void, GameError> {
    if (!this.clockModel) return failure('clock', 'this game has no clock');
    if (this.ended) return failure('game_over', 'the game is over');
    const time = this.advance(t);
    if (!time.ok) return time;
    const started = this.clockModel.start(this.turn, t);
    return started.ok ? ok(undefined) : failure('clock', started.error.message);
  }

  /** A clock button (boards that have them, `clockSwitch: 'button'`): `color` ends its turn. */
  pressClock(color: Color, t: number): Result<void, GameError> {
    if (!this.clockModel) return failure('clock', 'this game has no clock');
    if (this.ended) return failure('game_over', 'the game is over');
    const time = this.advance(t);
    if (!time.ok) return time;
    const pressed = this.clockModel.press(color, t);
    if (pressed.ok) return ok(undefined);
    const flag = this.clockModel.flag;
    if (flag) {
      this.endOnTime(flag);
      return failure('game_over', `${flag.color}'s flag fell at ${flag.at} ms`);
    }
    return failure('clock', pressed.error.message);
  }

  /** Lets the clock see time `t`: ends the game when a flag has fallen (4.1.4). */
  tick(t: number): Outcome | undefined {
    if (this.ended || !this.clockModel) return this.ended;
    if (!this.advance(t).ok) return undefined;
    const flag = this.clockModel.tick(t);
    if (flag) this.endOnTime(flag);
    return this.ended;
  }

  /**
   * `color`'s flag has fallen (4.1.4). With the game's own clock it must really have fallen by
   * `t`; without one, the report of the outside clock is taken.
   */
  flag(color: Color, t: number): Result<Outcome, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    const time = this.advance(t);
    if (!time.ok) return time;
    if (this.clockModel) {
      const flag = this.clockModel.tick(t);
      if (flag?.color !== color) {
        return failure('not_flagged', `${color} has ${this.clockModel.remaining(color, t)} ms left at ${t}`);
      }
      return ok(this.endOnTime(flag));
    }
    return ok(this.finish(color, 'time', t));
  }

  // ------------------------------------------------------------------ players and arbiter

  resign(color: Color, t: number = this.lastTime): Result<Outcome, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    return ok(this.finish(color, 'resignation', t));
  }

  /** `color` offers a draw; it stands until the other side accepts, declines or moves. */
  offerDraw(color: Color, t: number = this.lastTime): Result<void, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    const time = this.advance(t);
    if (!time.ok) return time;
    this.drawOffer = { color, ply: this.played.length };
    return ok(undefined);
  }

  acceptDraw(color: Color, t: number = this.lastTime): Result<Outcome, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    if (this.drawOffer?.color !== opposite(color)) {
      return failure('no_draw_offer', `${opposite(color)} has no draw offer standing for ${color} to accept`);
    }
    return ok(this.finish(undefined, 'agreement', t));
  }

  declineDraw(color: Color): Result<void, GameError> {
    if (this.drawOffer?.color !== opposite(color)) {
      return failure('no_draw_offer', `${opposite(color)} has no draw offer standing`);
    }
    this.drawOffer = undefined;
    return ok(undefined);
  }

  /** An arbiter's decision (4.1.5 lateness, 4.1.10 discipline, or anything else, with its reason). */
  arbiter(
    result: GameResult,
    reason: string,
    article = '4.1.10',
    t: number = this.lastTime,
  ): Result<Outcome, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    if (result !== '1-0' && result !== '0-1' && result !== '1/2-1/2') {
      return failure('bad_request', `result '${String(result)}' is not 1-0, 0-1 or 1/2-1/2`);
    }
    const loser: Color | undefined = result === '1-0' ? 'black' : result === '0-1' ? 'red' : undefined;
    return ok(this.finish(loser, 'arbiter', t, reason, article));
  }

  /**
   * A completed move against the rules, reported by the board (it is never played). Casual: an
   * alert only. Tournament: a foul once it stood uncorrected for the correction time; the
   * `foulsToLose`-th foul loses (4.1.8), or at once with `completedIllegalLoses` (4.1.2, 4.1.6).
   */
  reportIllegal(report: IllegalReport, t: number = this.lastTime): Result<IllegalVerdict, GameError> {
    if (this.ended) return failure('game_over', 'the game is over');
    if (!(report.uncorrectedMs >= 0)) return failure('bad_request', 'uncorrectedMs must be a time ≥ 0');
    const time = this.advance(t);
    if (!time.ok) return time;
    const policy = this.options.policy ?? CASUAL;
    const fouls = this.foulCount[report.color];
    if (policy.kind === 'casual') return ok({ foul: false, fouls });
    if (policy.completedIllegalLoses) {
      const outcome = this.finish(report.color, report.kind, t, report.detail);
      return ok({ foul: false, fouls, outcome });
    }
    if (report.uncorrectedMs < policy.correctionMs) return ok({ foul: false, fouls });
    const now = ++this.foulCount[report.color];
    if (now >= policy.foulsToLose) {
      const outcome = this.finish(report.color, 'fouls', t, `${now} fouls`);
      return ok({ foul: true, fouls: now, outcome });
    }
    return ok({ foul: true, fouls: now });
  }

  // ------------------------------------------------------------------ internals

  /** The history state of the current position, reached by `move`, and its FEN. */
  private stateOf(move: Move | undefined): { state: HistoryState; fen: string } {
    const pos = this.pos;
    const setup = pos.toSetup();
    const fen = makeFen(setup);
    const state: HistoryState = {
      hash: pos.hash,
      // Board FEN and side: the FEN up to the side's letter.
      key: fen.slice(0, fen.indexOf(' ') + 2),
      board: setup.board,
      check: pos.isCheck(),
      ...(move ? { move } : {}),
    };
    return { state, fen };
  }

  /** The endings the rules decide from the position and its history, in order of precedence. */
  private judge(t: number): Outcome | undefined {
    const pos = this.pos;
    const ply = this.played.length;
    const at = (loser: Color | undefined, reason: OutcomeReason): Outcome =>
      this.outcomeOf(loser, reason, ply, t);
    if (!pos.hasLegalMove()) return at(pos.turn, pos.isCheck() ? 'checkmate' : 'stalemate');
    const verdict = judgeRepetition(this.states, pos.halfmoves);
    if (verdict) return this.outcomeOf(verdict.loser, verdict.reason, ply, t, describeVerdict(verdict, pos));
    if (isInsufficientMaterial(this.states.at(-1)!.board)) return at(undefined, 'insufficient_material');
    if (this.moveLimit > 0 && this.movesTowardLimit >= this.moveLimit) return at(undefined, 'move_limit');
    return undefined;
  }

  private outcomeOf(
    loser: Color | undefined,
    reason: OutcomeReason,
    ply: number,
    t: number,
    detail?: string,
    article?: string,
  ): Outcome {
    return {
      result: resultFor(loser),
      reason,
      article: article ?? (reason === 'arbiter' ? '4.1.10' : ARTICLES[reason]),
      ...(loser ? { loser } : {}),
      ...(detail !== undefined ? { detail } : {}),
      ply,
      t,
    };
  }

  private finish(
    loser: Color | undefined,
    reason: OutcomeReason,
    t: number,
    detail?: string,
    article?: string,
  ): Outcome {
    this.ended = this.outcomeOf(loser, reason, this.played.length, t, detail, article);
    if (this.clockModel?.running) this.clockModel.stop(Math.max(t, this.lastTime));
    return this.ended;
  }

  private endOnTime(flag: Flag): Outcome {
    return this.finish(flag.color, 'time', flag.at, `flag fell at ${flag.at} ms`);
  }

  private advance(t: number): Result<void, GameError> {
    if (!Number.isFinite(t)) return failure('time_backwards', `time ${t} is not a number of ms`);
    if (t < this.lastTime)
      return failure('time_backwards', `time ${t} is before the game's last event (${this.lastTime})`);
    this.lastTime = t;
    return ok(undefined);
  }
}

/** "black chased red's chariot on d1 with every move", for the outcome's detail. */
function describeVerdict(verdict: RepetitionVerdict, pos: Position): string {
  const parts: string[] = [];
  for (const color of ['red', 'black'] as const) {
    if (verdict.perpetualCheck[color]) parts.push(`${color} checked with every move`);
    const victims = verdict.chased[color].map(
      (sq) => `${pos.pieceAt(sq)?.role ?? 'piece'} on ${makeSquareName(sq)}`,
    );
    if (victims.length > 0)
      parts.push(`${color} chased ${opposite(color)}'s ${victims.join(' and ')} with every move`);
  }
  const what = parts.length > 0 ? parts.join('; ') : 'neither side checked or chased with every move';
  return `position repeated a third time (cycle of ${verdict.cycle} plies): ${what}`;
}

const validSquares = (m: Move): boolean =>
  Number.isInteger(m.from) && Number.isInteger(m.to) && m.from >= 0 && m.from < 90 && m.to >= 0 && m.to < 90;
