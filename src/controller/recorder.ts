/**
 * The record of one board's games: the journal (moves, takebacks, the end), the sensor log carried
 * in it, and the archive a finished game goes to. The rule it keeps: nothing about a move is
 * announced unless `recordMove` said it is on disk (written and fsynced) first.
 *
 * A game's journal is created only when the board first shows its position (`begin`); the sensor
 * lines read before that wait in memory (bounded) and go in first.
 *
 * A write the disk refuses (full) is reported (`onRefused`) and leaves the journal as it was: a
 * journal that could not be started is started at the next write; the end of a game and its
 * archive (and games of this board left unarchived by an earlier run) are tried again on a
 * timer, with a growing pause, until they are done.
 */
import { archivePending, finishFromJournal } from '../record/archive.js';
import {
  findUnfinished,
  GameJournal,
  type JournalError,
  type JournalMove,
  type JournalOutcome,
  type JournalState,
} from '../record/journal.js';
import { SensorLogWriter } from '../sensors/sensor-log.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import type { SensorEvent } from '../sensors/source.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { err, ok, type Result } from '../util/result.js';

const PENDING_LOG_LIMIT = 20_000;

export interface RecorderOptions {
  readonly archiveDir: string;
  readonly board: string;
  readonly sensing: Sensing;
  readonly logger: Logger;
  /** PGN tags of every game; `Board` is the board id. */
  readonly meta: Readonly<Record<string, string>>;
  /** Timers of the retries (the end and archive of a game). */
  readonly clock?: Clock;
  /** A write was refused; it is tried again by itself (the next move's, or in `retryMs`). */
  readonly onRefused?: (error: { code: string; message: string }, retryMs: number) => void;
  /** Every write that was refused has been done since. */
  readonly onCaughtUp?: () => void;
}

/** Pauses between attempts after refused writes: 250 ms, doubling up to 5 s; reset by a success. */
export class Backoff {
  private failures = 0;
  constructor(
    private readonly initialMs = 250,
    private readonly maxMs = 5000,
  ) {}
  next(): number {
    return Math.min(this.maxMs, this.initialMs * 2 ** Math.min(this.failures++, 20));
  }
  reset(): void {
    this.failures = 0;
  }
}

/** A finished game whose end record or archive is still to be written. */
interface Closing {
  readonly journal: GameJournal;
  readonly outcome: JournalOutcome;
}

export interface Resumable {
  readonly journal: GameJournal;
  readonly state: JournalState;
}

export class GameRecorder {
  private journal: GameJournal | undefined;
  private writer: SensorLogWriter | undefined;
  private pending: string[] = [];
  private lastLogged: Cells | undefined;
  /** The game whose journal could not be created yet. */
  private unstarted:
    | { id: string; fen: string; startedAt: Date; tags: Readonly<Record<string, string>> }
    | undefined;
  /** Sensor lines could not be written (said once per outage). */
  private logRefused = false;
  private readonly closing: Closing[] = [];
  /** Ended games of this board found unarchived, whose archive failed: tried again. */
  private archiveOwed = false;
  private readonly backoff = new Backoff();
  private readonly archiveBackoff = new Backoff();
  private cancelRetry: (() => void) | undefined;
  /** A move or takeback write was refused and not yet done. */
  private moveOwed = false;
  private meta: Readonly<Record<string, string>>;

  constructor(private readonly options: RecorderOptions) {
    this.meta = options.meta;
  }

  /** New PGN tags: for the next game, and journaled for the one under way. */
  updateMeta(meta: Readonly<Record<string, string>>): Result<void, { message: string }> {
    this.meta = meta;
    return this.journal ? this.journal.appendMeta({ ...meta, Board: this.options.board }) : ok(undefined);
  }

  get path(): string | undefined {
    return this.journal?.path;
  }

  get started(): boolean {
    return this.journal !== undefined;
  }

  /** The latest unfinished game of this board in the archive, opened for appending. */
  findResumable(): Resumable | undefined {
    const { archiveDir, board, logger } = this.options;
    const latest = findUnfinished(archiveDir)
      .filter((s) => s.start.meta.Board === board)
      .sort((a, b) => a.start.id.localeCompare(b.start.id))
      .at(-1);
    if (!latest) return undefined;
    const resumed = GameJournal.resume(latest.path);
    if (!resumed.ok) {
      logger.error(`cannot resume ${latest.path}: ${resumed.error.message}`);
      return undefined;
    }
    for (const w of resumed.value.state.warnings) logger.warn(`${w}`);
    return resumed.value;
  }

  /** Games of this board that ended but were never archived (an earlier run stopped first). */
  archiveEnded(): void {
    const { archiveDir, board, logger } = this.options;
    const done = archivePending(archiveDir, (s) => s.start.meta.Board === board);
    if (done.ok) {
      this.archiveOwed = false;
      for (const line of done.value) logger.info(`board ${board}: archived ${line}`);
    } else if (done.error.code === 'journal_io') {
      this.archiveOwed = true;
      this.refusedLater(done.error.code, `cannot archive an ended game: ${done.error.message}`);
    } else {
      // A journal that does not replay: said, not tried again.
      this.archiveOwed = false;
      logger.error(`board ${board}: cannot archive an ended game: ${done.error.message}`);
    }
  }

  /** A new game: sensor lines are kept until `begin` creates its journal. */
  prepare(fen: string, origin: number): void {
    this.journal = undefined;
    this.unstarted = undefined;
    // A move refused in the last game is gone with its reader.
    this.moveOwed = false;
    this.writer = new SensorLogWriter(
      { sensing: this.options.sensing, fen, board: this.options.board },
      { origin },
    );
    this.pending = [this.writer.headerLine()];
    this.lastLogged = undefined;
  }

  /** A resumed game: its journal goes on. */
  attach(resumed: Resumable, origin: number): void {
    this.journal = resumed.journal;
    this.unstarted = undefined;
    this.moveOwed = false;
    this.writer = new SensorLogWriter(
      { sensing: this.options.sensing, fen: resumed.state.start.fen, board: this.options.board },
      { origin },
    );
    this.pending = [];
    this.lastLogged = undefined;
    if (resumed.state.sensorLog.length === 0) resumed.journal.appendSensorLines([this.writer.headerLine()]);
  }

  /**
   * Creates the journal of a prepared game (a resumed one has it). Refused (a full disk): no file
   * is left, and the next write tries again.
   */
  begin(
    id: string,
    fen: string,
    startedAt: Date,
    tags: Readonly<Record<string, string>> = {},
  ): Result<void, JournalError> {
    if (this.journal) return ok(undefined);
    this.unstarted = { id, fen, startedAt, tags };
    return this.ensureJournal();
  }

  private ensureJournal(): Result<void, JournalError> {
    if (this.journal) return ok(undefined);
    const start = this.unstarted;
    if (!start) return err({ code: 'journal_closed', message: 'no journal for this game' });
    const meta = { ...this.meta, ...start.tags, Board: this.options.board };
    const created = GameJournal.create(this.options.archiveDir, {
      id: start.id,
      fen: start.fen,
      meta,
      now: start.startedAt,
    });
    if (!created.ok) return created;
    this.journal = created.value;
    this.unstarted = undefined;
    this.flushLog([]);
    return ok(undefined);
  }

  /** Sensor lines into the journal, with those that waited; kept (bounded) when refused. */
  private flushLog(lines: readonly string[]): void {
    if (!this.journal) return;
    const all = this.pending.length > 0 ? [...this.pending, ...lines] : lines;
    const r = this.journal.appendSensorLines(all);
    if (r.ok) {
      this.pending = [];
      this.logRefused = false;
      return;
    }
    this.pending = all.length > PENDING_LOG_LIMIT ? all.slice(0, PENDING_LOG_LIMIT) : [...all];
    if (!this.logRefused)
      this.options.logger.warn(`board ${this.options.board}: sensor log: ${r.error.message}`);
    this.logRefused = true;
  }

  /** A sensor event into the log (a snapshot only when the readings changed). */
  log(e: SensorEvent): void {
    if (!this.writer) return;
    if (e.type === 'snapshot') {
      if (e.cells === this.lastLogged) return;
      this.lastLogged = e.cells;
    }
    let line: string;
    try {
      line = this.writer.line(e);
    } catch (error) {
      this.options.logger.warn(`a reading not fit for the sensor log: ${(error as Error).message}`);
      return;
    }
    // After a refused write the lines wait (bounded) for the next move that is written.
    if (this.journal && !this.logRefused) this.flushLog([line]);
    else if (this.pending.length < PENDING_LOG_LIMIT) this.pending.push(line);
  }

  /** The move of `ply` is in the journal, as `iccs`. */
  isRecorded(ply: number, iccs: string): boolean {
    return this.journal?.plies[ply - 1]?.iccs === iccs;
  }

  /** Writes a move (written and fsynced when ok); a refusal is reported, with when to retry. */
  writeMove(move: JournalMove): Result<void, JournalError> & { retryMs?: number } {
    return this.written(this.ensureJournal(), () => this.journal!.appendMove(move));
  }

  /** Writes a takeback of the last move. */
  writeRetract(ply: number, t: number): Result<void, JournalError> & { retryMs?: number } {
    return this.written(this.ensureJournal(), () => this.journal!.appendRetract({ ply, t }));
  }

  private written(
    ready: Result<void, JournalError>,
    write: () => Result<void, JournalError>,
  ): Result<void, JournalError> & { retryMs?: number } {
    const r = ready.ok ? write() : ready;
    if (r.ok) {
      this.backoff.reset();
      this.moveOwed = false;
      if (this.logRefused) this.flushLog([]);
      this.caughtUp();
      return r;
    }
    const retryMs = this.backoff.next();
    this.moveOwed = true;
    this.options.onRefused?.(r.error, retryMs);
    return { ...r, retryMs };
  }

  private caughtUp(): void {
    if (!this.moveOwed && this.closing.length === 0 && !this.archiveOwed) this.options.onCaughtUp?.();
  }

  /**
   * Journals the end and archives the game (PGN and sensor log beside the journal). What the disk
   * refuses is tried again later: the journal stays open until its end and archive are written.
   */
  finish(result: JournalOutcome['result'], reason: string | null, t: number): void {
    // The sensor lines that waited go in before the end.
    if (this.pending.length > 0) this.flushLog([]);
    const journal = this.journal;
    this.journal = undefined;
    this.writer = undefined;
    this.unstarted = undefined;
    if (!journal) return;
    this.closing.push({ journal, outcome: { result, reason, t } });
    this.finishClosing();
  }

  /** Ends and archives the finished games still open; true when all are done. */
  private finishClosing(): boolean {
    const { board, logger } = this.options;
    while (this.closing.length > 0) {
      const { journal, outcome } = this.closing[0]!;
      if (!journal.hasEnded) {
        const ended = journal.end(outcome);
        if (!ended.ok) return this.refusedLater(ended.error.code, ended.error.message);
      }
      const archived = finishFromJournal(journal);
      if (!archived.ok && archived.error.code === 'journal_io') {
        return this.refusedLater(
          'journal_io',
          `cannot archive ${journal.start.id}: ${archived.error.message}`,
        );
      }
      // A journal that does not replay will not replay later either: said once, left as it is.
      if (!archived.ok) this.options.onRefused?.(archived.error, 0);
      else logger.info(`board ${board}: game archived in ${archived.value.pgn}`);
      journal.close();
      this.closing.shift();
    }
    this.archiveBackoff.reset();
    this.caughtUp();
    return true;
  }

  /** A refused end or archive write: reported, and everything owed tried again in a while. */
  private refusedLater(code: string, message: string): false {
    const retryMs = this.archiveBackoff.next();
    this.options.onRefused?.({ code, message }, retryMs);
    if (this.options.clock && !this.cancelRetry) {
      this.cancelRetry = this.options.clock.setTimer(() => {
        this.cancelRetry = undefined;
        if (this.archiveOwed) this.archiveEnded();
        this.finishClosing();
      }, retryMs);
    }
    return false;
  }

  /** Closes the journal as it is (an unfinished game stays resumable; so does an unarchived one). */
  close(): void {
    this.journal?.close();
    this.journal = undefined;
    this.unstarted = undefined;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    for (const c of this.closing.splice(0)) c.journal.close();
  }
}
