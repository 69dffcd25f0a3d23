/**
 * The game as the move reader sees it: plays the moves the machine commits into the `Game`, and
 * hands the machine back what it needs (the positions kept at hand, whether the game is over).
 * The game model stays the authority: it may refuse a move (a flag fell first) or end the game.
 */
import type { Game, PlayedMove } from '../game/game.js';
import { type Color, type Move, makeIccs, type Position } from '../rules/index.js';
import type { GameView, MachineEmitted, TrackerEmitted } from './machine.js';
import type { RecordDoubt } from './reader.js';

/**
 * Where the moves are recorded (the journal): each is written before the machine hears it was
 * played. A refused write means the move is not played; `retryMs` says when to try again.
 */
export interface MoveRecord {
  move(played: PlayedMove, t: number): { ok: true } | { ok: false; retryMs: number };
  retract(ply: number, t: number): { ok: true } | { ok: false; retryMs: number };
}

/** A move of the record stays in doubt, for a board read again to change, this many moves on. */
const DOUBT_PLIES = 12;

const sameMove = (a: Move, b: Move): boolean => a.from === b.from && a.to === b.to;

export class TrackedGame {
  private current: Position;
  /** Plies of the record in doubt, and what each may have been instead. */
  private doubts: { readonly ply: number; readonly rivals: Move[]; unseen?: Move[] }[] = [];
  private before: Position | undefined;
  /** The side whose general is in check, while the check alert stands. */
  private checked: Color | undefined;
  /** The session's veto on a move the game would take (play against the engine): why, or undefined. */
  refuse: ((game: Game, move: Move) => string | undefined) | undefined;

  constructor(
    readonly game: Game,
    private readonly record?: MoveRecord,
  ) {
    this.current = game.position;
    this.before = this.game.positionAfter(game.moves.length - 1);
  }

  view(): GameView {
    const last = this.game.moves.at(-1);
    const o = this.game.outcome;
    return {
      position: this.current,
      previous: this.before && last ? { position: this.before, move: last.move } : undefined,
      plies: this.game.moves.length,
      over: this.game.isOver,
      canPlayOn: this.game.canPlayOn,
      outcome: o
        ? { result: o.result, reason: o.reason, ...(o.detail ? { detail: o.detail } : {}) }
        : undefined,
      doubts: this.doubtsView(),
    };
  }

  /**
   * Carries out a commit: the public events it makes, and whether the game refused a move. A write
   * the record refused undoes its step: with nothing done, `retryMs` asks for the same commit again
   * later (the machine is not answered meanwhile); after some steps, the machine is answered with
   * what was recorded and judges the board again from there.
   */
  commit(c: Extract<MachineEmitted, { type: 'commit' }>): {
    events: TrackerEmitted[];
    rejected?: string;
    retryMs?: number;
  } {
    const events: TrackerEmitted[] = [];
    const { t } = c;
    let progressed = false;
    const refused = (retryMs: number) => (progressed ? { events } : { events, retryMs });
    for (let k = 0; k < (c.revision ? (c.retracts ?? 1) : 0); k++) {
      const ply = this.game.moves.length;
      const last = this.game.moves.at(-1);
      if (!this.undoLast(t)) {
        events.push({
          type: 'alert',
          t,
          alert: { kind: 'move_rejected', message: 'the game refused the takeback' },
        });
        return { events, rejected: 'takeback refused' };
      }
      const written = this.record?.retract(ply, t);
      if (written && !written.ok) {
        // The takeback is not on disk: the move stands again.
        this.replay(last!, t);
        return refused(written.retryMs);
      }
      events.push({ type: 'retract', ply, t });
      progressed = true;
    }
    const plies = this.game.moves.length;
    for (const move of c.moves) {
      const ended = this.game.outcome;
      const offer = this.game.pendingDrawOffer;
      const before = this.current;
      const veto = this.refuse?.(this.game, move);
      const played = veto
        ? { ok: false as const, error: { message: veto } }
        : this.game.play(move, this.gameTime(t));
      if (!played.ok) {
        events.push({ type: 'alert', t, alert: { kind: 'move_rejected', message: played.error.message } });
        this.checkAlert(events, t);
        return { events, rejected: played.error.message };
      }
      const written = this.record?.move(played.value, t);
      if (written && !written.ok) {
        // Not on disk, so not played: the board is judged against the recorded game (a draw
        // offer the undo dropped stands again).
        this.game.undoLast(this.gameTime(t));
        if (offer && !this.game.pendingDrawOffer) this.game.offerDraw(offer, this.gameTime(t));
        this.checkAlert(events, t);
        return refused(written.retryMs);
      }
      this.before = before;
      this.current = this.game.position;
      if (ended) {
        events.push({
          type: 'alert',
          t,
          alert: {
            kind: 'play_on',
            message: `play goes on past the ${ended.reason.replace(/_/g, ' ')} (${ended.result})`,
          },
        });
      }
      events.push({
        type: 'move',
        ply: this.game.moves.length,
        move,
        iccs: makeIccs(move),
        t,
        frameT: c.frameT,
      });
      progressed = true;
      if (this.game.isOver && !this.game.canPlayOn) break;
    }
    this.holdInDoubt(plies, c.moves, c.rivals);
    if (c.elsewhere !== undefined && c.moves.length > 0) this.holdUnseen(plies + 1, c.elsewhere);
    this.checkAlert(events, t);
    return { events };
  }

  /**
   * The moves just played from ply `plies + 1` on, beside rival lines that fit as well: where each
   * rival parts from them, that move of the record is held in doubt (kept for DOUBT_PLIES moves).
   */
  private holdInDoubt(
    plies: number,
    moves: readonly Move[],
    rivals: readonly (readonly Move[])[] = [],
  ): void {
    for (const rival of rivals) {
      const k = rival.findIndex((m, i) => moves[i] === undefined || !sameMove(m, moves[i]!));
      if (k < 0 || moves[k] === undefined) continue;
      const ply = plies + k + 1;
      const held = this.doubts.find((d) => d.ply === ply);
      if (!held) this.doubts.push({ ply, rivals: [rival[k]!] });
      else if (!held.rivals.some((r) => sameMove(r, rival[k]!))) held.rivals.push(rival[k]!);
    }
  }

  /** Ply `ply`, a capture nobody saw, may have been a move to one of `moves` over a dead sensor. */
  private holdUnseen(ply: number, moves: readonly Move[]): void {
    const held = this.doubts.find((d) => d.ply === ply);
    if (held) held.unseen = [...moves];
    else this.doubts.push({ ply, rivals: [], unseen: [...moves] });
  }

  /** The moves of the record in doubt, as the move reader reads them (see `RecordDoubt`). */
  private doubtsView(): RecordDoubt[] {
    const n = this.game.moves.length;
    // (Taken back since, or too far back to change now: forgotten.)
    this.doubts = this.doubts.filter((d) => d.ply <= n && n - d.ply < DOUBT_PLIES);
    return this.doubts.map((d) => ({
      before: this.game.positionAfter(d.ply - 1)!,
      rivals: d.rivals,
      played: this.game.moves.slice(d.ply - 1).map((m) => m.move),
      ...(d.unseen ? { unseen: { moves: d.unseen, at: this.game.moves[d.ply - 1]!.t } } : {}),
    }));
  }

  /** A check is announced once, and ended when the side is out of it (or the game is over). */
  private checkAlert(events: TrackerEmitted[], t: number): void {
    const inCheck = !this.game.isOver && this.current.isCheck() ? this.current.turn : undefined;
    if (this.checked !== undefined && this.checked !== inCheck) {
      events.push({ type: 'alertCleared', kind: 'check', t });
      this.checked = undefined;
    }
    if (inCheck !== undefined && this.checked === undefined) {
      events.push({
        type: 'alert',
        t,
        alert: { kind: 'check', side: inCheck, message: `${inCheck} is in check` },
      });
      this.checked = inCheck;
    }
  }

  foul(color: Color, t: number): void {
    this.game.reportIllegal(
      { color, kind: 'illegal_move', uncorrectedMs: Number.POSITIVE_INFINITY },
      this.gameTime(t),
    );
  }

  /** A move taken back in the game whose takeback could not be recorded, played again. */
  private replay(last: PlayedMove, t: number): void {
    if (!this.game.play(last.move, this.gameTime(t)).ok) return;
    this.current = this.game.position;
    this.before = this.game.positionAfter(this.game.moves.length - 1);
  }

  private undoLast(t: number): boolean {
    if (!this.game.undoLast(this.gameTime(t)).ok) return false;
    this.current = this.game.position;
    this.before = this.game.positionAfter(this.game.moves.length - 1);
    return true;
  }

  /** The board's clock may start behind a resumed game's last move: game time never goes back. */
  private gameTime(t: number): number {
    return Math.max(t, this.game.moves.at(-1)?.t ?? t);
  }
}
