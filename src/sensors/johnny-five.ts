/**
 * A board built from parts: an Arduino running StandardFirmata, six MCP23017 I2C expanders with a
 * reed switch (to ground) under each intersection, and optionally two clock buttons on plain pins.
 * johnny-five opens the board; the expanders are read with ONE continuous `i2cRead` of GPIOA+GPIOB
 * per chip (johnny-five's own Expander would register a read per pin: 96, more than Firmata takes).
 *
 * Wiring (input n = chip * 16 + bit, bit 0–7 = GPA0–7, 8–15 = GPB0–7; intersection = n):
 *
 *   chip  addr  GPA0 ........ GPA7   GPB0 ........ GPB7
 *    0    0x20  a0 b0 c0 d0 e0 f0 g0 h0   i0 a1 b1 c1 d1 e1 f1 g1
 *    1    0x21  h1 i1 a2 b2 c2 d2 e2 f2   g2 h2 i2 a3 b3 c3 d3 e3
 *    2    0x22  f3 g3 h3 i3 a4 b4 c4 d4   e4 f4 g4 h4 i4 a5 b5 c5
 *    3    0x23  d5 e5 f5 g5 h5 i5 a6 b6   c6 d6 e6 f6 g6 h6 i6 a7
 *    4    0x24  b7 c7 d7 e7 f7 g7 h7 i7   a8 b8 c8 d8 e8 f8 g8 h8
 *    5    0x25  i8 a9 b9 c9 d9 e9 f9 g9   h9 i9 -- -- -- -- -- --   (GPB2–7 unused)
 *
 * Squares are ICCS (file a–i from Red's left, rank 0 on Red's side), so the chain runs along the
 * ranks from Red's back rank; a board wired differently passes its own `squareOfInput`.
 */
import type { EventEmitter } from 'node:events';
import type { SerialPort } from 'serialport';
import { type Clock, systemClock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { requirePackage } from '../util/require.js';
import { createPort, type SerialBinding } from './serial.js';
import type { Cells } from './snapshot.js';
import type { SensorEvent, SensorListener, SensorSource, SourceHealth } from './source.js';

export const EXPANDER_ADDRESSES: readonly number[] = [0x20, 0x21, 0x22, 0x23, 0x24, 0x25];
/** MCP23017 registers with IOCON.BANK = 0 (the reset value): A/B pairs are consecutive. */
export const MCP23017 = { IODIRA: 0x00, GPPUA: 0x0c, GPIOA: 0x12 } as const;

/** Default wiring: input n is intersection n (undefined = not connected). */
export const linearWiring = (input: number): number | undefined => (input < 90 ? input : undefined);

export interface JohnnyFiveOptions {
  id: string;
  /** Serial port of the Arduino, e.g. /dev/ttyACM0. */
  path: string;
  baudRate?: number;
  /** serialport binding; tests give `SerialPortMock.binding` (or a wrapper of it). */
  binding?: SerialBinding;
  addresses?: readonly number[];
  /** Input index (chip * 16 + bit) → intersection. */
  squareOfInput?: (input: number) => number | undefined;
  /** Clock buttons on plain pins, wired to ground (internal pull-up, pressed = low). */
  buttons?: { red: number; black: number };
  /** A full snapshot is re-sent this often even when nothing changes. */
  heartbeatMs?: number;
  /** Heartbeat periods without any I2C reply after which the link counts as down. */
  silentPeriods?: number;
  /** How long to wait for Firmata to answer before giving up on this start. */
  readyTimeoutMs?: number;
  clock?: Clock;
}

// johnny-five and firmata-io ship no types: the few members used here.
interface FirmataIo extends EventEmitter {
  i2cConfig(options: { delay: number }): void;
  i2cWrite(address: number, register: number, bytes: number[]): void;
  i2cRead(address: number, register: number, length: number, cb: (bytes: number[]) => void): void;
}
interface FiveBoard extends EventEmitter {
  isReady: boolean;
}
interface FiveModule {
  Board: new (options: Record<string, unknown>) => FiveBoard;
  Button: new (options: Record<string, unknown>) => EventEmitter;
}
type FirmataModule = { Firmata: new (transport: unknown, options: Record<string, unknown>) => FirmataIo };

export class JohnnyFiveSource implements SensorSource {
  readonly id: string;
  readonly sensing = 'occupancy' as const;
  private readonly options: JohnnyFiveOptions;
  private readonly clock: Clock;
  private readonly addresses: readonly number[];
  private readonly listeners = new Listeners<SensorEvent>();
  private port: SerialPort | undefined;
  private io: FirmataIo | undefined;
  private raw: (number | undefined)[] = [];
  private cells: Cells | undefined;
  private cancelHeartbeat: (() => void) | undefined;
  private linkUp = false;
  private linkReported: boolean | undefined;
  private lastReplyAt = 0;
  private expandersSilent = false;
  private snapshots = 0;

  constructor(options: JohnnyFiveOptions) {
    this.options = options;
    this.id = options.id;
    this.clock = options.clock ?? systemClock;
    this.addresses = options.addresses ?? EXPANDER_ADDRESSES;
  }

  subscribe(listener: SensorListener): () => void {
    return this.listeners.add(listener);
  }

  health(): SourceHealth {
    return { badFrames: 0, snapshots: this.snapshots, reconnects: 0, linkUp: this.linkUp };
  }

  /** Resolves once the board is ready, or once it has failed (a `link` event says why). */
  start(): Promise<void> {
    if (this.io) return Promise.resolve();
    const five = requirePackage('johnny-five') as FiveModule;
    const { Firmata } = requirePackage('firmata-io') as FirmataModule;
    this.raw = this.addresses.map(() => undefined);
    this.cells = undefined;
    this.linkReported = undefined;
    return new Promise((resolve) => {
      let port: SerialPort;
      try {
        port = createPort(this.options.path, this.options.baudRate ?? 57600, this.options.binding);
        port.open();
      } catch (e) {
        this.setLink(false, `cannot open ${this.options.path}: ${(e as Error).message}`);
        resolve();
        return;
      }
      const io = new Firmata(port, { reportVersionTimeout: 2000 });
      this.port = port;
      this.io = io;
      const board = new five.Board({ io, repl: false, debug: false, sigint: false, timeout: 10_000 });
      let cancelTimeout = () => {};
      /** This connection is over (no reconnect here: the caller decides whether to start again). */
      const down = (reason: string) => {
        if (this.io !== io) return; // a finished connection's late events
        this.io = undefined;
        this.port = undefined;
        this.cancelHeartbeat?.();
        cancelTimeout();
        if (port.isOpen) port.close();
        this.setLink(false, reason);
        resolve();
      };
      cancelTimeout = this.clock.setTimer(
        () => down(`no answer from Firmata on ${this.options.path}`),
        this.options.readyTimeoutMs ?? 10_000,
      );
      io.on('error', (e: Error) => down(`serial error on ${this.options.path}: ${e.message}`));
      io.on('close', () => down(`${this.options.path} closed`));
      io.on('disconnect', () => down(`${this.options.path} disconnected`));
      board.on('error', (e: Error) => down(`johnny-five: ${e.message}`));
      board.on('ready', () => {
        if (this.io !== io) return;
        cancelTimeout();
        this.lastReplyAt = this.clock.now();
        this.expandersSilent = false;
        this.configure(io, five, board);
        this.setLink(true);
        this.armHeartbeat();
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = undefined;
    const port = this.port;
    this.port = undefined;
    this.io = undefined; // its listeners stay (an 'error' without one would throw) but go quiet
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.setLink(false, 'stopped');
  }

  /** Expanders: all 16 pins inputs with pull-ups, then one continuous read of both GPIO ports. */
  private configure(io: FirmataIo, five: FiveModule, board: FiveBoard): void {
    io.i2cConfig({ delay: 0 });
    this.addresses.forEach((address, chip) => {
      io.i2cWrite(address, MCP23017.IODIRA, [0xff, 0xff]);
      io.i2cWrite(address, MCP23017.GPPUA, [0xff, 0xff]);
      io.i2cRead(address, MCP23017.GPIOA, 2, (bytes) => {
        if (this.io === io) this.onChip(chip, bytes);
      });
    });
    const buttons = this.options.buttons;
    if (buttons) {
      for (const side of ['red', 'black'] as const) {
        const button = new five.Button({ pin: buttons[side], isPullup: true, board });
        button.on('down', () => {
          if (this.io === io) this.emit({ type: 'button', t: this.clock.now(), side });
        });
      }
    }
  }

  private onChip(chip: number, bytes: number[]): void {
    if (bytes.length < 2) return;
    this.lastReplyAt = this.clock.now();
    if (this.expandersSilent) {
      this.expandersSilent = false;
      this.setLink(true);
    }
    const value = (bytes[0]! & 0xff) | ((bytes[1]! & 0xff) << 8);
    if (this.raw[chip] === value) return;
    this.raw[chip] = value;
    if (this.raw.some((v) => v === undefined)) return; // only complete snapshots
    this.cells = this.decode();
    this.emitSnapshot();
  }

  /** Reed switch closed pulls the pin low: 0 = a piece on the intersection. */
  private decode(): Cells {
    const squareOf = this.options.squareOfInput ?? linearWiring;
    const cells = new Array<string>(90).fill('.');
    this.raw.forEach((value, chip) => {
      for (let bit = 0; bit < 16; bit++) {
        const sq = squareOf(chip * 16 + bit);
        if (sq !== undefined && sq >= 0 && sq < 90 && (((value ?? 0xffff) >> bit) & 1) === 0) cells[sq] = 'x';
      }
    });
    return cells.join('');
  }

  /** Like the firmware: a heartbeat snapshot when none went out for `heartbeatMs`. */
  private armHeartbeat(): void {
    this.cancelHeartbeat?.();
    this.cancelHeartbeat = this.clock.setTimer(() => this.onHeartbeat(), this.options.heartbeatMs ?? 1000);
  }

  private onHeartbeat(): void {
    // Firmata keeps the port open when the I2C bus hangs: silence from the chips is a link down too.
    const quiet = this.clock.now() - this.lastReplyAt;
    const silentMs = (this.options.silentPeriods ?? 3) * (this.options.heartbeatMs ?? 1000);
    if (this.linkUp && quiet >= silentMs) {
      this.expandersSilent = true;
      this.setLink(false, `no data from the I2C expanders for ${quiet} ms`);
    }
    if (this.linkUp && this.cells !== undefined) this.emitSnapshot();
    else this.armHeartbeat();
  }

  private emitSnapshot(): void {
    if (this.cells === undefined) return;
    this.snapshots++;
    this.emit({ type: 'snapshot', t: this.clock.now(), cells: this.cells });
    if (this.linkUp) this.armHeartbeat();
  }

  private setLink(up: boolean, reason?: string): void {
    if (this.linkReported === up) return; // one event per change (and one for a start that fails)
    this.linkReported = up;
    this.linkUp = up;
    this.emit({ type: 'link', t: this.clock.now(), up, ...(reason !== undefined ? { reason } : {}) });
  }

  private emit(event: SensorEvent): void {
    this.listeners.emit(event);
  }
}
