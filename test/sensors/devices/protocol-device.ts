/**
 * A simulated xqboard firmware: the board side of firmware-bridge/PROTOCOL.md on the device side
 * of a mock serial port. Opening the port resets it (DTR auto-reset: 0x00, INFO, SNAPSHOT boot);
 * it answers HELLO / PING / GET_SNAPSHOT / SET_SCAN_RATE / LED_FRAME, sends a SNAPSHOT on every
 * change the test makes, and BUTTON frames. Time is the test's: heartbeats go out when asked.
 */
import {
  type BoardMessage,
  type Command,
  decodeCommand,
  encodeBoardMessage,
  FrameType,
  ProtocolParser,
  type Sequenced,
  type SnapshotReason,
} from '../../../src/sensors/protocol.js';
import { type Cells, EMPTY_CELLS, type Sensing } from '../../../src/sensors/snapshot.js';
import { DeviceLink } from './device-link.js';

export interface ProtocolDeviceOptions {
  sensing?: Sensing;
  boardId?: string;
  heartbeatMs?: number;
  cells?: Cells;
  leds?: boolean;
  /** Protocol version announced in INFO. */
  proto?: number;
  /** Opening the port resets the board (DTR auto-reset, the Mega's default); false: it keeps running. */
  resetOnOpen?: boolean;
}

export class ProtocolDevice {
  readonly link: DeviceLink;
  readonly commands: Sequenced<Command>[] = [];
  readonly parser = new ProtocolParser(decodeCommand);
  cells: Cells;
  /** A hung board: hears nothing and says nothing, though the port stays open. */
  mute = false;
  /** Bytes the host wrote, heard or not. */
  heard = 0;
  private seq = 0;
  private uptime = 0;
  private readonly presses = { red: 0, black: 0 };

  /** Another firmware flashed (or another board plugged in): the next INFO says this version. */
  set proto(version: number) {
    this.options.proto = version;
  }

  constructor(private readonly options: ProtocolDeviceOptions = {}) {
    this.cells = options.cells ?? EMPTY_CELLS;
    this.link = new DeviceLink(
      {
        onOpen: () => {
          this.parser.reset();
          if (options.resetOnOpen ?? true) this.boot();
        },
        onHostData: (d) => this.receive(d),
        onClose: () => {},
      },
      'xqboard',
    );
  }

  /** The pieces change (a debounced change on the real board): a SNAPSHOT reason change. */
  setCells(cells: Cells): void {
    if (cells === this.cells) return;
    this.cells = cells;
    this.sendSnapshot('change');
  }

  setCell(sq: number, c: string): void {
    this.setCells(this.cells.slice(0, sq) + c + this.cells.slice(sq + 1));
  }

  press(side: 'red' | 'black'): void {
    this.presses[side] = (this.presses[side] + 1) & 0xff;
    this.send({ type: 'button', side, presses: this.presses[side], tMs: this.uptime });
  }

  /** A press whose BUTTON frame is lost on the wire (numbered, counted, never delivered). */
  pressLost(side: 'red' | 'black'): void {
    this.presses[side] = (this.presses[side] + 1) & 0xff;
    this.loseFrames(1);
  }

  heartbeat(): void {
    this.sendSnapshot('heartbeat');
  }

  /** Frames "lost on the wire": the board numbers them but they never arrive. */
  loseFrames(n: number): void {
    this.seq = (this.seq + n) & 0xffff;
  }

  /** The wire bytes of the next frame, numbered, without sending them (for tests and benches). */
  frame(message: BoardMessage): Uint8Array {
    const bytes = encodeBoardMessage(message, this.seq);
    this.seq = (this.seq + 1) & 0xffff;
    return bytes;
  }

  snapshotFrame(reason: SnapshotReason = 'change'): Uint8Array {
    return this.frame({ type: 'snapshot', reason, tMs: this.uptime, cells: this.cells });
  }

  sendRaw(bytes: Uint8Array | readonly number[]): void {
    if (!this.mute) this.link.send(bytes);
  }

  private send(message: BoardMessage): void {
    this.sendRaw(this.frame(message));
  }

  private sendSnapshot(reason: SnapshotReason): void {
    this.uptime += 1;
    this.send({ type: 'snapshot', reason, tMs: this.uptime, cells: this.cells });
  }

  private info(): BoardMessage {
    return {
      type: 'info',
      proto: this.options.proto ?? 1,
      sensing: this.options.sensing ?? 'occupancy',
      firmware: [1, 0, 0],
      scanHz: 200,
      heartbeatMs: this.options.heartbeatMs ?? 1000,
      debounce: 3,
      leds: this.options.leds ?? false,
      buttons: true,
      boardId: this.options.boardId ?? 'sim-1',
    };
  }

  private boot(): void {
    this.seq = 0;
    this.sendRaw([0]);
    this.send(this.info());
    this.sendSnapshot('boot');
  }

  private receive(data: Buffer): void {
    this.heard += data.length;
    if (this.mute) return;
    this.parser.parse(data, (item) => {
      if (!item.ok) return;
      const command = item.value;
      this.commands.push(command);
      switch (command.type) {
        case 'hello':
          this.send(this.info());
          this.sendSnapshot('requested');
          break;
        case 'get_snapshot':
          this.sendSnapshot('requested');
          break;
        case 'ping':
          this.send({ type: 'pong', echo: command.seq, tMs: this.uptime, scans: 0, rxBad: 0, txDeferred: 0 });
          break;
        case 'set_scan_rate':
          this.send({ type: 'ack', echo: command.seq, command: FrameType.SET_SCAN_RATE, status: 'ok' });
          break;
        case 'led_frame':
          this.send({
            type: 'ack',
            echo: command.seq,
            command: FrameType.LED_FRAME,
            status: this.options.leds ? 'ok' : 'unsupported',
          });
          break;
      }
    });
  }
}
