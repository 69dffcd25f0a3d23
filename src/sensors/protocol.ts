/**
 * The serial protocol of `firmware-bridge/PROTOCOL.md` (version 1), both directions.
 *
 * Layers, each a pure function, then a stream pipeline built from them (as zwave-js does):
 *   bytes ─FrameReader─▶ COBS-delimited chunks ─decodeFrame─▶ {type, seq, body} (length, CRC)
 *         ─decodeBoardMessage / decodeCommand─▶ typed messages.
 * Every failure is a value with a code; nothing here throws on bad input, and a bad frame never
 * becomes a message.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import type { Cells, Sensing } from './snapshot.js';

export const PROTOCOL_VERSION = 1;
export const BAUD_RATE = 115200;
export const FRAME_MIN = 5;
export const FRAME_MAX = 280;
/** Longest COBS encoding of a frame, without the 0x00 delimiter. */
export const WIRE_MAX = 282;
export const CELL_BYTES = 23;
export const LED_BYTES = 270;
export const SCAN_HZ_MIN = 10;
export const SCAN_HZ_MAX = 1000;

export const FrameType = {
  HELLO: 0x01,
  PING: 0x02,
  GET_SNAPSHOT: 0x03,
  SET_SCAN_RATE: 0x04,
  LED_FRAME: 0x05,
  INFO: 0x81,
  PONG: 0x82,
  SNAPSHOT: 0x83,
  BUTTON: 0x84,
  ACK: 0x85,
} as const;

export type ProtocolErrorCode =
  /** More than WIRE_MAX bytes without a delimiter: line noise or a lost delimiter. */
  | 'garbage'
  /** A COBS code byte points past the end of the chunk. */
  | 'bad_cobs'
  /** Decoded length outside 5..280, or a body length wrong for its type. */
  | 'bad_length'
  | 'bad_crc'
  /** A field out of range (an invalid cell value, non-zero padding, an unknown side…). */
  | 'bad_value'
  /** A good frame of a type this side does not take (newer firmware, or the other direction's). */
  | 'unknown_type';

export type ProtocolError = CodedError<ProtocolErrorCode>;

const fail = (code: ProtocolErrorCode, message: string) => err<ProtocolError>({ code, message });

// ─── CRC-16/CCITT-FALSE ────────────────────────────────────────────────────────────────────────

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    table[i] = c;
  }
  return table;
})();

/** Poly 0x1021, init 0xFFFF, no reflection: crc16('123456789') = 0x29B1. */
export function crc16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

// ─── COBS ──────────────────────────────────────────────────────────────────────────────────────

/** COBS encoding of `data` (no delimiter): no 0x00 in the result. */
export function cobsEncode(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 254) + 1);
  let codeAt = 0;
  let o = 1;
  let code = 1;
  for (const byte of data) {
    if (byte === 0) {
      out[codeAt] = code;
      codeAt = o++;
      code = 1;
    } else {
      out[o++] = byte;
      if (++code === 0xff) {
        out[codeAt] = code;
        codeAt = o++;
        code = 1;
      }
    }
  }
  out[codeAt] = code;
  return out.subarray(0, o);
}

/** Inverse of cobsEncode; `bad_cobs` for a zero byte or a code that runs past the end. */
export function cobsDecode(data: Uint8Array): Result<Uint8Array, ProtocolError> {
  const out = new Uint8Array(data.length);
  let o = 0;
  let i = 0;
  while (i < data.length) {
    const code = data[i]!;
    if (code === 0) return fail('bad_cobs', `COBS: zero byte at ${i}`);
    if (i + code > data.length) {
      return fail('bad_cobs', `COBS: code ${code} at ${i} runs past the end (${data.length} bytes)`);
    }
    for (let k = 1; k < code; k++) {
      const b = data[i + k]!;
      if (b === 0) return fail('bad_cobs', `COBS: zero byte at ${i + k}`);
      out[o++] = b;
    }
    i += code;
    if (code !== 0xff && i < data.length) out[o++] = 0;
  }
  return ok(out.subarray(0, o));
}

// ─── Frames ────────────────────────────────────────────────────────────────────────────────────

export interface Frame {
  readonly type: number;
  readonly seq: number;
  readonly body: Uint8Array;
}

/** The bytes of one frame on the wire: COBS(type seq body crc) then the 0x00 delimiter. */
export function encodeFrame(type: number, seq: number, body: Uint8Array = new Uint8Array(0)): Uint8Array {
  const raw = new Uint8Array(body.length + 5);
  raw[0] = type;
  raw[1] = (seq >> 8) & 0xff;
  raw[2] = seq & 0xff;
  raw.set(body, 3);
  const crc = crc16(raw, 0, raw.length - 2);
  raw[raw.length - 2] = crc >> 8;
  raw[raw.length - 1] = crc & 0xff;
  const cobs = cobsEncode(raw);
  const wire = new Uint8Array(cobs.length + 1);
  wire.set(cobs);
  return wire;
}

/** One chunk collected between delimiters (delimiter excluded) → a checked frame. */
export function decodeFrame(chunk: Uint8Array): Result<Frame, ProtocolError> {
  if (chunk.length > WIRE_MAX) return fail('garbage', `${chunk.length} bytes without a delimiter`);
  const decoded = cobsDecode(chunk);
  if (!decoded.ok) return decoded;
  const raw = decoded.value;
  if (raw.length < FRAME_MIN || raw.length > FRAME_MAX) {
    return fail('bad_length', `frame of ${raw.length} bytes (allowed ${FRAME_MIN}..${FRAME_MAX})`);
  }
  const want = crc16(raw, 0, raw.length - 2);
  const got = (raw[raw.length - 2]! << 8) | raw[raw.length - 1]!;
  if (want !== got) {
    return fail('bad_crc', `type 0x${hex(raw[0]!)}: CRC 0x${hex(got, 4)}, computed 0x${hex(want, 4)}`);
  }
  return ok({ type: raw[0]!, seq: (raw[1]! << 8) | raw[2]!, body: raw.subarray(3, raw.length - 2) });
}

const hex = (n: number, width = 2) => n.toString(16).toUpperCase().padStart(width, '0');

/**
 * Splits a byte stream at 0x00 delimiters. Empty chunks are skipped; a run longer than WIRE_MAX is
 * reported once as `garbage` and dropped up to the next delimiter (PROTOCOL.md §2, Receiving).
 */
export class FrameReader {
  private buffer = new Uint8Array(WIRE_MAX);
  private length = 0;
  private overflowing = false;

  /** Calls `onChunk` for each complete chunk or overflow, in order. */
  push(bytes: Uint8Array, onChunk: (chunk: Result<Uint8Array, ProtocolError>) => void): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === 0) {
        if (!this.overflowing && this.length > 0) onChunk(ok(this.buffer.slice(0, this.length)));
        this.length = 0;
        this.overflowing = false;
      } else if (this.overflowing) {
        // dropping up to the next delimiter
      } else if (this.length === WIRE_MAX) {
        this.overflowing = true;
        this.length = 0;
        onChunk(fail('garbage', `more than ${WIRE_MAX} bytes without a delimiter`));
      } else {
        this.buffer[this.length++] = b;
      }
    }
  }

  /** Forgets a partial frame (after a reconnect). */
  reset(): void {
    this.length = 0;
    this.overflowing = false;
  }
}

// ─── Messages ──────────────────────────────────────────────────────────────────────────────────

export type SnapshotReason = 'change' | 'heartbeat' | 'requested' | 'boot';
const REASONS: readonly SnapshotReason[] = ['change', 'heartbeat', 'requested', 'boot'];
export type AckStatus = 'ok' | 'bad_length' | 'out_of_range' | 'unsupported' | 'unknown_type';
const ACK_STATUSES: readonly AckStatus[] = [
  'ok',
  'bad_length',
  'out_of_range',
  'unsupported',
  'unknown_type',
];

export interface InfoMessage {
  type: 'info';
  proto: number;
  sensing: Sensing;
  firmware: readonly [number, number, number];
  scanHz: number;
  heartbeatMs: number;
  debounce: number;
  leds: boolean;
  buttons: boolean;
  boardId: string;
}
export interface PongMessage {
  type: 'pong';
  echo: number;
  tMs: number;
  scans: number;
  rxBad: number;
  txDeferred: number;
}
export interface SnapshotMessage {
  type: 'snapshot';
  reason: SnapshotReason;
  tMs: number;
  cells: Cells;
}
export interface ButtonMessage {
  type: 'button';
  side: 'red' | 'black';
  presses: number;
  tMs: number;
}
export interface AckMessage {
  type: 'ack';
  echo: number;
  command: number;
  status: AckStatus;
}
/** Board → controller. */
export type BoardMessage = InfoMessage | PongMessage | SnapshotMessage | ButtonMessage | AckMessage;

/** Controller → board. */
export type Command =
  | { type: 'hello' }
  | { type: 'ping' }
  | { type: 'get_snapshot' }
  | { type: 'set_scan_rate'; hz: number }
  | { type: 'led_frame'; rgb: Uint8Array };

/** A decoded message with the sender's sequence number. */
export type Sequenced<M> = M & { seq: number };

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const putU16 = (b: Uint8Array, at: number, v: number) => {
  b[at] = (v >> 8) & 0xff;
  b[at + 1] = v & 0xff;
};
const putU32 = (b: Uint8Array, at: number, v: number) => {
  putU16(b, at, Math.floor(v / 0x10000) & 0xffff);
  putU16(b, at + 2, v & 0xffff);
};

/** `bad_length` when a body is not the size its type requires, else undefined. */
function wrongLength(name: string, body: Uint8Array, n: number) {
  return body.length === n
    ? undefined
    : fail('bad_length', `${name} body is ${body.length} bytes, expected ${n}`);
}

/** Cells from their 2-bit packing; `bad_value` for a value the sensing kind cannot have. */
export function unpackCells(packed: Uint8Array, sensing: Sensing): Result<Cells, ProtocolError> {
  if (packed.length !== CELL_BYTES)
    return fail('bad_length', `cells are ${packed.length} bytes, expected 23`);
  let cells = '';
  for (let i = 0; i < 92; i++) {
    const v = (packed[i >> 2]! >> (2 * (i & 3))) & 3;
    if (i >= 90) {
      if (v !== 0) return fail('bad_value', 'snapshot padding bits are not zero');
      continue;
    }
    if (v === 0) cells += '.';
    else if (v === 1) cells += sensing === 'occupancy' ? 'x' : 'r';
    else if (v === 2 && sensing === 'colour') cells += 'b';
    else
      return fail(
        'bad_value',
        `snapshot cell ${i} has value ${v}, invalid on a${sensing === 'occupancy' ? 'n occupancy' : ' colour'} board`,
      );
  }
  return ok(cells);
}

/** Cells packed 2 bits each ('.' 0, 'x'/'r' 1, 'b' 2), LSB first, 4 to a byte. */
export function packCells(cells: Cells): Uint8Array {
  const out = new Uint8Array(CELL_BYTES);
  for (let i = 0; i < 90; i++) {
    const c = cells[i];
    const v = c === 'x' || c === 'r' ? 1 : c === 'b' ? 2 : 0;
    out[i >> 2]! |= v << (2 * (i & 3));
  }
  return out;
}

/** A checked frame from the board → a typed message. `sensing` says how to read snapshot cells. */
export function decodeBoardMessage(
  frame: Frame,
  sensing: Sensing,
): Result<Sequenced<BoardMessage>, ProtocolError> {
  const { body, seq } = frame;
  switch (frame.type) {
    case FrameType.INFO: {
      if (body.length < 13) return fail('bad_length', `INFO body is ${body.length} bytes, expected 13..44`);
      const idLen = body[11]!;
      if (idLen < 1 || idLen > 32) return fail('bad_value', `INFO id_len ${idLen} (allowed 1..32)`);
      const wrong = wrongLength('INFO', body, 12 + idLen);
      if (wrong) return wrong;
      const sensingByte = body[1]!;
      if (sensingByte > 1) return fail('bad_value', `INFO sensing ${sensingByte} (0 occupancy, 1 colour)`);
      const caps = body[10]!;
      if (caps & ~0x03) return fail('bad_value', `INFO caps 0x${hex(caps)} has undefined bits`);
      const id = body.subarray(12);
      if (id.some((c) => c < 0x21 || c > 0x7e))
        return fail('bad_value', 'INFO board_id is not printable ASCII');
      return ok({
        type: 'info',
        seq,
        proto: body[0]!,
        sensing: sensingByte === 0 ? 'occupancy' : 'colour',
        firmware: [body[2]!, body[3]!, body[4]!],
        scanHz: u16(body, 5),
        heartbeatMs: u16(body, 7),
        debounce: body[9]!,
        leds: (caps & 1) !== 0,
        buttons: (caps & 2) !== 0,
        boardId: String.fromCharCode(...id),
      });
    }
    case FrameType.PONG: {
      const wrong = wrongLength('PONG', body, 14);
      if (wrong) return wrong;
      return ok({
        type: 'pong',
        seq,
        echo: u16(body, 0),
        tMs: u32(body, 2),
        scans: u32(body, 6),
        rxBad: u16(body, 10),
        txDeferred: u16(body, 12),
      });
    }
    case FrameType.SNAPSHOT: {
      const wrong = wrongLength('SNAPSHOT', body, 5 + CELL_BYTES);
      if (wrong) return wrong;
      const reason = REASONS[body[0]!];
      if (!reason) return fail('bad_value', `SNAPSHOT reason ${body[0]} (allowed 0..3)`);
      const cells = unpackCells(body.subarray(5), sensing);
      if (!cells.ok) return cells;
      return ok({ type: 'snapshot', seq, reason, tMs: u32(body, 1), cells: cells.value });
    }
    case FrameType.BUTTON: {
      const wrong = wrongLength('BUTTON', body, 6);
      if (wrong) return wrong;
      if (body[0]! > 1) return fail('bad_value', `BUTTON side ${body[0]} (0 red, 1 black)`);
      return ok({
        type: 'button',
        seq,
        side: body[0] === 0 ? 'red' : 'black',
        presses: body[1]!,
        tMs: u32(body, 2),
      });
    }
    case FrameType.ACK: {
      const wrong = wrongLength('ACK', body, 4);
      if (wrong) return wrong;
      const status = ACK_STATUSES[body[3]!];
      if (!status) return fail('bad_value', `ACK status ${body[3]} (allowed 0..4)`);
      return ok({ type: 'ack', seq, echo: u16(body, 0), command: body[2]!, status });
    }
    default:
      return fail('unknown_type', `frame type 0x${hex(frame.type)} is not a board message`);
  }
}

/** A checked frame from the controller → a command (the board side, for simulators). */
export function decodeCommand(frame: Frame): Result<Sequenced<Command>, ProtocolError> {
  const { body, seq } = frame;
  switch (frame.type) {
    case FrameType.HELLO:
    case FrameType.PING:
    case FrameType.GET_SNAPSHOT: {
      const type =
        frame.type === FrameType.HELLO ? 'hello' : frame.type === FrameType.PING ? 'ping' : 'get_snapshot';
      const wrong = wrongLength(type.toUpperCase(), body, 0);
      if (wrong) return wrong;
      return ok({ type, seq });
    }
    case FrameType.SET_SCAN_RATE: {
      const wrong = wrongLength('SET_SCAN_RATE', body, 2);
      if (wrong) return wrong;
      const hz = u16(body, 0);
      if (hz < SCAN_HZ_MIN || hz > SCAN_HZ_MAX)
        return fail('bad_value', `scan rate ${hz} Hz (allowed 10..1000)`);
      return ok({ type: 'set_scan_rate', seq, hz });
    }
    case FrameType.LED_FRAME: {
      const wrong = wrongLength('LED_FRAME', body, LED_BYTES);
      if (wrong) return wrong;
      return ok({ type: 'led_frame', seq, rgb: body.slice() });
    }
    default:
      return fail('unknown_type', `frame type 0x${hex(frame.type)} is not a command`);
  }
}

const COMMAND_TYPES = {
  hello: FrameType.HELLO,
  ping: FrameType.PING,
  get_snapshot: FrameType.GET_SNAPSHOT,
  set_scan_rate: FrameType.SET_SCAN_RATE,
  led_frame: FrameType.LED_FRAME,
} as const;

/** Controller → board: the wire bytes of a command. */
export function encodeCommand(command: Command, seq: number): Uint8Array {
  const type = COMMAND_TYPES[command.type];
  if (command.type === 'set_scan_rate') {
    const body = new Uint8Array(2);
    putU16(body, 0, command.hz);
    return encodeFrame(type, seq, body);
  }
  if (command.type === 'led_frame') return encodeFrame(type, seq, command.rgb);
  return encodeFrame(type, seq);
}

/** Board → controller: the wire bytes of a message (for simulated boards and tests). */
export function encodeBoardMessage(message: BoardMessage, seq: number): Uint8Array {
  switch (message.type) {
    case 'info': {
      const id = Buffer.from(message.boardId, 'ascii');
      const body = new Uint8Array(12 + id.length);
      body[0] = message.proto;
      body[1] = message.sensing === 'occupancy' ? 0 : 1;
      body.set(message.firmware, 2);
      putU16(body, 5, message.scanHz);
      putU16(body, 7, message.heartbeatMs);
      body[9] = message.debounce;
      body[10] = (message.leds ? 1 : 0) | (message.buttons ? 2 : 0);
      body[11] = id.length;
      body.set(id, 12);
      return encodeFrame(FrameType.INFO, seq, body);
    }
    case 'pong': {
      const body = new Uint8Array(14);
      putU16(body, 0, message.echo);
      putU32(body, 2, message.tMs);
      putU32(body, 6, message.scans);
      putU16(body, 10, message.rxBad);
      putU16(body, 12, message.txDeferred);
      return encodeFrame(FrameType.PONG, seq, body);
    }
    case 'snapshot': {
      const body = new Uint8Array(5 + CELL_BYTES);
      body[0] = REASONS.indexOf(message.reason);
      putU32(body, 1, message.tMs);
      body.set(packCells(message.cells), 5);
      return encodeFrame(FrameType.SNAPSHOT, seq, body);
    }
    case 'button': {
      const body = new Uint8Array(6);
      body[0] = message.side === 'red' ? 0 : 1;
      body[1] = message.presses & 0xff;
      putU32(body, 2, message.tMs);
      return encodeFrame(FrameType.BUTTON, seq, body);
    }
    case 'ack': {
      const body = new Uint8Array(4);
      putU16(body, 0, message.echo);
      body[2] = message.command;
      body[3] = ACK_STATUSES.indexOf(message.status);
      return encodeFrame(FrameType.ACK, seq, body);
    }
  }
}

// ─── Stream pipeline ───────────────────────────────────────────────────────────────────────────

/** Counts of frames dropped, by code. */
export type ErrorCounts = Record<ProtocolErrorCode, number>;
export const noErrors = (): ErrorCounts => ({
  garbage: 0,
  bad_cobs: 0,
  bad_length: 0,
  bad_crc: 0,
  bad_value: 0,
  unknown_type: 0,
});

/**
 * Bytes in, `Result<message, error>` out (object mode), for either side: pass the message decoder
 * (`boardDecoder(sensing)` on the controller, `decodeCommand` on a board). Errors are also counted
 * in `errors`; they never end the stream.
 */
export class ProtocolParser<M> extends Transform {
  readonly errors = noErrors();
  private readonly reader = new FrameReader();

  constructor(private readonly decode: (frame: Frame) => Result<Sequenced<M>, ProtocolError>) {
    super({ readableObjectMode: true });
  }

  /** Parses bytes synchronously, calling `onItem` per frame (the stream's work, without a stream). */
  parse(bytes: Uint8Array, onItem: (item: Result<Sequenced<M>, ProtocolError>) => void): void {
    this.reader.push(bytes, (chunk) => {
      const frame = chunk.ok ? decodeFrame(chunk.value) : chunk;
      const item = frame.ok ? this.decode(frame.value) : frame;
      if (!item.ok) this.errors[item.error.code]++;
      onItem(item);
    });
  }

  reset(): void {
    this.reader.reset();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.parse(chunk, (item) => this.push(item));
    callback();
  }
}

/** The controller's message decoder for a board of the given sensing kind. */
export const boardDecoder =
  (sensing: () => Sensing) =>
  (frame: Frame): Result<Sequenced<BoardMessage>, ProtocolError> =>
    decodeBoardMessage(frame, sensing());
