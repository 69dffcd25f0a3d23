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
import { parseIccs } from '../rules/iccs.js';
import { Position } from '../rules/position.js';
import type { Move } from '../rules/types.js';
import type { Clock } from '../sensors/clock.js';
import type { BoardSimulator } from '../sensors/simulator.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import type { TrackerEmitted, TrackerOptions } from '../tracker/machine.js';
import { expectedCells } from '../tracker/reader.js';
import { ActiveAlerts } from './alerts.js';
import type { Bus, GameView, Logger, MoveInfo } from './bus.js';
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
  private lastCells: Cells | undefined;
  private prevCells: Cells | undefined;
  readonly alerts: ActiveAlerts;
  readonly recorder: GameRecorder;
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
    });
  }

  /** New event metadata: the game under way (its journal, PGN, position) and the next ones. */
  setMeta(meta: BoardMeta): void {
    this.boardMeta = meta;
    const written = this.recorder.updateMeta(this.journalMeta());
    if (!written.ok) this.o.logger.warn(`board ${this.o.board}: ${written.error.message}`);
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
      this.o.logger.error(
        `board ${this.o.board}: ${found.journal.path} does not replay (${game.error.message})`,
      );
      found.journal.close();
      return 'new';
    }
    this.game = game.value;
    this.gameId = read.start.id;
    this.closedAs = undefined;
    this.finalView = undefined;
    this.playing = false;
    const lastT = read.moves.at(-1)?.t ?? 0;
    const age = this.o.wallNow() - Date.parse(read.start.startedAt);
    this.origin = this.o.clock.now() - Math.max(lastT, Number.isFinite(age) ? age : 0);
    this.recorder.attach(found, this.origin);
    this.o.logger.info(`board ${this.o.board}: resuming game ${this.gameId} after ply ${moves.length}`);
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
    };
  }

  begin(): void {
    const started = this.recorder.begin(
      this.gameId,
      this.game.startFen,
      new Date(this.o.wallNow() - this.now()),
    );
    if (!started.ok) this.recordFailed(started.error.message);
    this.playing = true;
    this.finalView = undefined;
    this.o.logger.info(
      `board ${this.o.board}: game ${this.gameId} under way at ply ${this.game.moves.length}`,
    );
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
      case 'retract': {
        const r = this.recorder.recordRetract(e.ply, Math.max(0, Math.round(e.t)), () => {
          this.alerts.clear('record_failed', e.t);
          this.o.bus.emit('game.retract', { board, ply: e.ply, t: e.t, view: this.view() });
          this.checkAlert(e.t);
        });
        if (!r.ok) this.recordFailed(r.error.message);
        return;
      }
      case 'alert':
        // A check is the session's to end (checkAlert); it raises it itself.
        if (e.alert.kind !== 'check') this.alerts.raise(e.alert, e.t);
        return;
      case 'alertCleared':
        // The session ends checks itself, in step with what it has recorded.
        if (e.kind !== 'check') this.alerts.clear(e.kind, e.t);
        return;
      case 'state':
        this.o.bus.emit('tracker.state', { board, state: e.state, detail: e.detail, t: e.t });
        return;
      case 'gameOver':
        if (!this.isFinal()) this.announceEnd();
        return;
      case 'gameStart':
        return;
    }
  }

  private recordMove(e: TrackerEmitted & { type: 'move' }): void {
    const played = this.game.moves[e.ply - 1];
    if (!played) return;
    const clock = this.game.clock ? this.game.clock.remaining(played.color, e.t) : undefined;
    const t = Math.max(0, Math.round(e.t));
    const move = { ply: e.ply, iccs: e.iccs, t, ...(clock !== undefined ? { clock } : {}) };
    // Not durable, so not announced: viewers are told the record failed instead.
    const recorded = this.recorder.recordMove(move, () => {
      this.alerts.clear('record_failed', e.t);
      const before = this.game.startPosition;
      for (const m of this.game.moves.slice(0, e.ply - 1)) before.play(m.move);
      const info: MoveInfo = {
        ply: e.ply,
        iccs: e.iccs,
        wxf: makeWxf(before, e.move) ?? e.iccs,
        zh: makeChinese(before, e.move) ?? e.iccs,
        color: played.color,
        check: played.check,
        capture: played.captured !== undefined,
        fen: played.fen,
        t,
      };
      this.o.bus.emit('game.move', { board: this.o.board, move: info, view: this.view() });
      this.checkAlert(e.t);
    });
    if (!recorded.ok) this.recordFailed(recorded.error.message);
  }

  /** A check ends with the position it was given in; the side to move now may be in check. */
  private checkAlert(t: number): void {
    this.alerts.clear('check', t);
    const pos = this.game.position;
    if (this.game.isOver || !pos.isCheck()) return;
    this.alerts.raise({ kind: 'check', side: pos.turn, message: `${pos.turn} is in check` }, t);
  }

  private recordFailed(message: string): void {
    this.o.logger.error(`board ${this.o.board}: ${message}`);
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
    return tags;
  }
}
