/** The codec against PROTOCOL.md's worked examples, round trips, and fuzzing. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultSetup } from '../../src/rules/index.js';
import {
  type BoardMessage,
  boardDecoder,
  type Command,
  cobsDecode,
  cobsEncode,
  crc16,
  decodeBoardMessage,
  decodeCommand,
  decodeFrame,
  encodeBoardMessage,
  encodeCommand,
  encodeFrame,
  FrameType,
  ProtocolParser,
  packCells,
} from '../../src/sensors/protocol.js';
import { cellsOf } from '../../src/sensors/snapshot.js';

const bytes = (s: string) =>
  Uint8Array.from(
    s
      .trim()
      .split(/\s+/)
      .map((h) => Number.parseInt(h, 16)),
  );
const START = cellsOf(defaultSetup().board, 'occupancy');
const START_COLOUR = cellsOf(defaultSetup().board, 'colour');

/** Parses a whole byte string with a fresh controller-side parser. */
function parseAll(input: Uint8Array, sensing: 'occupancy' | 'colour' = 'occupancy') {
  const parser = new ProtocolParser(boardDecoder(() => sensing));
  const items: ReturnType<typeof decodeBoardMessage>[] = [];
  parser.parse(input, (item) => items.push(item));
  return { parser, items, messages: items.flatMap((i) => (i.ok ? [i.value] : [])) };
}

describe('PROTOCOL.md worked examples', () => {
  it('CRC-16/CCITT-FALSE check value', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x29b1);
  });

  it('PING seq 1', () => {
    expect(encodeCommand({ type: 'ping' }, 1)).toEqual(bytes('02 02 04 01 B2 DD 00'));
  });

  it('SET_SCAN_RATE 500 Hz seq 7 and its ACK', () => {
    expect(encodeCommand({ type: 'set_scan_rate', hz: 500 }, 7)).toEqual(bytes('02 04 06 07 01 F4 81 30 00'));
    const ack: BoardMessage = { type: 'ack', echo: 7, command: FrameType.SET_SCAN_RATE, status: 'ok' };
    const wire = bytes('02 85 02 2B 03 07 04 03 8E 8F 00');
    expect(encodeBoardMessage(ack, 0x2b)).toEqual(wire);
    expect(parseAll(wire).messages).toEqual([{ ...ack, seq: 0x2b }]);
  });

  it('INFO', () => {
    const info: BoardMessage = {
      type: 'info',
      proto: 1,
      sensing: 'occupancy',
      firmware: [1, 0, 0],
      scanHz: 200,
      heartbeatMs: 1000,
      debounce: 3,
      leds: false,
      buttons: true,
      boardId: 'xqb-1',
    };
    const wire = bytes('02 81 01 02 01 02 01 01 01 0E C8 03 E8 03 02 05 78 71 62 2D 31 C4 86 00');
    expect(encodeBoardMessage(info, 0)).toEqual(wire);
    expect(parseAll(wire).messages).toEqual([{ ...info, seq: 0 }]);
  });

  it('SNAPSHOT of the start position, occupancy and colour', () => {
    const wire = bytes(`02 83 02 2A 01 01 06 30 39 55 55 01 02 40 04 44 44 44 01 01 01 06 10 11
             11 01 10 01 06 54 55 05 03 1D 00`);
    const snap: BoardMessage = { type: 'snapshot', reason: 'change', tMs: 12345, cells: START };
    expect(encodeBoardMessage(snap, 0x2a)).toEqual(wire);
    expect(parseAll(wire).messages).toEqual([{ ...snap, seq: 0x2a }]);

    const decoded = bytes(`83 00 2A 00 00 00 30 39
             55 55 01 00 40 00 44 44 44 00 00 00 00 20 22 22 02 20 00 00 A8 AA 0A 6A 44`);
    const colour = decodeFrame(cobsEncode(decoded));
    expect(colour.ok && decodeBoardMessage(colour.value, 'colour')).toEqual({
      ok: true,
      value: { type: 'snapshot', seq: 0x2a, reason: 'change', tMs: 12345, cells: START_COLOUR },
    });
    expect(packCells(START_COLOUR)).toEqual(decoded.subarray(8, 31));
  });

  it('BUTTON', () => {
    const wire = bytes('02 84 04 2C 01 01 01 05 30 70 93 41 00');
    const button: BoardMessage = { type: 'button', side: 'black', presses: 1, tMs: 12400 };
    expect(encodeBoardMessage(button, 0x2c)).toEqual(wire);
    expect(parseAll(wire).messages).toEqual([{ ...button, seq: 0x2c }]);
  });
});

describe('codec', () => {
  it('COBS round-trips any bytes and never emits 0x00', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (data) => {
        const enc = cobsEncode(data);
        expect(enc.includes(0)).toBe(false);
        const dec = cobsDecode(enc);
        expect(dec.ok && Buffer.from(dec.value).equals(Buffer.from(data))).toBe(true);
      }),
    );
  });

  it('commands round-trip through the board-side decoder', () => {
    const rgb = Uint8Array.from({ length: 270 }, (_, i) => i % 256); // with zeros and 254-byte runs
    const commands: Command[] = [
      { type: 'hello' },
      { type: 'ping' },
      { type: 'get_snapshot' },
      { type: 'set_scan_rate', hz: 10 },
      { type: 'led_frame', rgb },
    ];
    commands.forEach((c, seq) => {
      const wire = encodeCommand(c, seq);
      const frame = decodeFrame(wire.subarray(0, -1));
      expect(frame.ok && decodeCommand(frame.value)).toEqual({ ok: true, value: { ...c, seq } });
    });
  });

  it('refuses bad fields with codes', () => {
    const frameOf = (type: number, body: number[]) => {
      const f = decodeFrame(encodeFrame(type, 0, Uint8Array.from(body)).subarray(0, -1));
      if (!f.ok) throw new Error('test frame');
      return f.value;
    };
    const code = (r: { ok: boolean; error?: { code: string } }) => (r.ok ? 'ok' : r.error?.code);
    expect(code(decodeBoardMessage(frameOf(FrameType.BUTTON, [2, 0, 0, 0, 0, 0]), 'occupancy'))).toBe(
      'bad_value',
    );
    expect(code(decodeBoardMessage(frameOf(FrameType.BUTTON, [0, 0, 0]), 'occupancy'))).toBe('bad_length');
    expect(code(decodeBoardMessage(frameOf(0x99, []), 'occupancy'))).toBe('unknown_type');
    expect(code(decodeBoardMessage(frameOf(FrameType.PING, []), 'occupancy'))).toBe('unknown_type');
    // a black piece (value 2) on an occupancy board
    const body = [0, 0, 0, 0, 0, ...packCells(START_COLOUR)];
    expect(code(decodeBoardMessage(frameOf(FrameType.SNAPSHOT, body), 'occupancy'))).toBe('bad_value');
    expect(code(decodeBoardMessage(frameOf(FrameType.SNAPSHOT, body), 'colour'))).toBe('ok');
    const padded = [...body];
    padded[27] = padded[27]! | 0x40;
    expect(code(decodeBoardMessage(frameOf(FrameType.SNAPSHOT, padded), 'colour'))).toBe('bad_value');
    expect(code(decodeCommand(frameOf(FrameType.SET_SCAN_RATE, [0, 9])))).toBe('bad_value');
  });
});

const snapshotArb = fc
  .tuple(
    fc.array(fc.constantFrom('.', 'x'), { minLength: 90, maxLength: 90 }),
    fc.nat(0xffff),
    fc.nat(0xffffffff),
  )
  .map(([cells, seq, tMs]) => ({ cells: cells.join(''), seq, tMs }));

describe('fuzzing the controller-side parser', () => {
  it('random bytes never throw, never give a snapshot, and are counted', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (noise) => {
        const { parser, items } = parseAll(noise);
        // A random chunk passing COBS, length and a 16-bit CRC and then a 28-byte body check is
        // (far) rarer than fast-check will ever generate; any that did would still be a valid frame.
        const errors = items.filter((i) => !i.ok).length;
        expect(Object.values(parser.errors).reduce((a, b) => a + b, 0)).toBe(errors);
        expect(items.filter((i) => i.ok && i.value.type === 'snapshot')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('truncated frames and flipped bits are dropped and counted, the next frame still decodes', () => {
    fc.assert(
      fc.property(snapshotArb, snapshotArb, fc.nat(), fc.nat(), fc.boolean(), (a, b, cut, flip, truncate) => {
        const wireA = encodeBoardMessage(
          { type: 'snapshot', reason: 'change', tMs: a.tMs, cells: a.cells },
          a.seq,
        );
        const wireB = encodeBoardMessage(
          { type: 'snapshot', reason: 'heartbeat', tMs: b.tMs, cells: b.cells },
          b.seq,
        );
        let damaged: Uint8Array;
        if (truncate) {
          // the cable is cut mid-frame: a prefix, then after reconnect the board's 0x00 and a frame
          damaged = Buffer.concat([wireA.slice(0, 1 + (cut % (wireA.length - 2))), Uint8Array.of(0)]);
        } else {
          // one byte changed (never into the delimiter, which would split the frame instead)
          damaged = wireA.slice();
          const at = flip % (wireA.length - 1);
          const was = damaged[at]!;
          const changed = was ^ (1 + (flip % 255));
          damaged[at] = changed !== 0 ? changed : was === 1 ? 2 : 1;
        }
        const { parser, items } = parseAll(Buffer.concat([damaged, wireB]));
        const snapshots = items.flatMap((i) => (i.ok && i.value.type === 'snapshot' ? [i.value] : []));
        expect(snapshots.map((s) => s.cells)).toEqual([b.cells]);
        expect(items.filter((i) => !i.ok).length).toBe(1);
        expect(Object.values(parser.errors).reduce((x, y) => x + y, 0)).toBe(
          items.filter((i) => !i.ok).length,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('a receiver that starts mid-frame resynchronises at the next delimiter', () => {
    fc.assert(
      fc.property(snapshotArb, snapshotArb, fc.nat(), (a, b, cut) => {
        const wireA = encodeBoardMessage(
          { type: 'snapshot', reason: 'change', tMs: a.tMs, cells: a.cells },
          a.seq,
        );
        const wireB = encodeBoardMessage(
          { type: 'snapshot', reason: 'change', tMs: b.tMs, cells: b.cells },
          b.seq,
        );
        const tail = wireA.subarray(1 + (cut % (wireA.length - 1)));
        const { messages } = parseAll(Buffer.concat([tail, wireB]));
        expect(messages.map((m) => (m.type === 'snapshot' ? m.cells : m.type))).toEqual([b.cells]);
      }),
    );
  });

  it('valid frames embedded in garbage are all decoded, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 400 }), snapshotArb), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 10 }),
        (parts, chunkSizes) => {
          // each frame preceded by garbage and a 0x00 (what a sender does after noise: PROTOCOL.md §2)
          const wire = Buffer.concat(
            parts.flatMap(([noise, s]) => [
              noise,
              Uint8Array.of(0),
              encodeBoardMessage({ type: 'snapshot', reason: 'change', tMs: s.tMs, cells: s.cells }, s.seq),
            ]),
          );
          // fed in arbitrary pieces, as a serial port delivers them
          const parser = new ProtocolParser(boardDecoder(() => 'occupancy'));
          const got: string[] = [];
          let at = 0;
          for (let k = 0; at < wire.length; k++) {
            const n = chunkSizes[k % chunkSizes.length]!;
            parser.parse(wire.subarray(at, at + n), (i) => {
              if (i.ok && i.value.type === 'snapshot') got.push(i.value.cells);
            });
            at += n;
          }
          expect(got).toEqual(parts.map(([, s]) => s.cells));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('works as a stream: bytes in, results out', async () => {
    const parser = new ProtocolParser(boardDecoder(() => 'occupancy'));
    const out: unknown[] = [];
    parser.on('data', (item) => out.push(item));
    parser.write(Buffer.from([1, 2, 3, 0]));
    parser.end(encodeBoardMessage({ type: 'snapshot', reason: 'boot', tMs: 1, cells: START }, 5));
    await new Promise((r) => parser.on('end', r));
    expect(out).toEqual([
      { ok: false, error: expect.objectContaining({ code: expect.any(String) }) },
      { ok: true, value: { type: 'snapshot', seq: 5, reason: 'boot', tMs: 1, cells: START } },
    ]);
  });
});
