/**
 * The archive journal: every game recorded as it is played, one append-only file per game
 * (`<id>.journal.jsonl`). Each line is a JSON record, a tab, and the CRC-32 of the JSON, so a line
 * cut short by a crash or damaged on disk is recognised. An append returns only after the line is
 * written and `fsync`ed: a move is durable before anybody announces it.
 *
 * Reading recovers a damaged journal up to its last whole record, with a warning; the damaged
 * tail is never dropped silently (on resume it is kept beside the journal as `.corrupt-<n>`).
 * A write that fails (a full disk: `ENOSPC`, a write cut short) leaves the file as it was: the
 * bytes written are truncated back to the last whole record, and the caller gets the error.
 * The journal knows nothing of the rules: it stores the start FEN, metadata, moves in ICCS with
 * their times, retractions and the outcome. The game model and the move reader call it.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { INITIAL_FEN } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';

export const JOURNAL_SUFFIX = '.journal.jsonl';
export const PGN_SUFFIX = '.pgn';
export const SENSOR_LOG_SUFFIX = '.sensor.jsonl';

export interface JournalStart {
  readonly id: string;
  readonly fen: string;
  /** PGN-style tags: Event, Red, Black, Site… */
  readonly meta: Readonly<Record<string, string>>;
  /** Wall-clock time the game started, ISO 8601. */
  readonly startedAt: string;
}

export interface JournalMove {
  readonly ply: number;
  readonly iccs: string;
  /** Milliseconds since the game started. */
  readonly t: number;
  /** Time left on the mover's clock in milliseconds, when a clock runs. */
  readonly clock?: number;
}

export interface JournalRetract {
  /** The ply taken back: always the last one. */
  readonly ply: number;
  readonly t: number;
}

export interface JournalOutcome {
  readonly result: '1-0' | '0-1' | '1/2-1/2' | '*';
  readonly reason: string | null;
  readonly t: number;
}

export interface JournalState {
  readonly path: string;
  readonly start: JournalStart;
  /** The moves that stand, retractions applied. */
  readonly moves: readonly JournalMove[];
  readonly retractions: number;
  readonly outcome?: JournalOutcome;
  /** Sensor-log lines the journal carried (`appendSensorLines`), in order. */
  readonly sensorLog: readonly string[];
  /** PGN and sensor log written beside the journal. */
  readonly archived: boolean;
  /** What was recovered from, one message each; empty for a clean journal. */
  readonly warnings: readonly string[];
  /** Bytes of whole, valid records (where a damaged tail begins). */
  readonly validBytes: number;
}

export type JournalErrorCode = 'journal_io' | 'journal_unreadable' | 'journal_sequence' | 'journal_closed';
export type JournalError = CodedError<JournalErrorCode>;

type JournalRecord =
  | ({ type: 'start'; v: 1 } & JournalStart)
  | ({ type: 'move' } & JournalMove)
  | ({ type: 'retract' } & JournalRetract)
  | ({ type: 'end' } & JournalOutcome)
  | { type: 'sensor'; lines: string[] }
  | { type: 'meta'; meta: Record<string, string> }
  | { type: 'archived'; pgn: string; sensorLog: string | null };

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** One journal line: JSON, tab, CRC-32 of the JSON bytes, newline. */
export function encodeRecord(record: JournalRecord): string {
  const json = JSON.stringify(record);
  return `${json}\t${hex8(crc32(Buffer.from(json)))}\n`;
}

function decodeLine(line: string): JournalRecord | undefined {
  const tab = line.lastIndexOf('\t');
  if (tab < 0) return undefined;
  const json = line.slice(0, tab);
  if (line.slice(tab + 1) !== hex8(crc32(Buffer.from(json)))) return undefined;
  try {
    const r = JSON.parse(json) as JournalRecord;
    return typeof r === 'object' && r !== null && typeof r.type === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

const RESULTS: readonly unknown[] = ['1-0', '0-1', '1/2-1/2', '*'];
const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Applies a record to the state being rebuilt; a message when it does not fit the sequence. */
function apply(
  s: {
    moves: JournalMove[];
    retractions: number;
    outcome?: JournalOutcome;
    archived: boolean;
    sensorLog: string[];
    meta: Record<string, string>;
  },
  r: JournalRecord,
): string | undefined {
  switch (r.type) {
    case 'meta':
      if (typeof r.meta !== 'object' || r.meta === null) return 'a bad meta record';
      Object.assign(s.meta, r.meta);
      return undefined;
    case 'move':
      if (s.outcome) return `a move after the end of the game`;
      if (
        r.ply !== s.moves.length + 1 ||
        typeof r.iccs !== 'string' ||
        !isInt(r.t) ||
        (r.clock !== undefined && typeof r.clock !== 'number')
      ) {
        return `move record for ply ${r.ply} does not follow ply ${s.moves.length}`;
      }
      s.moves.push(
        r.clock === undefined
          ? { ply: r.ply, iccs: r.iccs, t: r.t }
          : { ply: r.ply, iccs: r.iccs, t: r.t, clock: r.clock },
      );
      return undefined;
    case 'retract':
      if (s.outcome) return `a retraction after the end of the game`;
      if (r.ply !== s.moves.length || r.ply < 1)
        return `retraction of ply ${r.ply} when the last is ${s.moves.length}`;
      s.moves.pop();
      s.retractions++;
      return undefined;
    case 'end':
      if (s.outcome) return 'a second end record';
      if (!RESULTS.includes(r.result) || (r.reason !== null && typeof r.reason !== 'string') || !isInt(r.t))
        return 'a bad end record';
      s.outcome = { result: r.result, reason: r.reason, t: r.t };
      return undefined;
    case 'sensor':
      if (!Array.isArray(r.lines) || !r.lines.every((l) => typeof l === 'string'))
        return 'a bad sensor record';
      s.sensorLog.push(...r.lines);
      return undefined;
    case 'archived':
      s.archived = true;
      return undefined;
    default:
      return `unexpected ${r.type} record`;
  }
}

export const GAME_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** What is wrong with a start record written by someone else (every field is used unchecked later). */
function badStart(r: Record<string, unknown>): string | undefined {
  if (typeof r.id !== 'string' || !GAME_ID.test(r.id)) return 'is a start record without a valid game id';
  if (typeof r.fen !== 'string') return 'is a start record without a FEN';
  if (typeof r.startedAt !== 'string') return 'is a start record without a start time (startedAt)';
  const meta = r.meta;
  if (
    meta !== undefined &&
    (typeof meta !== 'object' ||
      meta === null ||
      Array.isArray(meta) ||
      !Object.values(meta).every((v) => typeof v === 'string'))
  )
    return 'is a start record whose meta is not a mapping of strings';
  return undefined;
}

/** Rebuilds a game from journal bytes, up to the last whole record that fits. */
export function parseJournal(bytes: Uint8Array, path = '(journal)'): Result<JournalState, JournalError> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const warnings: string[] = [];
  let offset = 0;
  let start: JournalStart | undefined;
  const s = {
    moves: [] as JournalMove[],
    retractions: 0,
    outcome: undefined as JournalOutcome | undefined,
    archived: false,
    sensorLog: [] as string[],
    meta: {} as Record<string, string>,
  };
  let lineNo = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    lineNo++;
    if (nl < 0) {
      warnings.push(
        `${path}: line ${lineNo} is cut short (${Buffer.byteLength(text.slice(offset))} bytes): ignored`,
      );
      break;
    }
    const record = decodeLine(text.slice(offset, nl));
    let problem: string | undefined;
    if (!record) problem = 'is damaged (bad checksum or JSON)';
    else if (lineNo === 1) {
      const bad =
        record.type === 'start'
          ? badStart(record as unknown as Record<string, unknown>)
          : 'is not a start record';
      if (bad) problem = bad;
      else {
        const r = record as JournalStart;
        start = { id: r.id, fen: r.fen, meta: r.meta ?? {}, startedAt: r.startedAt };
      }
    } else problem = apply(s, record);
    if (problem) {
      const rest = text
        .slice(offset)
        .split('\n')
        .filter((l) => l !== '').length;
      warnings.push(
        `${path}: line ${lineNo} ${problem}: recovered up to line ${lineNo - 1}, ${rest} line(s) set aside`,
      );
      break;
    }
    offset = nl + 1;
  }
  if (!start) {
    return err({
      code: 'journal_unreadable',
      message: `${path}: no readable start record${warnings.length ? ` (${warnings.join('; ')})` : ''}`,
    });
  }
  const validBytes = Buffer.byteLength(text.slice(0, offset));
  // Metadata changed during the game (an arbiter's `event/meta`) is the game's.
  const { meta, ...rest } = s;
  return ok({ path, start: { ...start, meta: { ...start.meta, ...meta } }, ...rest, warnings, validBytes });
}

export function readJournal(path: string): Result<JournalState, JournalError> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    return err({ code: 'journal_io', message: `${path}: ${(e as Error).message}` });
  }
  return parseJournal(bytes, path);
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes every byte, looping over short writes: a disk that fills up returns a short count first,
 * then `ENOSPC`. Throws with how much was written when the rest cannot be.
 */
export function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let done = 0;
  while (done < bytes.length) {
    let n: number;
    try {
      n = writeSync(fd, bytes, done, bytes.length - done);
    } catch (e) {
      if (done > 0) (e as Error).message += ` (write cut short after ${done} of ${bytes.length} bytes)`;
      throw e;
    }
    if (n <= 0) throw new Error(`write made no progress after ${done} of ${bytes.length} bytes`);
    done += n;
  }
}

/** Writes a file whole or not at all: temporary file, fsync, rename, fsync the directory. */
export function writeFileDurably(dir: string, name: string, data: string | Uint8Array): void {
  const tmp = join(dir, `.${name}.tmp`);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeAll(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(dir, name));
  } catch (e) {
    // Nothing half-written stays behind (it would hold the space a full disk needs).
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDir(dir);
}

const ioError = (what: string, e: unknown): { ok: false; error: JournalError } =>
  err({ code: 'journal_io', message: `${what}: ${(e as Error).message}` });

/** A new game id from its start time: `20261129-143005-a3f2`. */
export function newGameId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.floor(Math.random() * 0x10000)
    .toString(16)
    .padStart(4, '0')}`;
}

/** An open journal of one game, appending durably. */
export class GameJournal {
  private moves: JournalMove[];
  private ended: boolean;
  private fd: number | undefined;
  /** Bytes of whole records: a failed append is cut back to this. */
  private size: number;
  /** A failed append could not be cut back yet: done before the next one. */
  private dirty = false;

  private constructor(
    readonly dir: string,
    readonly start: JournalStart,
    fd: number,
    moves: JournalMove[],
    ended: boolean,
    size: number,
  ) {
    this.fd = fd;
    this.moves = moves;
    this.ended = ended;
    this.size = size;
  }

  /** The game's end is on disk. */
  get hasEnded(): boolean {
    return this.ended;
  }

  get path(): string {
    return join(this.dir, this.start.id + JOURNAL_SUFFIX);
  }

  /** The moves that stand. */
  get plies(): readonly JournalMove[] {
    return this.moves;
  }

  /** Starts the journal of a new game in `dir` (created if missing). */
  static create(
    dir: string,
    options: { fen?: string; meta?: Record<string, string>; id?: string; now?: Date } = {},
  ): Result<GameJournal, JournalError> {
    const now = options.now ?? new Date();
    const start: JournalStart = {
      id: options.id ?? newGameId(now),
      fen: options.fen ?? INITIAL_FEN,
      meta: options.meta ?? {},
      startedAt: now.toISOString(),
    };
    if (!GAME_ID.test(start.id)) {
      return err({
        code: 'journal_io',
        message: `game id '${start.id}' must be letters, digits, '.', '_' or '-'`,
      });
    }
    const path = join(dir, start.id + JOURNAL_SUFFIX);
    let fd: number | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      // Appending (O_APPEND): after a failed append is cut back, the next one lands at the end.
      fd = openSync(path, 'ax');
      const first = encodeRecord({ type: 'start', v: 1, ...start });
      writeAll(fd, first);
      fsyncSync(fd);
      syncDir(dir);
      return ok(new GameJournal(dir, start, fd, [], false, Buffer.byteLength(first)));
    } catch (e) {
      // No empty or cut-short journal is left behind: the game starts again from nothing.
      if (fd !== undefined) {
        closeSync(fd);
        rmSync(path, { force: true });
      }
      return ioError(`cannot start a journal in ${dir}`, e);
    }
  }

  /**
   * Opens an existing journal to go on appending (a restart resuming its game). A damaged tail is
   * moved to `<journal>.corrupt-<n>` and cut off, so new records follow the last whole one.
   */
  static resume(path: string): Result<{ journal: GameJournal; state: JournalState }, JournalError> {
    const read = readJournal(path);
    if (!read.ok) return read;
    const state = read.value;
    const dir = dirname(path);
    try {
      const bytes = readFileSync(path);
      if (state.validBytes < bytes.length) {
        let n = 1;
        while (existsSync(`${path}.corrupt-${n}`)) n++;
        const aside = `${basename(path)}.corrupt-${n}`;
        writeFileDurably(dir, aside, bytes.subarray(state.validBytes));
        const fdT = openSync(path, 'r+');
        try {
          ftruncateSync(fdT, state.validBytes);
          fsyncSync(fdT);
        } finally {
          closeSync(fdT);
        }
        (state.warnings as string[]).push(`${path}: damaged tail kept in ${aside}`);
      }
      const fd = openSync(path, 'a');
      return ok({
        journal: new GameJournal(
          dir,
          state.start,
          fd,
          [...state.moves],
          state.outcome !== undefined,
          state.validBytes,
        ),
        state,
      });
    } catch (e) {
      return ioError(`cannot resume ${path}`, e);
    }
  }

  /**
   * One record, whole or not at all: a write that fails (or is cut short, or whose fsync fails)
   * is cut back to the last whole record, so the next record never lands on a damaged line.
   */
  private append(record: JournalRecord, sync = true): Result<void, JournalError> {
    const fd = this.fd;
    if (fd === undefined) return err({ code: 'journal_closed', message: `${this.path} is closed` });
    const line = Buffer.from(encodeRecord(record));
    try {
      if (this.dirty) this.cutBack(fd);
      writeAll(fd, line);
      if (sync) fsyncSync(fd);
    } catch (e) {
      this.dirty = true;
      try {
        this.cutBack(fd);
      } catch {
        // Still dirty: cut back before the next append.
      }
      return ioError(`cannot append to ${this.path}`, e);
    }
    this.size += line.length;
    return ok(undefined);
  }

  private cutBack(fd: number): void {
    ftruncateSync(fd, this.size);
    fsyncSync(fd);
    this.dirty = false;
  }

  /** Records a move; durable on disk when it returns ok. */
  appendMove(move: JournalMove): Result<void, JournalError> {
    if (this.ended) return err({ code: 'journal_sequence', message: `${this.path}: the game has ended` });
    if (move.ply !== this.moves.length + 1) {
      return err({
        code: 'journal_sequence',
        message: `${this.path}: ply ${move.ply} does not follow ply ${this.moves.length}`,
      });
    }
    const r = this.append({ type: 'move', ...move });
    if (r.ok) this.moves.push(move);
    return r;
  }

  /**
   * Carries raw sensor-log lines (frames, buttons) in the journal, so the log survives a crash.
   * Not synced on its own: the next move, retraction or end record makes them durable.
   */
  appendSensorLines(lines: readonly string[]): Result<void, JournalError> {
    if (lines.length === 0) return ok(undefined);
    return this.append({ type: 'sensor', lines: [...lines] }, false);
  }

  /** New metadata (PGN tags) for the game, over the start record's. */
  appendMeta(meta: Readonly<Record<string, string>>): Result<void, JournalError> {
    return this.append({ type: 'meta', meta: { ...meta } });
  }

  /** Takes back the last move. */
  appendRetract(retract: JournalRetract): Result<void, JournalError> {
    if (this.ended || retract.ply !== this.moves.length || retract.ply < 1) {
      return err({
        code: 'journal_sequence',
        message: `${this.path}: cannot retract ply ${retract.ply} (last ply ${this.moves.length})`,
      });
    }
    const r = this.append({ type: 'retract', ...retract });
    if (r.ok) this.moves.pop();
    return r;
  }

  /** Records how the game ended. */
  end(outcome: JournalOutcome): Result<void, JournalError> {
    if (this.ended)
      return err({ code: 'journal_sequence', message: `${this.path}: the game has already ended` });
    const r = this.append({ type: 'end', ...outcome });
    if (r.ok) this.ended = true;
    return r;
  }

  /**
   * Writes the finished game's PGN and sensor log beside the journal (each whole or not at all),
   * then marks the journal archived.
   */
  finishGame(
    pgn: string,
    sensorLogLines?: readonly string[],
  ): Result<{ pgn: string; sensorLog?: string }, JournalError> {
    const pgnName = this.start.id + PGN_SUFFIX;
    const logName = this.start.id + SENSOR_LOG_SUFFIX;
    try {
      writeFileDurably(this.dir, pgnName, pgn);
      if (sensorLogLines) writeFileDurably(this.dir, logName, sensorLogLines.map((l) => `${l}\n`).join(''));
    } catch (e) {
      return ioError(`cannot write the records of ${this.start.id}`, e);
    }
    const r = this.append({ type: 'archived', pgn: pgnName, sensorLog: sensorLogLines ? logName : null });
    if (!r.ok) return r;
    const out: { pgn: string; sensorLog?: string } = { pgn: join(this.dir, pgnName) };
    if (sensorLogLines) out.sensorLog = join(this.dir, logName);
    return ok(out);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Every journal in a directory, read (unreadable ones as errors, never skipped). */
export function listJournals(dir: string): Result<JournalState, JournalError>[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(JOURNAL_SUFFIX));
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return [];
    return [ioError(`cannot list ${dir}`, e)];
  }
  return names.sort().map((n) => readJournal(join(dir, n)));
}

/** Games that were being played when the process stopped: no end record. */
export const findUnfinished = (dir: string): JournalState[] =>
  listJournals(dir).flatMap((r) => (r.ok && r.value.outcome === undefined ? [r.value] : []));
