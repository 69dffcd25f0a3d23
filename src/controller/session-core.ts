/**
 * What a board session's lifecycle does to the game, the record and the bus (lifecycle.ts decides
 * when): loading a game to resume, preparing a new one, recording each move before announcing it,
 * ending alerts, closing and archiving a game.
 */

import { pgnTags } from '../broadcast/metadata.js';
import { Game, type GameOptions } from '../game/game.js';
import type { BoardMeta } from '../mqtt/contract.js';
import { makeChinese, makeWxf } from '../notation/index.js';
import { newGameId } from '../record/journal.js';
import { type Move, Position, parseIccs } from '../rules/index.js';
import type { BoardSimulator } from '../sensors/simulator.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import type { MoveRecord } from '../tracker/game-port.js';
import type { StateDetail, TrackerEmitted, TrackerOptions, TrackerState } from '../tracker/machine.js';
import { expectedCells } from '../tracker/reader.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { ActiveAlerts } from './alerts.js';
import type { Bus, GameView, MoveInfo } from './bus.js';
import type { Booted, LifecycleCore, ReaderInput } from './lifecycle.js';
import { GameRecorder } from './recorder.js';
import { buildView } from './view.js';

export interface CoreOptions {
  readonly board: string;
  readonly bus: Bus;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly wallNow: () => number;
  readonly sensing: Sensing;
  readonly archiveDir: string;
  readonly meta: Readonly<Record<string, string>>;
  /** Event metadata (players, round…); `setMeta` changes it. */
  readonly boardMeta?: BoardMeta;
  /** Live: option changes apply to the next reader too. */
  readonly trackerOptions: TrackerOptions;
  readonly gameOptions: GameOptions;
  /** A simulated board is its own truth: a resumed game sets its pieces. */
  readonly simulator: BoardSimulator | undefined;
}

export class SessionCore implements LifecycleCore {
  game!: Game;
  gameId = '';
  /** Source time of game time 0. */
  private origin = 0;
  private closedAs: { result: string; reason: string } | undefined;
  /** The finished game, shown until the next one starts. */
  private finalView: GameView | undefined;
  private playing = false;
  /** The move reader's latest state, as it published it (`<board>/state`). */
  private readerState: { readonly state: TrackerState; readonly detail: StateDetail } | undefined;
  private lastCells: Cells | undefined;
  private prevCells: Cells | undefined;
  readonly alerts: ActiveAlerts;
  readonly recorder: GameRecorder;
  /** Play against the engine (engine-play.ts): the reader's veto, and the tags naming the engine. */
  refuse: ReaderInput['refuse'];
  gameTags: () => Readonly<Record<string, string>> = () => ({});
  /** The tags of the game resumed from its journal (empty for a new game). */
  resumedMeta: Readonly<Record<string, string>> = {};
  private boardMeta: BoardMeta;

  constructor(private readonly o: CoreOptions) {
    this.alerts = new ActiveAlerts(o.board, o.bus);
    this.boardMeta = o.boardMeta ?? {};
    this.recorder = new GameRecorder({
      archiveDir: o.archiveDir,
      board: o.board,
      sensing: o.sensing,
      logger: o.logger,
      meta: this.journalMeta(),
      clock: o.clock,
      onRefused: (error, retryMs) => this.storageAlert(error, retryMs),
      onCaughtUp: () => this.alerts.clear('storage', this.now()),
    });
  }

  /**
   * The reader's moves are written here before they count as played: a refused write leaves the
   * move unplayed (the reader tries it again, or judges the board anew against the journal).
   */
  private readonly record: MoveRecord = {
    move: (played, t) => {
      const clock = this.game.clock ? this.game.clock.remaining(played.color, t) : undefined;
      const move = {
        ply: played.ply,
        iccs: played.iccs,
        t: Math.max(0, Math.round(t)),
        ...(clock !== undefined ? { clock } : {}),
      };
      const r = this.recorder.writeMove(move);
      return r.ok ? r : { ok: false, retryMs: r.retryMs ?? 1000 };
    },
    retract: (ply, t) => {
      const r = this.recorder.writeRetract(ply, Math.max(0, Math.round(t)));
      return r.ok ? r : { ok: false, retryMs: r.retryMs ?? 1000 };
    },
  };

  /**
   * Raised again for every refused write: what failed, and what to do. The disk (`journal_io`):
   * `storage`; a journal that is gone or a record that does not fit: `record_failed`.
   */
  private storageAlert({ code, message }: { code: string; message: string }, retryMs: number): void {
    if (code !== 'journal_io') {
      this.recordFailed(message);
      return;
    }
    this.o.logger.error(`board ${this.o.board}: ${message}`);
    const full = /ENOSPC|EDQUOT|no space|quota/i.test(message);
    this.alerts.raise(
      {
        kind: 'storage',
        message: `the game record could not be written (${message}): ${
          full ? `free space on the disk of ${this.o.archiveDir}` : `check ${this.o.archiveDir}`
        }; nothing unrecorded is announced, and recording resumes by itself (next try in ${retryMs} ms)`,
      },
      this.now(),
    );
  }

  /** New event metadata: the game under way (its journal, PGN, position) and the next ones. */
  setMeta(meta: BoardMeta): void {
    this.boardMeta = meta;
    const written = this.recorder.updateMeta(this.journalMeta());
    if (!written.ok) this.o.logger.warn(written.error.message);
    if (!this.finalView && this.game)
      this.o.bus.emit('game.view', { board: this.o.board, view: this.view() });
  }

  private journalMeta(): Record<string, string> {
    return { ...this.o.meta, ...pgnTags(this.boardMeta), Board: this.o.board };
  }

  /** Game time now. */
  now(): number {
    return Math.max(0, Math.round(this.o.clock.now() - this.origin));
  }

  /** Game time of a source time. */
  gameTime(t: number): number {
    return t - this.origin;
  }

  /** The session saw this reading (before the machine hears of it). */
  see(cells: Cells): void {
    this.prevCells = this.lastCells;
    this.lastCells = cells;
  }

  get phase(): 'setup' | 'playing' | 'over' {
    return this.finalView ? 'over' : this.playing ? 'playing' : 'setup';
  }

  view(): GameView {
    if (this.finalView) return this.finalView;
    return buildView({
      board: this.o.board,
      gameId: this.gameId,
      game: this.game,
      phase: this.phase,
      closedAs: this.closedAs,
      now: this.now(),
      tags: this.tags(),
      meta: this.boardMeta,
      date: new Date(this.o.wallNow()),
    });
  }

  // --- LifecycleCore ----------------------------------------------------------------------------

  load(): Booted {
    this.recorder.archiveEnded();
    const booted = this.resume();
    if (booted === 'new') this.prepare(undefined, false);
    return booted;
  }

  private resume(): Booted {
    const found = this.recorder.findResumable();
    if (!found) return 'new';
    const read = found.state;
    const moves: { move: Move; t: number }[] = [];
    for (const m of read.moves) {
      const move = parseIccs(m.iccs);
      if (!move.ok) break;
      moves.push({ move: move.value, t: m.t });
    }
    const game = Game.fromRecord({ fen: read.start.fen, moves }, this.o.gameOptions);
    if (!game.ok) {
      this.o.logger.error(`${found.journal.path} does not replay (${game.error.message})`);
      found.journal.close();
      return 'new';
    }
    this.game = game.value;
    this.gameId = read.start.id;
    this.resumedMeta = read.start.meta;
    this.closedAs = undefined;
    this.finalView = undefined;
    this.playing = false;
    const lastT = read.moves.at(-1)?.t ?? 0;
    const age = this.o.wallNow() - Date.parse(read.start.startedAt);
    this.origin = this.o.clock.now() - Math.max(lastT, Number.isFinite(age) ? age : 0);
    this.recorder.attach(found, this.origin);
    this.o.logger.info(`resuming game ${this.gameId} after ply ${moves.length}`);
    if (this.isFinal()) return 'resumed_over';
    this.o.simulator?.setPosition(this.game.fen);
    this.o.bus.emit('game.view', { board: this.o.board, view: this.view() });
    return 'resumed';
  }

  prepare(fen: string | undefined, afterEnd: boolean): void {
    // A request's FEN is checked before it gets here; the start position always starts.
    const started = Game.start(fen, this.o.gameOptions);
    const game = started.ok ? started : Game.start(undefined, this.o.gameOptions);
    if (!game.ok) throw new Error(game.error.message);
    this.game = game.value;
    this.gameId = newGameId(new Date(this.o.wallNow()));
    this.resumedMeta = {};
    this.closedAs = undefined;
    this.playing = false;
    this.origin = this.o.clock.now();
    this.recorder.prepare(this.game.startFen, this.origin);
    // The board as it stands is the new game's first reading, in its log as for its reader.
    if (this.lastCells !== undefined) {
      this.recorder.log({ type: 'snapshot', t: this.o.clock.now(), cells: this.lastCells });
    }
    // Everything ends when a new game starts.
    this.alerts.clearAll(0);
    if (afterEnd) return;
    this.finalView = undefined;
    this.o.bus.emit('game.view', { board: this.o.board, view: this.view() });
  }

  readerInput(): ReaderInput {
    const clock = this.o.clock;
    const now = () => clock.now() - this.origin;
    return {
      game: this.game,
      options: this.o.trackerOptions,
      clock: { now, setTimer: (fn, ms) => clock.setTimer(fn, ms) },
      cells: this.lastCells,
      now,
      ...(this.refuse ? { refuse: this.refuse } : {}),
      record: this.record,
    };
  }

  begin(): void {
    this.recorder.begin(
      this.gameId,
      this.game.startFen,
      new Date(this.o.wallNow() - this.now()),
      this.gameTags(),
    );
    // Refused (a full disk): reported by the recorder; the journal is created at the first move.
    this.playing = true;
    this.readerState = undefined;
    this.finalView = undefined;
    this.o.logger.info(`game ${this.gameId} under way at ply ${this.game.moves.length}`);
    this.o.bus.emit('game.view', { board: this.o.board, view: this.view() });
    // A game resumed in check: the check is raised again (and ended like any other).
    this.checkAlert(this.now());
  }

  onReader(e: TrackerEmitted): void {
    const board = this.o.board;
    switch (e.type) {
      case 'move':
        this.recordMove(e);
        return;
      case 'retract':
        // Journaled already (the reader's `record`).
        this.alerts.clear('record_failed', e.t);
        this.o.bus.emit('game.retract', { board, ply: e.ply, t: e.t, view: this.view() });
        this.checkAlert(e.t);
        return;
      case 'alert':
        // A check is the session's to end (checkAlert); it raises it itself.
        if (e.alert.kind !== 'check') this.alerts.raise(e.alert, e.t);
        return;
      case 'alertCleared':
        // The session ends checks itself, in step with what it has recorded.
        if (e.kind !== 'check') this.alerts.clear(e.kind, e.t);
        return;
      case 'state':
        this.readerState = { state: e.state, detail: e.detail };
        this.o.bus.emit('tracker.state', { board, state: e.state, detail: e.detail, t: e.t });
        return;
      case 'gameOver':
        if (!this.isFinal()) this.announceEnd();
        return;
      case 'gameStart':
        return;
    }
  }

  /**
   * A move the board may show made that the record does not hold yet: the mover's piece is off its
   * point and may have captured where nothing showed it (a capture swapped within a scan, a victim
   * taken off unseen). Only the mover's clock or the opponent's next move will show it; a result
   * declared now would end the game without it, or name the wrong side to move. What to do, or
   * undefined when the record is settled.
   */
  unsettledMove(): string | undefined {
    const r = this.readerState;
    if (!this.playing || r?.state !== 'pending_capture') return undefined;
    const lines = r.detail.candidates ?? [];
    if (lines.length === 0) return undefined;
    const mover = this.game.turn;
    const said = lines.map((l) => l.join(' ')).join(' or ');
    return (
      `${mover}'s move is not recorded yet (the board may show ${said}): ${mover} presses the clock, ` +
      'or sets the piece down, or the record is corrected (game/correct); then ask again'
    );
  }

  /** Announces a move the reader's `record` has journaled (written and fsynced). */
  private recordMove(e: TrackerEmitted & { type: 'move' }): void {
    const played = this.game.moves[e.ply - 1];
    if (!played) return;
    // Not durable, so not announced (a move read while the journal was gone).
    if (!this.recorder.isRecorded(e.ply, e.iccs)) {
      this.recordFailed(`ply ${e.ply} ${e.iccs} is not in the journal`);
      return;
    }
    this.alerts.clear('record_failed', e.t);
    const t = Math.max(0, Math.round(e.t));
    // Kept per ply by the game: no replay from the start for each announced move.
    const before = this.game.positionAfter(e.ply - 1);
    const info: MoveInfo = {
      ply: e.ply,
      iccs: e.iccs,
      wxf: (before && makeWxf(before, e.move)) ?? e.iccs,
      zh: (before && makeChinese(before, e.move)) ?? e.iccs,
      color: played.color,
      check: played.check,
      capture: played.captured !== undefined,
      fen: played.fen,
      t,
    };
    this.o.bus.emit('game.move', { board: this.o.board, move: info, view: this.view() });
    this.checkAlert(e.t);
  }

  /** A check ends with the position it was given in; the side to move now may be in check. */
  private checkAlert(t: number): void {
    this.alerts.clear('check', t);
    const pos = this.game.position;
    if (this.game.isOver || !pos.isCheck()) return;
    this.alerts.raise({ kind: 'check', side: pos.turn, message: `${pos.turn} is in check` }, t);
  }

  private recordFailed(message: string): void {
    this.o.logger.error(`${message}`);
    this.alerts.raise(
      { kind: 'record_failed', message: `the game record could not be written: ${message}` },
      this.now(),
    );
  }

  isFinal(): boolean {
    return this.game.isOver && !this.game.canPlayOn;
  }

  announceEnd(): void {
    this.o.bus.emit('game.over', { board: this.o.board, view: this.view() });
  }

  setUpAgain(cells: Cells): boolean {
    return (
      cells !== this.prevCells &&
      this.playing &&
      this.game.isOver &&
      this.game.moves.length > 0 &&
      cells === expectedCells(Position.default(), this.o.sensing)
    );
  }

  close(abandoned: boolean): void {
    const t = this.now();
    this.alerts.clearAll(t);
    if (!this.recorder.started) return;
    const outcome = this.game.outcome;
    if (abandoned && !outcome) this.closedAs = { result: '*', reason: 'abandoned' };
    this.recorder.finish(
      this.closedAs ? '*' : (outcome?.result ?? '*'),
      this.closedAs?.reason ?? outcome?.reason ?? null,
      t,
    );
    this.playing = false;
    this.finalView = undefined;
    this.finalView = buildView({
      board: this.o.board,
      gameId: this.gameId,
      game: this.game,
      phase: 'over',
      closedAs: this.closedAs,
      now: t,
      tags: this.tags(),
      meta: this.boardMeta,
      date: new Date(this.o.wallNow()),
    });
    this.o.bus.emit('game.over', { board: this.o.board, view: this.finalView });
    if (!abandoned)
      this.o.bus.emit('tracker.state', { board: this.o.board, state: 'game_over', detail: {}, t });
  }

  boardShowsNext(cells: Cells | undefined = this.lastCells): boolean {
    return cells !== undefined && cells === expectedCells(this.game.position, this.o.sensing);
  }

  /** A game with a clock ends when a flag falls, even if nobody touches the board. */
  tick(): boolean {
    if (!this.playing || this.game.isOver) return false;
    return this.game.tick(Math.max(this.now(), this.game.moves.at(-1)?.t ?? 0)) !== undefined;
  }

  private tags(): Record<string, string> {
    const { Board: _, ...tags } = this.journalMeta();
    return { ...tags, ...this.gameTags() };
  }
}
