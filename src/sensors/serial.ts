/**
 * A board running our firmware, over a serial port (firmware-bridge/PROTOCOL.md).
 *
 * Lifecycle of one connection: open → 0x00 + HELLO (repeated every 500 ms: the board may be in its
 * bootloader after the DTR reset) → INFO (handshake: protocol and sensing kind checked) → link up
 * and the full snapshot that answers HELLO → snapshots, buttons, heartbeats. The link is down when
 * the port closes or errors, when the handshake times out, or when no valid frame came for
 * `silentPeriods` heartbeats; then the port is closed and reopened after an exponential backoff
 * (capped). A board that answers with another protocol version or sensing kind is such a fault
 * too: the reason is reported, and the port is tried again (the right board may be plugged in).
 * Every reconnect sends HELLO, so the first snapshot after it is the board as it is now: whatever
 * happened while unplugged is in it.
 */
import type { SerialPortStream } from '@serialport/stream';
import { SerialPort } from 'serialport';
import { type Clock, systemClock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import {
  BAUD_RATE,
  type BoardMessage,
  boardDecoder,
  type Command,
  type ErrorCounts,
  encodeCommand,
  type InfoMessage,
  PROTOCOL_VERSION,
  ProtocolParser,
  type Sequenced,
} from './protocol.js';
import type { Sensing } from './snapshot.js';
import type { SensorEvent, SensorListener, SensorSource, SourceHealth } from './source.js';

/** A serialport binding (the platform's, or `SerialPortMock.binding` and wrappers of it in tests). */
export type SerialBinding = ConstructorParameters<typeof SerialPortStream>[0]['binding'];

/** Opens `path` with the given binding, or the platform's. No I/O until `open()`. */
export function createPort(path: string, baudRate: number, binding: SerialBinding | undefined): SerialPort {
  // SerialPort's options type omits `binding`, but its constructor takes one over the platform's.
  const options = { path, baudRate, autoOpen: false, ...(binding ? { binding } : {}) };
  return new SerialPort(options as ConstructorParameters<typeof SerialPort>[0]);
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export interface SerialSourceOptions {
  id: string;
  path: string;
  /** What the configuration says the board senses; the board's INFO must agree. */
  sensing: Sensing;
  baudRate?: number;
  /** serialport binding; tests pass `SerialPortMock.binding` (or a wrapper of it). */
  binding?: SerialBinding;
  clock?: Clock;
  helloIntervalMs?: number;
  handshakeTimeoutMs?: number;
  backoff?: Partial<BackoffOptions>;
  /** Heartbeat periods without a valid frame after which the link counts as down. */
  silentPeriods?: number;
}

export interface SerialHealth extends SourceHealth {
  /** Dropped frames by code (unknown types are counted here but not in badFrames). */
  readonly errors: Readonly<ErrorCounts>;
  /** Times the board's sequence number jumped, and the frames those jumps skipped. */
  readonly sequenceGaps: number;
  readonly lostFrames: number;
  /** Button presses the board counted that never arrived. */
  readonly lostPresses: number;
  readonly openAttempts: number;
  readonly board: InfoMessage | undefined;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 10_000, factor: 2 };

export class SerialSource implements SensorSource {
  readonly id: string;
  readonly sensing: Sensing;
  private readonly options: SerialSourceOptions;
  private readonly clock: Clock;
  private readonly backoff: BackoffOptions;
  private readonly listeners = new Listeners<SensorEvent>();
  private readonly parser: ProtocolParser<BoardMessage>;

  private running = false;
  /** Bumped whenever a connection is torn down, so its late callbacks are ignored. */
  private generation = 0;
  private port: SerialPort | undefined;
  private timers: (() => void)[] = [];
  private cancelWatchdog: (() => void) | undefined;
  private board: InfoMessage | undefined;
  private handshaken = false;
  private lastFrameAt = 0;
  private lastSeq: number | undefined;
  /** When the last snapshot came, and (after a sequence gap) the one before the lost frames. */
  private lastSnapshotAt: number | undefined;
  private gapSince: number | undefined;
  private lastPresses: Record<'red' | 'black', number | undefined> = { red: undefined, black: undefined };
  private commandSeq = 0;
  private failures = 0;
  private linkReported: boolean | undefined;
  private reasonReported: string | undefined;
  private firstOutcome: (() => void) | undefined;

  private counts = {
    snapshots: 0,
    reconnects: 0,
    handshakes: 0,
    sequenceGaps: 0,
    lostFrames: 0,
    lostPresses: 0,
    openAttempts: 0,
  };

  constructor(options: SerialSourceOptions) {
    this.options = options;
    this.id = options.id;
    this.sensing = options.sensing;
    this.clock = options.clock ?? systemClock;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.parser = new ProtocolParser(boardDecoder(() => this.sensing));
  }

  subscribe(listener: SensorListener): () => void {
    return this.listeners.add(listener);
  }

  health(): SerialHealth {
    const { unknown_type: _, ...bad } = this.parser.errors;
    return {
      badFrames: Object.values(bad).reduce((a, b) => a + b, 0),
      snapshots: this.counts.snapshots,
      reconnects: this.counts.reconnects,
      linkUp: this.linkReported === true,
      errors: { ...this.parser.errors },
      sequenceGaps: this.counts.sequenceGaps,
      lostFrames: this.counts.lostFrames,
      lostPresses: this.counts.lostPresses,
      openAttempts: this.counts.openAttempts,
      board: this.board,
    };
  }

  /** Starts connecting; resolves at the first link event (up, or down with the reason). */
  start(): Promise<void> {
    if (this.running) return Promise.resolve();
    this.running = true;
    this.failures = 0;
    const outcome = new Promise<void>((resolve) => {
      this.firstOutcome = resolve;
    });
    this.connect();
    return outcome;
  }

  async stop(): Promise<void> {
    this.running = false;
    const port = this.teardown();
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
    this.setLink(false, 'stopped');
  }

  /** Sends a command and returns its seq; undefined when there is no handshaken link to send it on. */
  send(command: Command): number | undefined {
    if (!this.port || !this.handshaken) return undefined;
    return this.write(command);
  }

  // ─── connection ──────────────────────────────────────────────────────────────────────────────

  private connect(): void {
    if (!this.running) return;
    const gen = ++this.generation;
    this.counts.openAttempts++;
    this.handshaken = false;
    this.lastSeq = undefined;
    this.lastPresses = { red: undefined, black: undefined };
    this.parser.reset();
    let port: SerialPort;
    try {
      port = createPort(this.options.path, this.options.baudRate ?? BAUD_RATE, this.options.binding);
    } catch (e) {
      this.lost(`cannot open ${this.options.path}: ${(e as Error).message}`);
      return;
    }
    this.port = port;
    port.on('data', (data: Buffer) => {
      if (gen === this.generation) this.onData(data);
    });
    port.on('error', (e: Error) => {
      if (gen === this.generation) this.lost(`serial error on ${this.options.path}: ${e.message}`);
    });
    port.on('close', (e: (Error & { disconnected?: boolean }) | null) => {
      if (gen !== this.generation) return;
      this.lost(
        e?.disconnected ? `${this.options.path} disconnected: ${e.message}` : `${this.options.path} closed`,
      );
    });
    port.open((e) => {
      if (gen !== this.generation) return;
      if (e) {
        this.lost(
          e.message.includes(this.options.path)
            ? e.message
            : `cannot open ${this.options.path}: ${e.message}`,
        );
        return;
      }
      port.write(Uint8Array.of(0)); // the other side drops any partial frame it holds
      this.write({ type: 'hello' });
      this.repeatHello(gen);
      this.later(() => {
        if (gen === this.generation && !this.handshaken) {
          this.lost(`no INFO from the board within ${this.options.handshakeTimeoutMs ?? 10_000} ms`);
        }
      }, this.options.handshakeTimeoutMs ?? 10_000);
    });
  }

  private repeatHello(gen: number): void {
    this.later(() => {
      if (gen !== this.generation || this.handshaken) return;
      this.write({ type: 'hello' });
      this.repeatHello(gen);
    }, this.options.helloIntervalMs ?? 500);
  }

  /** This connection is over: close it, say why, and try again later unless stopped. */
  private lost(reason: string): void {
    const port = this.teardown();
    if (port?.isOpen) port.close();
    this.setLink(false, reason);
    if (!this.running) return;
    const delay = Math.min(this.backoff.maxMs, this.backoff.initialMs * this.backoff.factor ** this.failures);
    this.failures++;
    this.later(() => this.connect(), delay);
  }

  private teardown(): SerialPort | undefined {
    this.generation++;
    for (const cancel of this.timers) cancel();
    this.timers = [];
    this.cancelWatchdog?.();
    this.cancelWatchdog = undefined;
    this.handshaken = false;
    const port = this.port;
    this.port = undefined;
    return port;
  }

  private later(fn: () => void, ms: number): void {
    this.timers.push(this.clock.setTimer(fn, ms));
  }

  private write(command: Command): number {
    const seq = this.commandSeq;
    this.commandSeq = (seq + 1) & 0xffff;
    this.port?.write(encodeCommand(command, seq));
    return seq;
  }

  // ─── incoming ────────────────────────────────────────────────────────────────────────────────

  private onData(data: Buffer): void {
    this.parser.parse(data, (item) => {
      if (!item.ok) return; // counted by the parser; never an event
      this.lastFrameAt = this.clock.now();
      if (item.value.type === 'info' && item.value.seq === 0) this.lastSeq = undefined; // a board reset
      this.checkSequence(item.value.seq);
      this.onMessage(item.value);
    });
  }

  private checkSequence(seq: number): void {
    if (this.lastSeq !== undefined) {
      const skipped = (seq - this.lastSeq - 1) & 0xffff;
      if (skipped !== 0) {
        this.counts.sequenceGaps++;
        this.counts.lostFrames += skipped;
        // (The next snapshot says what changed may have changed since the last one seen.)
        this.gapSince ??= this.lastSnapshotAt;
        // A lost frame may have held a change: the whole state now, not at the next heartbeat.
        if (this.handshaken) this.write({ type: 'get_snapshot' });
      }
    }
    this.lastSeq = seq;
  }

  private onMessage(message: Sequenced<BoardMessage>): void {
    switch (message.type) {
      case 'info':
        this.onInfo(message);
        return;
      case 'snapshot':
        if (!this.handshaken) return; // sensing not confirmed yet; HELLO's reply brings a fresh one
        this.counts.snapshots++;
        {
          const t = this.clock.now();
          const since = this.gapSince;
          this.gapSince = undefined;
          this.lastSnapshotAt = t;
          this.emit({ type: 'snapshot', t, cells: message.cells, ...(since !== undefined ? { since } : {}) });
        }
        return;
      case 'button': {
        if (!this.handshaken) return;
        const last = this.lastPresses[message.side];
        if (last !== undefined) this.counts.lostPresses += Math.max(0, ((message.presses - last) & 0xff) - 1);
        this.lastPresses[message.side] = message.presses;
        this.emit({ type: 'button', t: this.clock.now(), side: message.side });
        return;
      }
      default:
        return; // PONG and ACK only refresh the watchdog
    }
  }

  private onInfo(info: Sequenced<InfoMessage>): void {
    const { seq: _, ...board } = info;
    this.board = board;
    // Not a board to read (another firmware, the wrong board plugged in): a fault like any other.
    const refused =
      info.proto !== PROTOCOL_VERSION
        ? `board speaks protocol ${info.proto}; this controller speaks ${PROTOCOL_VERSION}`
        : info.sensing !== this.sensing
          ? `board senses ${info.sensing} but ${this.id} is configured for ${this.sensing}`
          : undefined;
    if (refused) {
      this.lost(refused);
      return;
    }
    if (this.handshaken) return; // an INFO after a board reset: the link stays up
    this.handshaken = true;
    this.counts.handshakes++;
    if (this.counts.handshakes > 1) this.counts.reconnects++;
    this.failures = 0;
    for (const cancel of this.timers) cancel(); // HELLO repeats and the handshake timeout
    this.timers = [];
    this.armWatchdog(this.generation);
    this.setLink(true);
  }

  /** The link is down after `silentPeriods` heartbeats without a valid frame. */
  private armWatchdog(gen: number): void {
    const silentMs = (this.options.silentPeriods ?? 3) * (this.board?.heartbeatMs || 1000);
    const check = () => {
      if (gen !== this.generation) return;
      const quiet = this.clock.now() - this.lastFrameAt;
      if (quiet >= silentMs) this.lost(`no frame from the board for ${quiet} ms`);
      else this.cancelWatchdog = this.clock.setTimer(check, silentMs - quiet);
    };
    this.cancelWatchdog = this.clock.setTimer(check, silentMs);
  }

  /** A change of the link is reported, and so is a new reason for a link that stays down. */
  private setLink(up: boolean, reason?: string): void {
    if (this.linkReported === up && (up || reason === this.reasonReported)) return;
    this.linkReported = up;
    this.reasonReported = up ? undefined : reason;
    this.emit({ type: 'link', t: this.clock.now(), up, ...(reason !== undefined ? { reason } : {}) });
    this.firstOutcome?.();
    this.firstOutcome = undefined;
  }

  private emit(event: SensorEvent): void {
    this.listeners.emit(event);
  }
}
