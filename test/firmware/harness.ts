/**
 * Builds the firmware and the simavr harness (`make -C firmware-bridge firmware sim`) and runs
 * the harness: the real xqboard ELF on a simulated ATmega2560 with UART0 on a pty, and the
 * 74HC165 chain driven from our stdin (see firmware-bridge/sim/xqsim.c).
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware-bridge/', import.meta.url));

/** Runs make in firmware-bridge; throws (failing the suite, never skipping it) with make's output. */
export function make(...targets: string[]): string {
  const r = spawnSync('make', ['-C', FIRMWARE_DIR, ...targets], { encoding: 'utf8', timeout: 300_000 });
  if (r.error || r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-25).join('\n');
    throw new Error(
      `make ${targets.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}). ` +
        'The firmware toolchain and simavr are required: `node scripts/system-deps.mjs` installs them ' +
        `(SYSTEM_PACKAGES there; npm test runs it first).\n${output}`,
    );
  }
  return r.stdout;
}

export interface SimStats {
  /** Simulated time since reset. */
  simMs: number;
  /** Scans seen on the pins (/PL pulses, or row 0 selections on a matrix). */
  scans: number;
  /** The last sensor read, first to last pin step. */
  chainReadUs: number;
  /** LED frames latched on the data pin. */
  ledFrames: number;
  /** Longest time from one scan to the next since `resetGap()` (or the start). */
  scanGapMaxUs: number;
  /** Simulated time the first and the last LED frame since `resetGap()` were latched (-1: none). */
  ledFirstMs: number;
  ledLastMs: number;
}

export interface LedCapture {
  /** Frames latched so far (the line held low >= 50 us after data). */
  frames: number;
  /** The last frame's bytes as clocked out, G R B per LED in chain order. */
  grb: Uint8Array;
  bits: number;
  /** Shortest and longest high time of 0 bits, of 1 bits; bit periods (rise to rise). */
  t0hNs: [number, number];
  t1hNs: [number, number];
  periodNs: [number, number];
  /** Longest low time inside the frame (the gaps between LEDs). */
  lowMaxNs: number;
  /** First rising edge to last falling edge. */
  showUs: number;
  /** From the start of the last scan before the frame to its first rising edge. */
  afterScanUs: number;
}

export class SimHarness {
  readonly ptyPath: Promise<string>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  private failure: Error | undefined;
  stderr = '';

  constructor(elf: 'xqboard' | 'xqboard-colour' | 'xqboard-matrix') {
    const flag = { xqboard: [], 'xqboard-colour': ['--colour'], 'xqboard-matrix': ['--matrix'] }[elf];
    const args = [`${FIRMWARE_DIR}build/${elf}.elf`, ...flag];
    this.child = spawn(`${FIRMWARE_DIR}build/xqsim`, args);
    this.child.on('error', (e) => {
      this.failure = new Error(
        `xqsim did not start (${e.message}); was \`make -C firmware-bridge sim\` run?`,
      );
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.on('exit', () => {
      for (const w of this.waiters.splice(0)) w();
    });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString();
    });
    const rl = createInterface({ input: this.child.stdout });
    rl.on('line', (line) => {
      this.lines.push(line);
      for (const w of this.waiters.splice(0)) w();
    });
    this.ptyPath = this.nextLine(() => true);
  }

  /** The first unread stdout line matching `accept` (earlier non-matching lines are dropped). */
  async nextLine(accept: (line: string) => boolean): Promise<string> {
    for (;;) {
      const at = this.lines.findIndex(accept);
      if (at >= 0) return this.lines.splice(0, at + 1)[at]!;
      if (this.failure) throw this.failure;
      if (this.child.exitCode !== null) {
        throw new Error(`xqsim exited (${this.child.exitCode}): ${this.stderr.slice(-500)}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Sends one command line and waits for its `ok` (or throws on `error`). */
  async command(cmd: string): Promise<void> {
    this.child.stdin.write(`${cmd}\n`);
    // `glitch <sq> <us>` is answered `ok glitch <sq>` once the square reads true again.
    const ok = cmd.startsWith('glitch ') ? `ok ${cmd.split(' ').slice(0, 2).join(' ')}` : `ok ${cmd}`;
    const reply = await this.nextLine((l) => l === ok || l.startsWith('error'));
    if (reply.startsWith('error')) throw new Error(`xqsim: ${reply}`);
  }

  /** Scans the harness saw (/PL pulses, or row 0 selections on a matrix), the simulated time,
   *  and the LED frames decoded on the data pin. */
  async stats(): Promise<SimStats> {
    this.child.stdin.write('stats\n');
    const line = await this.nextLine((l) => l.startsWith('stats '));
    const m =
      /sim_ms=(\d+) scans=(\d+) chain_read_us=([\d.]+) led_frames=(\d+) scan_gap_max_us=([\d.]+) led_first_ms=(-?[\d.]+) led_last_ms=(-?[\d.]+)/.exec(
        line,
      );
    if (!m) throw new Error(`xqsim: unexpected stats line '${line}'`);
    const [simMs, scans, chainReadUs, ledFrames, scanGapMaxUs, ledFirstMs, ledLastMs] = m
      .slice(1)
      .map(Number) as [number, number, number, number, number, number, number];
    return { simMs, scans, chainReadUs, ledFrames, scanGapMaxUs, ledFirstMs, ledLastMs };
  }

  /** Starts a new window for `scanGapMaxUs`, `ledFirstMs` and `ledLastMs`. */
  async resetGap(): Promise<void> {
    await this.command('gap reset');
  }

  /** The last LED frame the harness decoded from the WS2812 data pin (PA4), with its timing. */
  async leds(): Promise<LedCapture> {
    this.child.stdin.write('leds\n');
    const line = await this.nextLine((l) => l.startsWith('leds '));
    const m =
      /frames=(\d+) grb=([0-9a-f]*) bits=(\d+) t0h_ns=(\d+)-(\d+) t1h_ns=(\d+)-(\d+) period_ns=(\d+)-(\d+) low_max_ns=(\d+) show_us=([\d.]+) after_scan_us=([\d.]+)/.exec(
        line,
      );
    if (!m) throw new Error(`xqsim: unexpected leds line '${line}'`);
    const n = (i: number) => Number(m[i]);
    return {
      frames: n(1),
      grb: Uint8Array.from(Buffer.from(m[2]!, 'hex')),
      bits: n(3),
      t0hNs: [n(4), n(5)],
      t1hNs: [n(6), n(7)],
      periodNs: [n(8), n(9)],
      lowMaxNs: n(10),
      showUs: n(11),
      afterScanUs: n(12),
    };
  }

  /** Waits until the simulated MCU has run `ms` more milliseconds (it may lag the wall clock). */
  async elapse(ms: number): Promise<void> {
    const start = (await this.stats()).simMs;
    while ((await this.stats()).simMs < start + ms) await new Promise((r) => setTimeout(r, 10));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.failure) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end('quit\n');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}
