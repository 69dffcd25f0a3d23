/**
 * Builds the firmware and the simavr harness (`make -C firmware-bridge firmware sim`) and runs
 * the harness: the real xqboard ELF on a simulated ATmega2560 with UART0 on a pty, and the
 * 74HC165 chain driven from our stdin (see firmware-bridge/sim/xqsim.c).
 */
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const FIRMWARE_DIR = fileURLToPath(new URL('../../firmware-bridge/', import.meta.url));
const TOOLCHAIN =
  'gcc-avr avr-libc arduino-core-avr simavr libsimavr-dev libsimavrparts1 libelf-dev pkg-config make gcc';

/** Runs make in firmware-bridge; throws (failing the suite, never skipping it) with make's output. */
export function make(...targets: string[]): string {
  const r = spawnSync('make', ['-C', FIRMWARE_DIR, ...targets], { encoding: 'utf8', timeout: 300_000 });
  if (r.error || r.status !== 0) {
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-25).join('\n');
    throw new Error(
      `make ${targets.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}). ` +
        `The firmware toolchain is required (Debian: apt-get install ${TOOLCHAIN}).\n${output}`,
    );
  }
  return r.stdout;
}

export class SimHarness {
  readonly ptyPath: Promise<string>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  private failure: Error | undefined;
  stderr = '';

  constructor(elf: 'xqboard' | 'xqboard-colour') {
    const args = [`${FIRMWARE_DIR}build/${elf}.elf`, ...(elf === 'xqboard-colour' ? ['--colour'] : [])];
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

  /** Scans the harness saw (/PL pulses) and the simulated time. */
  async stats(): Promise<{ simMs: number; scans: number; chainReadUs: number }> {
    this.child.stdin.write('stats\n');
    const line = await this.nextLine((l) => l.startsWith('stats '));
    const m = /sim_ms=(\d+) scans=(\d+) chain_read_us=([\d.]+)/.exec(line);
    return { simMs: Number(m?.[1]), scans: Number(m?.[2]), chainReadUs: Number(m?.[3]) };
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
