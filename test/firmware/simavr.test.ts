/**
 * End to end: the real xqboard firmware (firmware-bridge/, built with avr-gcc) running in simavr,
 * its UART0 on a pty opened with serialport 13, decoded with src/sensors/protocol.ts. The test
 * sets what the simulated 74HC165 chain sees and checks the snapshots the firmware sends.
 * Needs the firmware toolchain (CI installs it); without it the suite fails and says what to install.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSetup, parseFen, parseSquare } from '../../src/rules/index.js';
import { encodeCommand } from '../../src/sensors/protocol.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { type Cells, cellsOf, EMPTY_CELLS, type Sensing } from '../../src/sensors/snapshot.js';
import { EventLog } from '../sensors/devices/events.js';
import { make, SimHarness } from './harness.js';
import { Link, noErrorsAtAll } from './link.js';

const cellsOfFen = (fen: string, sensing: Sensing): Cells => {
  const setup = parseFen(fen);
  if (!setup.ok) throw new Error(setup.error.message);
  return cellsOf(setup.value.board, sensing);
};

const POSITIONS = [
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1',
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1', // after h2e2
  'r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3',
  '3k5/4a4/9/9/9/9/9/9/4A4/4K4 w - - 0 1',
  '9/9/9/9/9/9/9/9/9/9 w - - 0 1', // everything lifted (not a legal position; sensors don't care)
];

beforeAll(() => {
  make('firmware', 'sim');
}, 300_000);

describe('xqboard firmware in simavr (occupancy board)', () => {
  let sim: SimHarness;
  let link: Link;
  const closedLinks: Link[] = [];

  beforeAll(async () => {
    sim = new SimHarness('xqboard');
    link = await Link.open(await sim.ptyPath, 'occupancy');
    await sim.command('start'); // only now: bytes sent before the pty is open are lost
  });
  afterAll(async () => {
    await link?.close();
    await sim?.stop();
  });

  it('boots with INFO, then a snapshot of what the sensors see', async () => {
    const info = await link.next('info', 0);
    expect(info).toMatchObject({
      seq: 0,
      proto: 1,
      sensing: 'occupancy',
      firmware: [1, 1, 0],
      scanHz: 200,
      heartbeatMs: 1000,
      debounce: 3,
      leds: true,
      buttons: true,
      boardId: 'xqb-mega',
    });
    const boot = await link.next('snapshot', 0);
    expect(boot).toMatchObject({ seq: 1, reason: 'boot', cells: EMPTY_CELLS });
  });

  it('answers HELLO with INFO and a requested snapshot', async () => {
    const from = link.mark();
    link.send({ type: 'hello' });
    const info = await link.next('info', from);
    expect(info.boardId).toBe('xqb-mega');
    const snap = await link.next('snapshot', from);
    expect(snap.reason).toBe('requested');
    expect(link.messages.indexOf(snap)).toBeGreaterThan(link.messages.indexOf(info));
  });

  it('sends exactly the board the sensors see, for one position after another', async () => {
    for (const fen of POSITIONS) {
      const cells = cellsOfFen(fen, 'occupancy');
      const from = link.mark();
      await sim.command(`set ${cells}`);
      // The first change after the set is the whole new board: the chain is latched in one go.
      const snap = await link.next('snapshot', from, (s) => s.reason === 'change');
      expect(snap.cells).toBe(cells);
    }
  });

  it('debounces: a one-scan flicker is nothing, a lift held for 4 scans is a change', async () => {
    const start = cellsOf(defaultSetup().board, 'occupancy');
    let from = link.mark();
    await sim.command(`set ${start}`);
    expect((await link.next('snapshot', from, (s) => s.reason === 'change')).cells).toBe(start);
    const h0 = 7; // a horse's square, occupied
    from = link.mark();
    await sim.command(`glitch ${h0} 6000`); // at 200 Hz: seen by one or two scans of the three needed
    await link.ping(); // everything the board sent before this reply has arrived
    expect(link.messages.slice(from).filter((m) => m.type === 'snapshot' && m.reason === 'change')).toEqual(
      [],
    );
    await sim.command(`glitch ${h0} 20000`); // four scans or more: lifted, then put back
    const lifted = await link.next('snapshot', from, (s) => s.reason === 'change');
    expect(lifted.cells).toBe(`${start.slice(0, h0)}.${start.slice(h0 + 1)}`);
    const back = await link.next('snapshot', link.messages.indexOf(lifted) + 1, (s) => s.reason === 'change');
    expect(back.cells).toBe(start);
  });

  it('sends clock button presses, counted per side', async () => {
    const from = link.mark();
    await sim.command('button black');
    expect(await link.next('button', from)).toMatchObject({ side: 'black', presses: 1 });
    await sim.command('button red');
    expect(await link.next('button', from, (b) => b.side === 'red')).toMatchObject({ presses: 1 });
    await sim.command('button black');
    expect(await link.next('button', from, (b) => b.presses === 2)).toMatchObject({ side: 'black' });
  });

  it('answers PING with PONG; scans at the configured 200 Hz (board time)', async () => {
    const first = await link.ping();
    expect(first).toMatchObject({ rxBad: 0, txDeferred: 0 });
    await sim.elapse(700); // simulated time: the MCU may run slower than the wall clock
    const second = await link.ping();
    const rate = ((second.scans - first.scans) * 1000) / (second.tMs - first.tMs);
    console.log(`firmware scan rate at 200 Hz setting: ${rate.toFixed(1)} scans/s (board time)`);
    expect(rate).toBeGreaterThan(190);
    expect(rate).toBeLessThan(210);
    // The harness counted the same latches on the chain.
    const stats = await sim.stats();
    expect(stats.scans).toBeGreaterThanOrEqual(second.scans);
    console.log(`one 90-bit chain read: ${stats.chainReadUs} us (simulated 16 MHz ATmega2560)`);
    expect(stats.chainReadUs).toBeGreaterThan(0);
  });

  it('takes SET_SCAN_RATE (10..1000 Hz) and refuses what it cannot do', async () => {
    let from = link.mark();
    const bad = link.send({ type: 'set_scan_rate', hz: 5 });
    expect(await link.next('ack', from, (a) => a.echo === bad)).toMatchObject({
      status: 'out_of_range',
      command: 4,
    });
    const leds = link.send({ type: 'led_frame', rgb: new Uint8Array(270) });
    expect(await link.next('ack', from, (a) => a.echo === leds)).toMatchObject({ status: 'ok', command: 5 });

    const fast = link.send({ type: 'set_scan_rate', hz: 1000 });
    expect(await link.next('ack', from, (a) => a.echo === fast)).toMatchObject({ status: 'ok' });
    const first = await link.ping();
    await sim.elapse(700); // simulated time: the MCU may run slower than the wall clock
    const second = await link.ping();
    const rate = ((second.scans - first.scans) * 1000) / (second.tMs - first.tMs);
    console.log(`firmware scan rate at 1000 Hz setting: ${rate.toFixed(1)} scans/s (board time)`);
    expect(rate).toBeGreaterThan(950);
    expect(rate).toBeLessThan(1010);
    // Still correct at full speed.
    const cells = cellsOfFen(POSITIONS[2]!, 'occupancy');
    from = link.mark();
    await sim.command(`set ${cells}`);
    expect((await link.next('snapshot', from, (s) => s.reason === 'change')).cells).toBe(cells);
    const back = link.send({ type: 'set_scan_rate', hz: 200 });
    await link.next('ack', from, (a) => a.echo === back);
  });

  it('recovers from garbage, a cut frame and a bad CRC, and counts them', async () => {
    const from = link.mark();
    const before = await link.ping();
    const noise = new Uint8Array(1000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 151 + 7) & 0xff;
    link.write(noise);
    link.write(encodeCommand({ type: 'ping' }, 900).subarray(0, 4)); // the cable is cut mid-frame
    const corrupt = encodeCommand({ type: 'ping' }, 901);
    corrupt[3]! ^= 0x40;
    link.write(Uint8Array.of(0, ...corrupt));
    const after = await link.ping();
    expect(after.rxBad).toBeGreaterThan(before.rxBad);
    expect(
      link.messages.slice(from).some((m) => m.type === 'pong' && (m.echo === 900 || m.echo === 901)),
    ).toBe(false);
    // And it still reads the board.
    const cells = cellsOfFen(POSITIONS[3]!, 'occupancy');
    const mark = link.mark();
    await sim.command(`set ${cells}`);
    expect((await link.next('snapshot', mark, (s) => s.reason === 'change')).cells).toBe(cells);
  });

  it('sends a heartbeat snapshot every second on a quiet board', async () => {
    const from = link.mark();
    const first = await link.next('snapshot', from, (s) => s.reason === 'heartbeat');
    const second = await link.next(
      'snapshot',
      link.messages.indexOf(first) + 1,
      (s) => s.reason === 'heartbeat',
    );
    expect(second.cells).toBe(first.cells);
    // A heartbeat is due 1000 ms after the last snapshot was sent, but carries the time of the
    // scan it reports, which may be up to a scan period (5 ms at 200 Hz) older than its sending.
    const { scanHz } = await link.next('info', 0);
    const scanMs = 1000 / scanHz;
    const period = second.tMs - first.tMs;
    expect(period).toBeGreaterThanOrEqual(1000 - scanMs);
    expect(period).toBeLessThanOrEqual(1010);
  });

  it('after the port is closed and opened again, HELLO brings back the current board', async () => {
    await link.close();
    const cells = cellsOfFen(POSITIONS[2]!, 'occupancy');
    await sim.command(`set ${cells}`); // changes while nobody listens
    await sim.elapse(50); // debounced long before the port is back
    const old = link;
    closedLinks.push(old);
    link = await Link.open(await sim.ptyPath, 'occupancy');
    link.send({ type: 'hello' });
    expect(await link.next('info', 0)).toMatchObject({ boardId: 'xqb-mega' });
    const snap = await link.next('snapshot', 0, (s) => s.reason === 'requested');
    expect(snap.cells).toBe(cells);
    // Frames sent while the port was closed are gone: the sequence number shows how many.
    const lastSeen = old.messages.at(-1)?.seq ?? 0;
    expect(link.messages[0]!.seq).toBeGreaterThan(lastSeen);
  });

  it('sent only well-formed frames, numbered without a gap', () => {
    for (const l of [...closedLinks, link]) {
      expect(l.parser.errors).toEqual(noErrorsAtAll);
      l.messages.forEach((m, i) => {
        if (i > 0) expect(m.seq).toBe(l.messages[i - 1]!.seq + 1);
      });
    }
  });
});

describe('xqboard firmware in simavr (colour board)', () => {
  let sim: SimHarness;
  let link: Link;

  beforeAll(async () => {
    sim = new SimHarness('xqboard-colour');
    link = await Link.open(await sim.ptyPath, 'colour');
    await sim.command('start');
  });
  afterAll(async () => {
    await link?.close();
    await sim?.stop();
  });

  it('announces colour sensing and reports red and black pieces, captures included', async () => {
    expect(await link.next('info', 0)).toMatchObject({ sensing: 'colour', boardId: 'xqb-mega-colour' });
    await link.next('snapshot', 0, (s) => s.reason === 'boot');
    const start = cellsOf(defaultSetup().board, 'colour');
    let from = link.mark();
    await sim.command(`set ${start}`);
    expect((await link.next('snapshot', from, (s) => s.reason === 'change')).cells).toBe(start);
    // Red's cannon b2 jumps the cannon on b7 and takes the horse on b9: b2 empties and b9 turns
    // red. On an occupancy board only b2 would change.
    const from2 = parseSquare('b2')!;
    const to = parseSquare('b9')!;
    const captured = [...start].map((c, i) => (i === from2 ? '.' : i === to ? 'r' : c)).join('');
    from = link.mark();
    await sim.command(`set ${captured}`);
    expect((await link.next('snapshot', from, (s) => s.reason === 'change')).cells).toBe(captured);
    expect(link.parser.errors.bad_value).toBe(0);
  });
});

describe('the serial driver (src/sensors/serial.ts) against the real firmware', () => {
  let sim: SimHarness;
  let source: SerialSource | undefined;

  beforeAll(() => {
    sim = new SimHarness('xqboard');
  });
  afterAll(async () => {
    await source?.stop();
    await sim?.stop();
  });

  it('handshakes, then emits snapshots and button presses', async () => {
    source = new SerialSource({ id: 'sim-1', path: await sim.ptyPath, sensing: 'occupancy' });
    const log = new EventLog(source);
    const starting = source.start();
    await sim.command('start'); // the driver repeats HELLO until the board answers
    await starting;
    await log.latestOrNext('link', (e) => e.up);
    expect(source.health().board).toMatchObject({ boardId: 'xqb-mega', sensing: 'occupancy' });
    const cells = cellsOf(defaultSetup().board, 'occupancy');
    const seen = log.next('snapshot', (e) => e.cells === cells);
    await sim.command(`set ${cells}`);
    await seen;
    const press = log.next('button');
    await sim.command('button red');
    expect((await press).side).toBe('red');
    expect(source.health().badFrames).toBe(0);
  });
});
