/**
 * The board's own LEDs, end to end: LED_FRAME over the pty to the real xqboard ELF in simavr, and
 * the WS2812 waveform the sketch clocks out on D26 (PA4), decoded by the harness from the pin's
 * edges and their cycle times (firmware-bridge/sim/xqsim.c). The default build has a serpentine
 * chain and a brightness limit of 128 (firmware-bridge/Makefile). Also: the sensor scan keeps its
 * 200 Hz while frames arrive back to back, measured in simulated time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rgbBytes } from '../../src/leds/frame.js';
import { ledIndex } from '../../src/leds/wled.js';
import { encodeCommand } from '../../src/sensors/protocol.js';
import { make, SimHarness } from './harness.js';
import { Link, noErrorsAtAll } from './link.js';

const SERPENTINE = true;
const BRIGHTNESS = 128;

/** What the chain must receive for a frame: G R B per LED, chain order, scaled by the limit. */
function expectedChain(rgb: Uint8Array): Uint8Array {
  const out = new Uint8Array(270);
  for (let sq = 0; sq < 90; sq++) {
    // The host's WLED driver numbers LEDs the same way (offset 0).
    const led = ledIndex(sq, { offset: 0, serpentine: SERPENTINE });
    const scale = (v: number) => Math.round((v * BRIGHTNESS) / 255);
    out[led * 3] = scale(rgb[sq * 3 + 1]!);
    out[led * 3 + 1] = scale(rgb[sq * 3]!);
    out[led * 3 + 2] = scale(rgb[sq * 3 + 2]!);
  }
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

beforeAll(() => {
  make('firmware', 'sim');
}, 300_000);

describe('LED chain driven by the xqboard firmware in simavr', () => {
  let sim: SimHarness;
  let link: Link;

  beforeAll(async () => {
    sim = new SimHarness('xqboard');
    link = await Link.open(await sim.ptyPath, 'occupancy');
    await sim.command('start');
    expect(await link.next('info', 0)).toMatchObject({ leds: true, boardId: 'xqb-mega' });
    await link.next('snapshot', 0, (s) => s.reason === 'boot');
  });
  afterAll(async () => {
    await link?.close();
    await sim?.stop();
  });

  /** Sends a frame and waits for its ACK, which the board sends once the frame is shown. */
  async function show(rgb: Uint8Array): Promise<void> {
    const from = link.mark();
    const seq = link.send({ type: 'led_frame', rgb });
    expect(await link.next('ack', from, (a) => a.echo === seq)).toMatchObject({ status: 'ok', command: 5 });
  }

  it('clears the LEDs at boot (a reset leaves them showing the old frame otherwise)', async () => {
    const cap = await sim.leds();
    expect(cap.frames).toBe(1);
    expect(cap.bits).toBe(90 * 24);
    expect(cap.grb).toEqual(new Uint8Array(270));
  });

  it('clocks out a frame as G R B in serpentine chain order, scaled by the brightness limit', async () => {
    const rgb = new Uint8Array(270);
    for (let i = 0; i < 270; i++) rgb[i] = (i * 37 + 11) & 0xff; // every byte different per Square
    rgb.fill(255, 0, 3); // a0 full white
    rgb.fill(0, 267, 270); // i9 off
    await show(rgb);
    const cap = await sim.leds();
    expect(cap.frames).toBe(2);
    expect(cap.bits).toBe(90 * 24);
    expect(hex(cap.grb)).toBe(hex(expectedChain(rgb)));
    expect(Array.from(cap.grb.subarray(0, 3))).toEqual([128, 128, 128]); // a0 is LED 0
    expect(Array.from(cap.grb.subarray(81 * 3, 81 * 3 + 3))).toEqual([0, 0, 0]); // i9 is LED 81
    // WS2812B timing (datasheet: T0H 0.4 us, T1H 0.8 us, +-150 ns; bit 1.25 us); the low gap between
    // LEDs (the firmware polls the UART there) must stay far below the 50 us that latches the chain.
    console.log(
      `LED frame: T0H ${cap.t0hNs.join('-')} ns, T1H ${cap.t1hNs.join('-')} ns, bit period ${cap.periodNs.join('-')} ns, ` +
        `longest low ${cap.lowMaxNs} ns, 90 LEDs in ${cap.showUs} us, starting ${cap.afterScanUs} us after a scan started`,
    );
    expect(cap.t0hNs[0]).toBeGreaterThanOrEqual(250);
    expect(cap.t0hNs[1]).toBeLessThanOrEqual(550);
    expect(cap.t1hNs[0]).toBeGreaterThanOrEqual(650);
    expect(cap.t1hNs[1]).toBeLessThanOrEqual(950);
    expect(cap.periodNs[0]).toBeGreaterThanOrEqual(1250);
    expect(cap.lowMaxNs).toBeLessThan(5000);
    expect(cap.showUs).toBeLessThan(3000); // XQ_LED_SHOW_US in core/xq_board.h
  });

  it('shows the host’s frames (src/leds/frame.ts rgbBytes), the latest one each time', async () => {
    const frame = Array.from({ length: 90 }, () => '000000');
    frame[0] = 'ff0000'; // a0 red
    frame[9] = '00ff00'; // a1 green: LED 17 on a serpentine chain
    frame[17] = '0000ff'; // i1 blue: LED 9
    frame[89] = 'ffffff';
    const rgb = rgbBytes(frame, 255);
    await show(rgb);
    let cap = await sim.leds();
    expect(hex(cap.grb)).toBe(hex(expectedChain(rgb)));
    expect(Array.from(cap.grb.subarray(17 * 3, 17 * 3 + 3))).toEqual([128, 0, 0]);
    expect(Array.from(cap.grb.subarray(9 * 3, 9 * 3 + 3))).toEqual([0, 0, 128]);
    const dark = new Uint8Array(270);
    await show(dark);
    cap = await sim.leds();
    expect(cap.grb).toEqual(dark);
    expect(cap.frames).toBe(4);
  });

  /** Scans per second of simulated time over `ms`, and the longest gap between two scans. */
  async function scanRate(ms: number): Promise<{ rate: number; gapUs: number }> {
    await sim.resetGap();
    const a = await sim.stats();
    await sim.elapse(ms);
    const b = await sim.stats();
    return { rate: ((b.scans - a.scans) * 1000) / (b.simMs - a.simMs), gapUs: b.scanGapMaxUs };
  }

  /**
   * A PONG with the simulated time bracketing it: the board took its time (`tMs`) after `lo` and
   * before `hi`, whatever the host's own delays (the simulation does not wait for the host).
   */
  async function bracketedPing() {
    const lo = (await sim.stats()).simMs;
    const pong = await link.ping();
    const hi = (await sim.stats()).simMs;
    return { pong, lo, hi };
  }

  /** Writes `n` LED frames at once (as fast as 115200 baud carries them) and waits for every ACK. */
  async function flood(n: number) {
    const before = await bracketedPing();
    await sim.resetGap();
    const s0 = await sim.stats();
    const from = link.mark();
    const seqs: number[] = [];
    for (let i = 0; i < n; i++) {
      const rgb = new Uint8Array(270).fill(i);
      rgb[0] = 0; // COBS must carry a zero in every frame
      seqs.push(link.send({ type: 'led_frame', rgb }));
    }
    // The board handles commands in order, so once a later frame's ACK is in, a frame with none
    // never reached it whole. That happened once in CI (the 8th of 60 frames; the board's own
    // sequence numbers show it sent no ACK for it), and not in 65 runs here with the machine
    // loaded; the cause is not found (the firmware's receive ring has ~40 bytes to spare at line
    // rate). The board must then have counted it as a bad frame, which the caller checks, and
    // simavr's own complaints (an RX overrun, say) are printed to tell next time.
    const acked: number[] = [];
    const missing: number[] = [];
    for (const [i, seq] of seqs.entries()) {
      try {
        expect(await link.next('ack', from, (a) => a.echo === seq)).toMatchObject({ status: 'ok' });
        acked.push(i);
      } catch (e) {
        if (!(e instanceof Error && e.message.startsWith('no ack'))) throw e;
        missing.push(i);
      }
    }
    const s1 = await sim.stats();
    const after = await bracketedPing();
    if (missing.length > 0) {
      console.log(
        `flood: frames ${missing.join(', ')} of ${n} not acknowledged; simavr said: ${sim.stderr.slice(-2000)}`,
      );
    }
    return {
      acked,
      missing,
      simRate: ((s1.scans - s0.scans) * 1000) / (s1.simMs - s0.simMs),
      boardRate: ((after.pong.scans - before.pong.scans) * 1000) / (after.pong.tMs - before.pong.tMs),
      frames: s1.ledFrames - s0.ledFrames,
      simMs: s1.simMs - s0.simMs,
      before,
      after,
      s0,
      s1,
    };
  }

  it('keeps the 200 Hz scan while LED frames arrive back to back', async () => {
    const idle = await scanRate(1000);
    const f = await flood(60);
    console.log(
      `scan rate at 200 Hz: ${idle.rate.toFixed(1)} scans/s without LED frames (longest gap ${idle.gapUs} us), ${f.simRate.toFixed(1)} with ` +
        `${f.frames} frames in ${f.simMs} ms (${((f.frames * 1000) / f.simMs).toFixed(1)} frames/s), simulated time; ` +
        `${f.boardRate.toFixed(1)} by the board's own clock; longest gap between scans ${f.s1.scanGapMaxUs} us`,
    );
    expect(idle.rate).toBeGreaterThan(198);
    expect(idle.rate).toBeLessThan(202);
    expect(idle.gapUs).toBeLessThan(5400);
    // At most one frame damaged on the simulated line, and the board said so (rx_bad).
    expect(f.missing.length).toBeLessThanOrEqual(1);
    expect(f.after.pong.rxBad - f.before.pong.rxBad).toBe(f.missing.length);
    expect(f.frames).toBe(60 - f.missing.length);
    expect(f.simRate).toBeGreaterThan(198);
    expect(f.simRate).toBeLessThan(202);
    // Not only the average: no scan is late by more than a poll's worth of received bytes (a show
    // goes only where it ends before the next scan is due).
    expect(f.s1.scanGapMaxUs).toBeLessThan(5400);
    // The board's clock does not lose the timer0 ticks of ~3 ms with interrupts off per frame.
    // Uncorrected it would lose one or two 1.024 ms overflows a frame: 60-120 ms here. Between
    // the two PONGs the simulation ran at least `least` and at most `most` ms (each PONG's time
    // is bracketed in simulated time, so the host's delays cannot count against the board).
    const boardMs = f.after.pong.tMs - f.before.pong.tMs;
    const least = f.after.lo - f.before.hi;
    const most = f.after.hi - f.before.lo;
    console.log(`board clock over the flood: ${boardMs} ms, simulated time ${least}–${most} ms`);
    // ±1: both clocks count whole milliseconds.
    expect(boardMs).toBeGreaterThanOrEqual(least - 1);
    expect(boardMs).toBeLessThanOrEqual(most + 1);
    // And the frames came in at the line's own pace: the sketch takes each byte out of the UART
    // between two LEDs. (simavr holds back the next byte until UDR0 is read instead of overrunning
    // as the real UART does, so a sketch that left them there would show here as a slower flood:
    // ~34 frames/s instead of ~42.) 115200 baud at 16 MHz is 117647 (UBRR 16, double speed).
    // Timed from the first frame's latch to the last one's, simulated time: the host's delays in
    // starting the flood and in hearing the last ACK are not in it.
    const wire =
      1 + encodeCommand({ type: 'led_frame', rgb: new Uint8Array(270).fill(1).fill(0, 0, 1) }, 1).length;
    const frameLineMs = (wire * 10 * 1000) / 117_647;
    const latchedMs = f.s1.ledLastMs - f.s1.ledFirstMs;
    const first = f.acked[0]!;
    const last = f.acked.at(-1)!;
    console.log(
      `${last - first} frames after the first latched in ${latchedMs.toFixed(1)} ms, the line carries them in ${((last - first) * frameLineMs).toFixed(1)} ms`,
    );
    expect(latchedMs).toBeLessThan((last - first) * frameLineMs * 1.04);
    expect(link.parser.errors).toEqual(noErrorsAtAll);
    const cap = await sim.leds();
    expect(cap.grb).toEqual(expectedChain(new Uint8Array(270).fill(last).fill(0, 0, 1)));
  });

  it('at 1000 Hz (no room between scans) a frame takes the place of about three scans', async () => {
    const from = link.mark();
    const seq = link.send({ type: 'set_scan_rate', hz: 1000 });
    await link.next('ack', from, (a) => a.echo === seq);
    const idle = await scanRate(500);
    const f = await flood(40);
    console.log(
      `scan rate at 1000 Hz: ${idle.rate.toFixed(1)} scans/s without LED frames, ${f.simRate.toFixed(1)} with ` +
        `${((f.frames * 1000) / f.simMs).toFixed(1)} frames/s (simulated time); longest gap ${f.s1.scanGapMaxUs} us`,
    );
    expect(idle.rate).toBeGreaterThan(990);
    expect(f.missing.length).toBeLessThanOrEqual(1);
    expect(f.after.pong.rxBad - f.before.pong.rxBad).toBe(f.missing.length);
    expect(f.frames).toBe(40 - f.missing.length);
    // A show (rendering, then 2.8 ms on the wire) and the grid restarting after it: ~3.2 scans a frame.
    expect(f.simRate).toBeGreaterThan(1000 - 4 * ((f.frames * 1000) / f.simMs));
    const mark = link.mark();
    const back = link.send({ type: 'set_scan_rate', hz: 200 });
    await link.next('ack', mark, (a) => a.echo === back);
  });
});
