/**
 * The LED frame as a pure function of the move reader's state, WLED's JSON commands, and the
 * serial hook end to end: a controller reading a simulated firmware board through the real
 * serialport stack sends LED_FRAME commands to it as pieces are lifted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { COLOURS, LED_COUNT, ledFrame, rgbBytes, squareOf } from '../../src/leds/frame.js';
import { ledIndex, WLED_MAX_COLOURS, wledPower, wledSegmentCommands } from '../../src/leds/wled.js';
import { defaultSetup } from '../../src/rules/index.js';
import { cellsOf } from '../../src/sensors/snapshot.js';
import { ProtocolDevice } from '../sensors/devices/protocol-device.js';

const lit = (frame: string[]) =>
  Object.fromEntries(
    frame.flatMap((c, sq) => (c === COLOURS.off ? [] : [[`${'abcdefghi'[sq % 9]}${Math.floor(sq / 9)}`, c]])),
  );

describe('ledFrame', () => {
  it('is dark for an idle board with no move yet', () => {
    expect(ledFrame({ state: 'awaiting_move', detail: {} })).toEqual(new Array(LED_COUNT).fill('000000'));
  });

  it('shows the last move, dim where it came from', () => {
    expect(lit(ledFrame({ state: 'awaiting_move', lastMove: 'h2e2' }))).toEqual({
      h2: '402000',
      e2: 'FF8000',
    });
  });

  it('shows a lifted piece white and its legal targets green, over the last move', () => {
    const frame = ledFrame({
      state: 'piece_lifted',
      detail: { lifted: ['h9'], targets: ['g7', 'i7'] },
      lastMove: 'h2e2',
    });
    expect(lit(frame)).toEqual({ h2: '402000', e2: 'FF8000', h9: 'FFFFFF', g7: '00FF00', i7: '00FF00' });
  });

  it('shows a hint violet at both ends', () => {
    expect(lit(ledFrame({ state: 'awaiting_move', hint: 'b0c2' }))).toEqual({ b0: '8000FF', c2: '8000FF' });
  });

  it('shows the general in check red', () => {
    expect(lit(ledFrame({ state: 'awaiting_move', lastMove: 'h2h9', check: 'e9' }))).toMatchObject({
      e9: 'FF0000',
      h9: 'FF8000',
    });
  });

  it('shows the candidates of an uncertain capture yellow', () => {
    const frame = ledFrame({ state: 'pending_capture', detail: { candidates: [['h2h9'], ['b2b9']] } });
    expect(lit(frame)).toEqual({ h2: 'FFFF00', h9: 'FFFF00', b2: 'FFFF00', b9: 'FFFF00' });
  });

  it('shows the moves a doubt names yellow while it stands, and a sensor taken for dead pink', () => {
    const frame = ledFrame({
      state: 'awaiting_move',
      lastMove: 'e4c5',
      doubt: [['e4c5'], ['e4g5']],
      faults: ['d0'],
    });
    expect(lit(frame)).toEqual({ e4: 'FFFF00', c5: 'FFFF00', g5: 'FFFF00', d0: 'FF0080' });
  });

  it('shows the points a doubt asks to lift light pink, over the moves it may have been', () => {
    const frame = ledFrame({
      state: 'awaiting_move',
      doubt: [['d9e8'], ['f9e8'], []],
      suspects: ['d9', 'f9', 'e8'],
    });
    expect(lit(frame)).toEqual({ d9: 'FF80C0', f9: 'FF80C0', e8: 'FF80C0' });
  });

  it('shows an illegal placement: red where it stands, blue where it came from, green where it may go', () => {
    const frame = ledFrame({
      state: 'illegal',
      detail: {},
      illegal: { from: 'h0', to: 'h2', legalTargets: ['g2', 'i2'] },
    });
    expect(lit(frame)).toEqual({ h2: 'FF0000', h0: '0000FF', g2: '00FF00', i2: '00FF00' });
  });

  it('shows corrections in setup and out of sync: magenta to take from, cyan to put on', () => {
    const corrections = [
      { kind: 'move' as const, from: 'e3', to: 'e4', text: 'e3 → e4' },
      { kind: 'remove' as const, at: 'a5', text: 'remove a5' },
      { kind: 'add' as const, at: 'i9', piece: 'x' as const, text: 'add i9' },
    ];
    for (const state of ['setup', 'out_of_sync'] as const) {
      expect(lit(ledFrame({ state, detail: { corrections } }))).toEqual({
        e3: 'FF00FF',
        e4: '00FFFF',
        a5: 'FF00FF',
        i9: '00FFFF',
      });
    }
  });

  it('names squares as the rules do (a0 = 0, i9 = 89) and ignores anything else', () => {
    expect([squareOf('a0'), squareOf('i0'), squareOf('a1'), squareOf('i9')]).toEqual([0, 8, 9, 89]);
    expect([squareOf('j0'), squareOf('a10'), squareOf('')]).toEqual([undefined, undefined, undefined]);
    expect(lit(ledFrame({ state: 'piece_lifted', detail: { lifted: ['zz'], targets: [] } }))).toEqual({});
  });
});

describe('WLED commands', () => {
  it('powers on with the brightness, then clears the range and lights pairs in LED order', () => {
    expect(wledPower(90)).toEqual({ on: true, bri: 90 });
    const frame = ledFrame({ state: 'piece_lifted', detail: { lifted: ['h9'], targets: ['g7', 'i7'] } });
    expect(wledSegmentCommands(frame, { offset: 0, serpentine: false })).toEqual([
      { seg: { id: 0, i: [0, 90, '000000', 69, '00FF00', 71, '00FF00', 88, 'FFFFFF'] } },
    ]);
  });

  it('maps squares through the offset and a serpentine strip', () => {
    const layout = { offset: 10, serpentine: true };
    expect([0, 8, 9, 17, 18, 89].map((sq) => ledIndex(sq, layout))).toEqual([10, 18, 27, 19, 28, 91]);
    const frame = new Array(90).fill('000000');
    frame[9] = 'ff0000';
    expect(wledSegmentCommands(frame, layout)).toEqual([
      { seg: { id: 0, i: [10, 100, '000000', 27, 'FF0000'] } },
    ]);
  });

  it('never sends more than 256 colours a call', () => {
    const frame = new Array(90).fill('00FF00');
    const commands = wledSegmentCommands(frame, { offset: 0, serpentine: false });
    for (const c of commands) {
      const colours = c.seg.i.filter((v) => typeof v === 'string').length;
      expect(colours).toBeLessThanOrEqual(WLED_MAX_COLOURS);
    }
    const pairs = commands.flatMap((c, k) => (k === 0 ? c.seg.i.slice(3) : c.seg.i));
    expect(pairs.length).toBe(180);
  });
});

describe('serial LEDs', () => {
  it('scales colours by brightness into the firmware LED frame (R, G, B per square)', () => {
    const frame = new Array(90).fill('000000');
    frame[4] = 'FF8000';
    const rgb = rgbBytes(frame, 128);
    expect(rgb.length).toBe(270);
    expect([...rgb.slice(12, 15)]).toEqual([128, 64, 0]);
    expect(rgb.reduce((a, b) => a + b, 0)).toBe(192);
  });

  it('a controller sends LED_FRAME to a firmware board as a piece is lifted', async () => {
    const start = cellsOf(defaultSetup().board, 'occupancy');
    const device = new ProtocolDevice({ cells: start, leds: true });
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-leds-'));
    const parsed = configSchema.parse({
      boards: [
        {
          id: 'mega',
          source: { driver: 'serial', port: device.link.path },
          leds: { driver: 'serial', brightness: 200 },
        },
      ],
      mqtt: { port: 1883, wsPort: 0 },
      archive: { dir },
      web: { enabled: false },
    });
    const config = { ...parsed, mqtt: { ...parsed.mqtt, port: 0 } };
    const controller = new Controller({ config, sourceContext: { binding: device.link.binding } });
    try {
      const started = await controller.start();
      expect(started.ok).toBe(true);
      const session = controller.sessions.get('mega')!;
      const until = async (what: string, cond: () => boolean) => {
        for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
        if (!cond()) throw new Error(`timed out waiting for ${what}`);
      };
      await until('the game to start', () => session.currentPhase === 'playing');
      const b0 = 1;
      device.setCells(`${start.slice(0, b0)}.${start.slice(b0 + 1)}`);
      const frames = () => device.commands.flatMap((c) => (c.type === 'led_frame' ? [c.rgb] : []));
      // The horse on b0 lifted: its square white at brightness 200, its targets a2 and c2 green.
      await until('a frame lighting b0', () => frames().some((rgb) => rgb[b0 * 3] === 200));
      const rgb = frames().find((f) => f[b0 * 3] === 200)!;
      const at = (sq: number) => [...rgb.slice(sq * 3, sq * 3 + 3)];
      expect([at(b0), at(18), at(20)]).toEqual([
        [200, 200, 200],
        [0, 200, 0],
        [0, 200, 0],
      ]);
      expect(rgb.reduce((a, b) => a + b, 0)).toBe(1000);
    } finally {
      await controller.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
