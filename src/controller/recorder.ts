/**
 * The record of one board's games: the journal (moves, takebacks, the end), the sensor log carried
 * in it, and the archive a finished game goes to. The rule it keeps: nothing about a move is
 * announced unless `recordMove` said it is on disk (written and fsynced) first.
 *
 * A game's journal is created only when the board first shows its position (`begin`); the sensor
 * lines read before that wait in memory (bounded) and go in first.
 */
import { finishFromJournal } from '../record/archive.js';
import {
  findUnfinished,
  GameJournal,
  type JournalError,
  type JournalMove,
  type JournalOutcome,
  type JournalState,
} from '../record/journal.js';
import { err, ok, type Result } from '../rules/types.js';
import { SensorLogWriter } from '../sensors/sensor-log.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import type { SensorEvent } from '../sensors/source.js';
import type { Logger } from './bus.js';

const PENDING_LOG_LIMIT = 20_000;

export interface RecorderOptions {
  readonly archiveDir: string;
  readonly board: string;
  readonly sensing: Sensing;
  readonly logger: Logger;
  /** PGN tags of every game; `Board` is the board id. */
  readonly meta: Readonly<Record<string, string>>;
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
      logger.error(`board ${board}: cannot resume ${latest.path}: ${resumed.error.message}`);
      return undefined;
    }
    for (const w of resumed.value.state.warnings) logger.warn(`board ${board}: ${w}`);
    return resumed.value;
  }

  /** A new game: sensor lines are kept until `begin` creates its journal. */
  prepare(fen: string, origin: number): void {
    this.journal = undefined;
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
    this.writer = new SensorLogWriter(
      { sensing: this.options.sensing, fen: resumed.state.start.fen, board: this.options.board },
      { origin },
    );
    this.pending = [];
    this.lastLogged = undefined;
    if (resumed.state.sensorLog.length === 0) resumed.journal.appendSensorLines([this.writer.headerLine()]);
  }

  /** Creates the journal of a prepared game (a resumed one has it). */
  begin(id: string, fen: string, startedAt: Date): Result<void, JournalError> {
    if (this.journal) return ok(undefined);
    const meta = { ...this.meta, Board: this.options.board };
    const created = GameJournal.create(this.options.archiveDir, { id, fen, meta, now: startedAt });
    if (!created.ok) return created;
    this.journal = created.value;
    this.journal.appendSensorLines(this.pending);
    this.pending = [];
    return ok(undefined);
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
      this.options.logger.warn(
        `board ${this.options.board}: a reading not fit for the sensor log: ${(error as Error).message}`,
      );
      return;
    }
    if (this.journal) {
      const r = this.journal.appendSensorLines([line]);
      if (!r.ok) this.options.logger.warn(`board ${this.options.board}: ${r.error.message}`);
    } else if (this.pending.length < PENDING_LOG_LIMIT) this.pending.push(line);
  }

  /** Journals the move (written and fsynced), then — only then — has it announced. */
  recordMove(move: JournalMove, announce: () => void): Result<void, { message: string }> {
    if (!this.journal) return err({ message: 'no journal for this game' });
    const written = this.journal.appendMove(move);
    if (written.ok) announce();
    return written;
  }

  /** Journals a takeback, then has it announced. */
  recordRetract(ply: number, t: number, announce: () => void): Result<void, { message: string }> {
    if (!this.journal) return err({ message: 'no journal for this game' });
    const written = this.journal.appendRetract({ ply, t });
    if (written.ok) announce();
    return written;
  }

  /** Journals the end and archives the game (PGN and sensor log beside the journal). */
  finish(result: JournalOutcome['result'], reason: string | null, t: number): void {
    const { board, logger } = this.options;
    const journal = this.journal;
    this.journal = undefined;
    this.writer = undefined;
    if (!journal) return;
    const ended = journal.end({ result, reason, t });
    if (!ended.ok) logger.error(`board ${board}: ${ended.error.message}`);
    else {
      const archived = finishFromJournal(journal);
      if (archived.ok) logger.info(`board ${board}: game archived in ${archived.value.pgn}`);
      else logger.error(`board ${board}: ${archived.error.message}`);
    }
    journal.close();
  }

  /** Closes the journal as it is (an unfinished game stays resumable). */
  close(): void {
    this.journal?.close();
    this.journal = undefined;
  }
}
