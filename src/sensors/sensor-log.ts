/**
 * Sensor log, version 1 (`../shared/spec/sensor-log.md`): JSON Lines of a header (optional, first
 * line), frames `{"t","occ"}` and clock buttons `{"t","button"}`. A public format: the reader
 * rejects what does not follow it with an error naming the line; the writer produces exactly it.
 * Pure: no I/O here (files are read by `replay.ts`).
 */

import { parseFen } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type Cells, makeOcc, occupancyOfCells, parseOcc, type Sensing } from './snapshot.js';
import type { SensorEvent } from './source.js';

export const SENSOR_LOG_VERSION = 1;

export interface SensorLogHeader {
  readonly version: 1;
  readonly sensing: Sensing;
  /** The position the game starts from; absent: the standard start position, set up on the board. */
  readonly fen?: string;
  /** The board's id. */
  readonly board?: string;
}

export type Side = 'red' | 'black';

/** What a log's frames and buttons become: the same events a live source emits, plus their line. */
export type SensorLogEvent =
  | { readonly type: 'snapshot'; readonly t: number; readonly cells: Cells; readonly line: number }
  | { readonly type: 'button'; readonly t: number; readonly side: Side; readonly line: number };

/** One line of a log, read. `other` is a line of a `type` this reader does not know (ignored). */
export type SensorLogRecord =
  | { readonly type: 'header'; readonly line: number; readonly header: SensorLogHeader }
  | SensorLogEvent
  | { readonly type: 'other'; readonly line: number; readonly recordType: string };

export type SensorLogErrorCode =
  | 'not_json'
  | 'not_object'
  | 'bad_type'
  | 'bad_time'
  | 'time_decreasing'
  | 'bad_occ'
  | 'bad_button'
  | 'unknown_record'
  | 'header_not_first'
  | 'unsupported_version'
  | 'bad_sensing'
  | 'bad_header';

export interface SensorLogError extends CodedError<SensorLogErrorCode> {
  /** 1-based line number in the file. */
  readonly line: number;
}

export interface SensorLog {
  /** The header, with the defaults of the format when the file has none. */
  readonly header: SensorLogHeader;
  readonly hasHeader: boolean;
  /** Frames and buttons in file order (times never decrease). */
  readonly events: readonly SensorLogEvent[];
  /** Lines of an unknown `type`, ignored as the format says. */
  readonly ignoredLines: number;
  /** Lines in the file (blank ones included). */
  readonly lines: number;
}

export const DEFAULT_SENSOR_LOG_HEADER: SensorLogHeader = { version: 1, sensing: 'occupancy' };

const SENSINGS: readonly Sensing[] = ['occupancy', 'colour'];

const logError = (
  line: number,
  code: SensorLogErrorCode,
  what: string,
): { ok: false; error: SensorLogError } => err({ code, line, message: `line ${line}: ${what}` });

const describe = (v: unknown): string => (v === undefined ? 'missing' : JSON.stringify(v));

/**
 * Reads a log one line at a time: the state is the sensing kind (from the header) and the last
 * time. Blank lines (and the newline at the end of the file) are skipped; `\r` of CRLF files and a
 * leading byte-order mark are tolerated.
 */
export class SensorLogReader {
  private lineNo = 0;
  private records = 0;
  private lastT = 0;
  private currentSensing: Sensing = 'occupancy';
  private headerSeen = false;

  get sensing(): Sensing {
    return this.currentSensing;
  }
  get hasHeader(): boolean {
    return this.headerSeen;
  }
  /** Lines pushed so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** Reads the next line; `ok(undefined)` for a blank line. */
  push(rawLine: string): Result<SensorLogRecord | undefined, SensorLogError> {
    const line = ++this.lineNo;
    let text = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') return ok(undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return logError(line, 'not_json', `not JSON: ${truncate(text)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return logError(line, 'not_object', `expected a JSON object, got ${truncate(text)}`);
    }
    const first = this.records++ === 0;
    const obj = value as Record<string, unknown>;
    if ('type' in obj) {
      if (typeof obj.type !== 'string') return logError(line, 'bad_type', `"type" must be a string`);
      if (obj.type === 'header') return this.readHeader(obj, line, first);
      return ok({ type: 'other', line, recordType: obj.type });
    }
    const hasOcc = 'occ' in obj;
    const hasButton = 'button' in obj;
    if (hasOcc === hasButton) {
      return logError(
        line,
        'unknown_record',
        hasOcc ? 'a line has "occ" or "button", not both' : 'neither a frame ("occ") nor a button ("button")',
      );
    }
    const t = obj.t;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) {
      return logError(
        line,
        'bad_time',
        `"t" must be a whole number of milliseconds >= 0, got ${describe(t)}`,
      );
    }
    if (t < this.lastT) {
      return logError(line, 'time_decreasing', `"t" ${t} is before the previous line's ${this.lastT}`);
    }
    if (hasOcc) {
      if (typeof obj.occ !== 'string') return logError(line, 'bad_occ', `"occ" must be a string`);
      const cells = parseOcc(obj.occ, this.currentSensing);
      if (!cells.ok)
        return logError(line, 'bad_occ', `${cells.error.message} (${this.currentSensing} sensing)`);
      this.lastT = t;
      return ok({ type: 'snapshot', t, cells: cells.value, line });
    }
    if (obj.button !== 'red' && obj.button !== 'black') {
      return logError(line, 'bad_button', `"button" must be "red" or "black", got ${describe(obj.button)}`);
    }
    this.lastT = t;
    return ok({ type: 'button', t, side: obj.button, line });
  }

  private readHeader(
    obj: Record<string, unknown>,
    line: number,
    first: boolean,
  ): Result<SensorLogRecord, SensorLogError> {
    if (!first) return logError(line, 'header_not_first', 'the header must be the first line');
    if (obj.version !== SENSOR_LOG_VERSION) {
      return logError(
        line,
        'unsupported_version',
        `sensor log version ${describe(obj.version)} is not supported (this reader reads version 1)`,
      );
    }
    const sensing = obj.sensing ?? 'occupancy';
    if (!SENSINGS.includes(sensing as Sensing)) {
      return logError(
        line,
        'bad_sensing',
        `"sensing" must be "occupancy" or "colour", got ${describe(sensing)}`,
      );
    }
    let header: SensorLogHeader = { version: 1, sensing: sensing as Sensing };
    if (obj.fen !== undefined) {
      if (typeof obj.fen !== 'string') return logError(line, 'bad_header', `"fen" must be a string`);
      const setup = parseFen(obj.fen);
      if (!setup.ok) return logError(line, 'bad_header', `"fen": ${setup.error.message}`);
      header = { ...header, fen: obj.fen };
    }
    if (obj.board !== undefined) {
      if (typeof obj.board !== 'string') return logError(line, 'bad_header', `"board" must be a string`);
      header = { ...header, board: obj.board };
    }
    this.currentSensing = header.sensing;
    this.headerSeen = true;
    return ok({ type: 'header', line, header });
  }
}

const truncate = (s: string): string => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

/**
 * Streams the records of a log from its lines (e.g. `readline`'s interface). Each item is a
 * `Result`; after the first error nothing more is yielded. Blank lines yield nothing.
 */
export async function* readSensorLogLines(
  lines: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<Result<SensorLogRecord, SensorLogError>> {
  const reader = new SensorLogReader();
  for await (const line of lines) {
    const r = reader.push(line);
    if (!r.ok) {
      yield r;
      return;
    }
    if (r.value) yield ok(r.value);
  }
}

/** `readSensorLogLines` for lines already in memory. */
export function* readSensorLogLinesSync(
  lines: Iterable<string>,
): Generator<Result<SensorLogRecord, SensorLogError>> {
  const reader = new SensorLogReader();
  for (const line of lines) {
    const r = reader.push(line);
    if (!r.ok) {
      yield r;
      return;
    }
    if (r.value) yield ok(r.value);
  }
}

/** Reads a whole log from its text. */
export function parseSensorLog(text: string): Result<SensorLog, SensorLogError> {
  const reader = new SensorLogReader();
  const events: SensorLogEvent[] = [];
  let header = DEFAULT_SENSOR_LOG_HEADER;
  let ignoredLines = 0;
  for (const line of text.split('\n')) {
    const r = reader.push(line);
    if (!r.ok) return r;
    const rec = r.value;
    if (!rec) continue;
    if (rec.type === 'header') header = rec.header;
    else if (rec.type === 'other') ignoredLines++;
    else events.push(rec);
  }
  // A final newline is the end of the last line, not a line of its own.
  const lines = text === '' ? 0 : text.endsWith('\n') ? reader.lines - 1 : reader.lines;
  return ok({ header, hasHeader: reader.hasHeader, events, ignoredLines, lines });
}

// ---------------------------------------------------------------------------------------------
// Writing

/** What the writer accepts: a live source's events (link changes are written as `type:"link"`). */
export type WritableSensorEvent = SensorEvent | SensorLogEvent;

export interface SensorLogWriterOptions {
  /** Source time of the log's start: written `t` = round(event.t - origin). Default 0. */
  readonly origin?: number;
}

/**
 * Turns events into log lines (without the newline), one call per line, so a recorder can append
 * to a file as play goes on. Times are rounded to whole milliseconds and never go backwards (a
 * jittering source clock is clamped), so whatever it writes reads back. Readings of a colour
 * board written to an occupancy log are reduced to occupancy.
 */
export class SensorLogWriter {
  private lastT = 0;
  private readonly origin: number;
  readonly header: SensorLogHeader;

  constructor(header: Partial<SensorLogHeader> = {}, options: SensorLogWriterOptions = {}) {
    this.header = { ...DEFAULT_SENSOR_LOG_HEADER, ...header, version: 1 };
    this.origin = options.origin ?? 0;
  }

  /** The first line of the file. */
  headerLine(): string {
    const { sensing, fen, board } = this.header;
    return JSON.stringify({ type: 'header', version: SENSOR_LOG_VERSION, sensing, fen, board });
  }

  /** The line of an event. Throws on cells that are not 90 readings of this log's sensing kind (a bug). */
  line(event: WritableSensorEvent): string {
    const t = this.time(event.t);
    switch (event.type) {
      case 'snapshot':
        return JSON.stringify({ t, occ: makeOcc(this.checkedCells(event.cells)) });
      case 'button':
        return JSON.stringify({ t, button: event.side });
      case 'link':
        return JSON.stringify({ type: 'link', t, up: event.up, reason: event.reason });
    }
  }

  private time(sourceT: number): number {
    const t = Math.max(this.lastT, Math.round(sourceT - this.origin), 0);
    this.lastT = t;
    return t;
  }

  private checkedCells(cells: Cells): Cells {
    const c = this.header.sensing === 'occupancy' ? occupancyOfCells(cells) : cells;
    const allowed = this.header.sensing === 'occupancy' ? /^[.x]{90}$/ : /^[.rb]{90}$/;
    if (!allowed.test(c)) {
      throw new TypeError(`cells are not 90 ${this.header.sensing} readings: ${truncate(cells)}`);
    }
    return c;
  }
}

/** A whole log as lines (header first), e.g. `makeSensorLogLines(h, evs).join('\n') + '\n'`. */
export function makeSensorLogLines(
  header: Partial<SensorLogHeader> | undefined,
  events: Iterable<WritableSensorEvent>,
): string[] {
  const writer = new SensorLogWriter(header ?? {});
  const lines = header ? [writer.headerLine()] : [];
  for (const e of events) lines.push(writer.line(e));
  return lines;
}

/** A whole log as file text, ending with a newline. */
export function makeSensorLog(
  header: Partial<SensorLogHeader> | undefined,
  events: Iterable<WritableSensorEvent>,
): string {
  const lines = makeSensorLogLines(header, events);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
