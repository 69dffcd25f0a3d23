/**
 * The serial driver through the real serialport stream stack (MockBinding underneath) against a
 * simulated xqboard firmware on the device side. Time is a ManualClock the tests move: backoff,
 * HELLO repeats and the silent-link watchdog are checked without waiting on real time.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSetup, parseSquare } from '../../src/rules/index.js';
import { boardDecoder, ProtocolParser } from '../../src/sensors/protocol.js';
import { SerialSource, type SerialSourceOptions } from '../../src/sensors/serial.js';
import { cellsOf, EMPTY_CELLS } from '../../src/sensors/snapshot.js';
import { ManualClock } from '../../src/util/clock.js';
import { EventLog } from './devices/events.js';
import { ProtocolDevice, type ProtocolDeviceOptions } from './devices/protocol-device.js';

const START = cellsOf(defaultSetup().board, 'occupancy');
const sq = (name: string) => parseSquare(name)!;
const withCell = (cells: string, at: number, c: string) => cells.slice(0, at) + c + cells.slice(at + 1);

/** Lets the real I/O (nextTicks, stream reads) run until `cond` holds; the test timeout bounds it. */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const f of cleanup) await f();
  cleanup = [];
});

function setUp(device: ProtocolDeviceOptions = {}, driver: Partial<SerialSourceOptions> = {}) {
  const clock = new ManualClock(0);
  const sim = new ProtocolDevice({ cells: START, ...device });
  const source = new SerialSource({
    id: 'board-1',
    path: sim.link.path,
    binding: sim.link.binding,
    sensing: 'occupancy',
    clock,
    ...driver,
  });
  const log = new EventLog(source);
  cleanup.push(() => source.stop());
  return { clock, sim, source, log };
}

describe('serial source: handshake and traffic', { timeout: 15_000 }, () => {
  it('handshakes (HELLO → INFO) and reports the board', async () => {
    const { sim, source, log } = setUp({ boardId: 'hall-7' });
    await source.start();
    expect(log.of('link')).toEqual([{ type: 'link', t: 0, up: true }]);
    await until(() => sim.commands.length > 0);
    expect(sim.commands.map((c) => c.type)).toEqual(['hello']);
    const health = source.health();
    expect(health.board).toMatchObject({
      proto: 1,
      boardId: 'hall-7',
      sensing: 'occupancy',
      heartbeatMs: 1000,
    });
    expect((await log.latestOrNext('snapshot')).cells).toBe(START);
  });

  it('emits every snapshot and button; counts sequence gaps and lost presses', async () => {
    const { sim, source, log } = setUp();
    await source.start();
    await until(() => log.of('snapshot').length >= 2); // boot, and the answer to HELLO

    const lifted = withCell(START, sq('h2'), '.');
    const next = log.next('snapshot', (e) => e.cells === lifted);
    sim.setCells(lifted);
    expect((await next).since).toBeUndefined(); // (no frame lost before it)

    const red = log.next('button');
    sim.press('red');
    expect((await red).side).toBe('red');

    sim.loseFrames(3);
    const moved = withCell(lifted, sq('e2'), 'x');
    const after = log.next('snapshot', (e) => e.cells === moved);
    sim.setCells(moved);
    const shown = await after;
    expect(source.health()).toMatchObject({ sequenceGaps: 1, lostFrames: 3, badFrames: 0, lostPresses: 0 });
    // Frames were lost before it: what it shows may have changed any time since the last one seen.
    const snapshots = log.of('snapshot');
    expect(shown.since).toBe(snapshots[snapshots.indexOf(shown) - 1]!.t);
    // The gap asks the board for its whole state at once (the heartbeat would come a second later).
    await until(() => sim.commands.some((c) => c.type === 'get_snapshot'));

    sim.pressLost('red');
    sim.press('red');
    await until(() => log.of('button').length === 2);
    expect(source.health()).toMatchObject({ lostPresses: 1, sequenceGaps: 2, lostFrames: 4 });
    expect(log.of('button').map((b) => b.side)).toEqual(['red', 'red']);
  });

  it('sends numbered commands once the link is up, and none before', async () => {
    const { sim, source } = setUp();
    expect(source.send({ type: 'ping' })).toBeUndefined();
    await source.start();
    const ping = source.send({ type: 'ping' });
    const rate = source.send({ type: 'set_scan_rate', hz: 500 });
    await until(() => sim.commands.length === 3);
    expect(sim.commands).toEqual([
      { type: 'hello', seq: 0 },
      { type: 'ping', seq: ping },
      { type: 'set_scan_rate', seq: rate, hz: 500 },
    ]);
    expect([ping, rate]).toEqual([1, 2]);
  });

  it('repeats HELLO every 500 ms while the board is still in its bootloader', async () => {
    const { clock, sim, source, log } = setUp();
    sim.mute = true;
    void source.start();
    await until(() => sim.heard === 8); // 0x00 + HELLO (7 bytes), unheard
    clock.advance(500);
    await until(() => sim.heard === 15);
    clock.advance(500);
    await until(() => sim.heard === 22);
    expect(log.of('link')).toEqual([]);
    sim.mute = false;
    clock.advance(500);
    await log.latestOrNext('link', (e) => e.up);
    expect(sim.commands.map((c) => c.type)).toEqual(['hello']);
    expect(sim.commands[0]?.seq).toBe(3); // HELLO seq 0, 1, 2 went unheard
  });

  it('gives up a handshake after 10 s, then retries', async () => {
    const { clock, sim, source, log } = setUp();
    sim.mute = true;
    void source.start();
    await until(() => sim.link.isOpen && clock.pending().length === 2);
    clock.advance(10_000);
    const down = await log.latestOrNext('link', (e) => !e.up);
    expect(down.reason).toMatch(/no INFO/);
    expect(clock.pending()).toEqual([250]);
    sim.mute = false;
    clock.advance(250);
    await log.next('link', (e) => e.up);
  });

  it('refuses a board of another protocol version, says why, and tries again like any fault', async () => {
    const { clock, sim, source, log } = setUp({ proto: 2 });
    await source.start();
    expect(log.of('link')).toEqual([
      expect.objectContaining({ up: false, reason: expect.stringMatching(/protocol 2/) }),
    ]);
    expect(log.of('snapshot')).toEqual([]);
    expect(clock.pending()).toEqual([250]);
    // Still the wrong firmware at the next try: refused again, the wait grows.
    clock.advance(250);
    await until(() => source.health().openAttempts === 2 && clock.pending().includes(500));
    // The right firmware is flashed: the next try connects.
    sim.proto = 1;
    clock.advance(500);
    await log.latestOrNext('link', (e) => e.up);
    expect(source.health().board).toMatchObject({ proto: 1 });
  });

  it('refuses a colour board configured as occupancy', async () => {
    const { source, log } = setUp({ sensing: 'colour' });
    await source.start();
    expect(log.of('link')[0]?.reason).toMatch(/senses colour/);
  });
});

describe('serial source: unplug, reconnect, silence', { timeout: 15_000 }, () => {
  it.each([
    ['resets on open (DTR)', true],
    ['keeps running (no DTR reset)', false],
  ])(
    'unplugged in the middle of a move, board %s: after reconnect the snapshot shows the board as it is',
    async (_, resetOnOpen) => {
      const { clock, sim, source, log } = setUp({ resetOnOpen });
      await source.start();
      await until(() => log.of('snapshot').length >= 1);

      // Red lifts the cannon on h2 …
      const lifted = withCell(START, sq('h2'), '.');
      const seen = log.next('snapshot', (e) => e.cells === lifted);
      sim.setCells(lifted);
      await seen;

      // … the cable comes out …
      const down = log.next('link', (e) => !e.up);
      sim.link.unplug();
      expect((await down).reason).toMatch(/disconnected/);
      const snapshotsWhileDown = log.of('snapshot').length;

      // … and the cannon lands on e2 while nobody listens (the board's frame goes nowhere).
      const moved = withCell(lifted, sq('e2'), 'x');
      sim.setCells(moved);
      expect(clock.pending()).toEqual([250]);
      sim.link.plug();
      const up = log.next('link', (e) => e.up);
      const current = log.next('snapshot');
      clock.advance(250);
      await up;
      expect((await current).cells).toBe(moved);

      const cellsSeen = log.of('snapshot').map((e) => e.cells);
      expect(cellsSeen.slice(0, snapshotsWhileDown).every((c) => c === START || c === lifted)).toBe(true);
      expect(cellsSeen.slice(snapshotsWhileDown).every((c) => c === moved)).toBe(true);
      expect(source.health()).toMatchObject({ reconnects: 1, linkUp: true, sequenceGaps: 0 });
      // the driver asked for the state again (HELLO) on the new connection
      await until(() => sim.commands.filter((c) => c.type === 'hello').length === 2);
    },
  );

  it('backs off exponentially, capped, while the port cannot be opened; resets once connected', async () => {
    const { clock, sim, source, log } = setUp({}, { backoff: { initialMs: 250, maxMs: 4000, factor: 2 } });
    sim.link.unplug();
    await source.start();
    expect(log.of('link')).toEqual([
      expect.objectContaining({ up: false, reason: expect.stringMatching(/no such device/) }),
    ]);

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt++) {
      await until(() => source.health().openAttempts === attempt && clock.pending().length === 1);
      delays.push(clock.pending()[0]!);
      if (attempt === 7) sim.link.plug();
      clock.advance(delays[delays.length - 1]!);
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
    await log.latestOrNext('link', (e) => e.up);
    expect(log.of('link').map((e) => e.up)).toEqual([false, true]); // one event per change, not per attempt
    expect(source.health().openAttempts).toBe(8);
    const down = log.next('link', (e) => !e.up);
    sim.link.unplug();
    await down;
    expect(clock.pending()).toEqual([250]);
  });

  it('a silent board (no frame for 3 heartbeats) is a link down; the driver reconnects', async () => {
    const { clock, sim, source, log } = setUp({ heartbeatMs: 1000 });
    await source.start();
    clock.advance(900);
    sim.heartbeat(); // frames keep the link up
    await until(() => log.of('snapshot').some((e) => e.t === 900));
    sim.mute = true; // hung firmware: the port stays open, nothing comes
    clock.advance(2999);
    expect(log.of('link').filter((e) => !e.up)).toEqual([]);
    clock.advance(1);
    const down = log.of('link').filter((e) => !e.up);
    expect(down).toEqual([
      { type: 'link', t: 3900, up: false, reason: 'no frame from the board for 3000 ms' },
    ]);
    await until(() => !sim.link.isOpen); // the driver closed the port to start over
    sim.mute = false;
    const up = log.next('link', (e) => e.up);
    clock.advance(250);
    await up;
    expect(source.health().reconnects).toBe(1);
  });
});

describe('serial source: fuzzing through the real stack', { timeout: 15_000 }, () => {
  it('garbage, truncated frames and bad CRCs are counted and never become snapshots', async () => {
    const { sim, source, log } = setUp();
    await source.start();
    await until(() => log.of('snapshot').length >= 2);
    let cells = START;
    let expectedBad = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 600 }),
        fc.nat(),
        fc.array(fc.constantFrom('.', 'x'), { minLength: 90, maxLength: 90 }),
        async (garbage, flip, nextCells) => {
          // garbage; a snapshot frame with one byte damaged; the board's 0x00; a good snapshot
          const before = log.of('snapshot').length;
          const reference = new ProtocolParser(boardDecoder(() => 'occupancy'));
          sim.cells = nextCells.join('');
          const damaged = sim.snapshotFrame().slice();
          const at = flip % (damaged.length - 1);
          damaged[at] = damaged[at] === 0x55 ? 0xaa : 0x55;
          // and a frame cut short (a cable pulled mid-frame), closed by the next frame's 0x00
          const cut = sim.snapshotFrame().subarray(0, 1 + (flip % 30));
          const noise = Buffer.concat([
            garbage,
            Uint8Array.of(0),
            damaged,
            Uint8Array.of(0),
            cut,
            Uint8Array.of(0),
          ]);
          reference.parse(noise, () => {});
          expectedBad += Object.values(reference.errors).reduce((a, b) => a + b, 0);
          cells = nextCells.join('');
          const good = sim.snapshotFrame();
          sim.sendRaw(noise);
          sim.sendRaw(good);
          await log.next('snapshot', (s) => s.cells === cells);
          // The frames the noise spoiled are a gap in the sequence: the source asks for the whole
          // state, and the board's answer shows the same cells. Nothing else arrives.
          await new Promise((r) => setTimeout(r, 10));
          const arrived = log.of('snapshot').slice(before);
          expect(arrived.length).toBeGreaterThanOrEqual(1);
          expect(arrived.every((s) => s.cells === cells)).toBe(true);
          const { errors } = source.health();
          expect(Object.values(errors).reduce((a, b) => a + b, 0)).toBe(expectedBad);
        },
      ),
      { numRuns: 150 },
    );
    expect(source.health().linkUp).toBe(true);
    expect(source.health().badFrames).toBeGreaterThanOrEqual(300); // at least the damaged and the cut one per run
  });

  it('an empty board is a snapshot like any other', async () => {
    const { source, log } = setUp({ cells: EMPTY_CELLS });
    await source.start();
    expect((await log.latestOrNext('snapshot')).cells).toBe(EMPTY_CELLS);
    await until(() => log.of('snapshot').length === 2); // boot, then the answer to HELLO
    expect(log.of('snapshot').every((e) => e.cells === EMPTY_CELLS)).toBe(true);
  });
});
