/**
 * The johnny-five driver end to end: real johnny-five + firmata-io + serialport stream, against a
 * simulated StandardFirmata board with six MCP23017s on the device side of a mock port.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSetup } from '../../src/rules/index.js';
import { JohnnyFiveSource } from '../../src/sensors/johnny-five.js';
import { cellsOf, EMPTY_CELLS } from '../../src/sensors/snapshot.js';
import { ManualClock } from '../../src/util/clock.js';
import { EventLog } from './devices/events.js';
import { FirmataDevice } from './devices/firmata-device.js';

const ADDRESSES = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25];
/** The default wiring: intersection n is input n = chip * 16 + bit. */
const contactOf = (sq: number) => ({ address: ADDRESSES[Math.floor(sq / 16)]!, bit: sq % 16 });

function place(device: FirmataDevice, sq: number, present: boolean): void {
  const { address, bit } = contactOf(sq);
  device.setContact(address, bit, present);
}

const withPiece = (cells: string, sq: number, c: string) => cells.slice(0, sq) + c + cells.slice(sq + 1);

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup) await f();
  cleanup = [];
});

function setUp(options: { buttons?: boolean; clock?: ManualClock } = {}) {
  const device = new FirmataDevice({ samplingMs: 5 });
  const source = new JohnnyFiveSource({
    id: 'j5',
    path: device.link.path,
    binding: device.link.binding,
    ...(options.buttons ? { buttons: { red: 2, black: 3 } } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const log = new EventLog(source);
  cleanup.push(async () => {
    await source.stop();
    device.stop();
  });
  return { device, source, log };
}

describe('johnny-five source (StandardFirmata + 6 × MCP23017)', { timeout: 15_000 }, () => {
  it('comes up, configures each chip, and reads each with one continuous 2-byte read of GPIOA', async () => {
    const { device, source, log } = setUp();
    await source.start();
    expect(log.of('link')).toEqual([expect.objectContaining({ up: true })]);
    const first = await log.latestOrNext('snapshot');
    expect(first.cells).toBe(EMPTY_CELLS);

    const reads = device.i2cLog.filter((r) => r.mode === 2);
    expect(reads.map((r) => r.address).sort()).toEqual(ADDRESSES);
    expect(reads.every((r) => r.data[0] === 0x12 && r.data[1] === 2)).toBe(true);
    for (const address of ADDRESSES) {
      const chip = device.expanders.get(address)!;
      expect([chip.regs[0x00], chip.regs[0x01]]).toEqual([0xff, 0xff]); // IODIR: inputs
      expect([chip.regs[0x0c], chip.regs[0x0d]]).toEqual([0xff, 0xff]); // GPPU: pull-ups
    }
    expect(source.health().linkUp).toBe(true);
  });

  it('placing and lifting pieces gives the right complete snapshots, on every chip', async () => {
    const { device, source, log } = setUp();
    await source.start();
    await log.latestOrNext('snapshot');

    // a0 (chip 0, GPA0), h2 (chip 1, GPB2 → input 25), i9 (chip 5, GPB1 → input 89)
    let expected = EMPTY_CELLS;
    for (const sq of [0, 25, 89]) {
      const next = log.next('snapshot', (e) => e.cells[sq] === 'x');
      place(device, sq, true);
      expected = withPiece(expected, sq, 'x');
      expect((await next).cells).toBe(expected);
    }
    const lifted = log.next('snapshot', (e) => e.cells[25] === '.');
    place(device, 25, false);
    expect((await lifted).cells).toBe(withPiece(expected, 25, '.'));
  });

  it('reads the whole start position', async () => {
    const { device, source, log } = setUp();
    await source.start();
    await log.latestOrNext('snapshot');
    const start = cellsOf(defaultSetup().board, 'occupancy');
    const seen = log.next('snapshot', (e) => e.cells === start);
    for (let sq = 0; sq < 90; sq++) if (start[sq] === 'x') place(device, sq, true);
    expect((await seen).cells).toBe(start);
  });

  it('reports clock button presses from plain pins with pull-ups', async () => {
    const { device, source, log } = setUp({ buttons: true });
    await source.start();
    const red = log.next('button');
    device.setButton(2, true);
    expect((await red).side).toBe('red');
    device.setButton(2, false);
    const black = log.next('button');
    device.setButton(3, true);
    expect((await black).side).toBe('black');
    expect(log.of('button').map((b) => b.side)).toEqual(['red', 'black']);
  });

  it('re-sends the snapshot as a heartbeat on its clock', async () => {
    const clock = new ManualClock(1000);
    const { source, log } = setUp({ clock });
    await source.start();
    await log.latestOrNext('snapshot');
    const before = log.of('snapshot').length;
    clock.advance(1000);
    clock.advance(1000);
    const after = log.of('snapshot');
    expect(after.length).toBe(before + 2);
    expect(after[after.length - 1]).toEqual({ type: 'snapshot', t: 3000, cells: EMPTY_CELLS });
  });

  it('a hung I2C bus (no replies for 3 heartbeats) is a link down until the chips answer again', async () => {
    const clock = new ManualClock(0);
    const { device, source, log } = setUp({ clock });
    await source.start();
    await log.latestOrNext('snapshot');
    device.hangBus();
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r)); // replies in flight land
    clock.advance(2000);
    expect(log.of('link').map((e) => e.up)).toEqual([true]);
    clock.advance(1000);
    expect(log.of('link').map((e) => e.up)).toEqual([true, false]);
    expect(log.of('link')[1]!.reason).toBe('no data from the I2C expanders for 3000 ms');
    const up = log.next('link', (e) => e.up);
    device.releaseBus();
    await up;
  });

  it('raises link down when the board is unplugged, and reads the board again once restarted', async () => {
    const { device, source, log } = setUp();
    await source.start();
    const down = log.next('link', (e) => !e.up);
    device.link.unplug();
    const event = await down;
    expect(event.reason).toMatch(/closed|disconnected/);
    expect(source.health().linkUp).toBe(false);

    // a piece placed while unplugged; started again, the first snapshot shows it
    place(device, 40, true);
    device.link.plug();
    await source.start();
    expect(log.of('link').map((e) => e.up)).toEqual([true, false, true]);
    const snap = await log.next('snapshot');
    expect(snap.cells).toBe(withPiece(EMPTY_CELLS, 40, 'x'));
  });

  it('reports a port that cannot be opened as link down, without throwing', async () => {
    const { device, source, log } = setUp();
    device.link.unplug();
    await source.start();
    expect(log.of('link')).toEqual([expect.objectContaining({ up: false })]);
    expect(log.of('link')[0]!.reason).toMatch(/no such device/);
  });
});
