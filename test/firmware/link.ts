/**
 * The controller side of a simulated board's link: the harness's pty opened with serialport 13,
 * decoded with src/sensors/protocol.ts. Shared by the simavr test files.
 */
import { SerialPort } from 'serialport';
import {
  type BoardMessage,
  boardDecoder,
  type Command,
  encodeCommand,
  ProtocolParser,
  type Sequenced,
} from '../../src/sensors/protocol.js';
import type { Sensing } from '../../src/sensors/snapshot.js';

export type Msg = Sequenced<BoardMessage>;
export type MsgOf<T extends Msg['type']> = Extract<Msg, { type: T }>;

export const noErrorsAtAll = {
  garbage: 0,
  bad_cobs: 0,
  bad_length: 0,
  bad_crc: 0,
  bad_value: 0,
  unknown_type: 0,
};

/** The controller side of the link: the pty through serialport and the protocol parser. */
export class Link {
  readonly messages: Msg[] = [];
  readonly parser: ProtocolParser<BoardMessage>;
  private seq = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly port: SerialPort,
    sensing: Sensing,
  ) {
    this.parser = new ProtocolParser(boardDecoder(() => sensing));
    port.on('data', (bytes: Buffer) =>
      this.parser.parse(bytes, (item) => {
        if (item.ok) this.messages.push(item.value);
        for (const w of this.waiters.splice(0)) w();
      }),
    );
  }

  static async open(path: string, sensing: Sensing): Promise<Link> {
    const port = new SerialPort({ path, baudRate: 115200, autoOpen: false });
    await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(e) : resolve())));
    return new Link(port, sensing);
  }

  mark(): number {
    return this.messages.length;
  }

  /** The first message of `type` at index >= `from` that matches; 10 s to show up. */
  async next<T extends Msg['type']>(
    type: T,
    from: number,
    match: (m: MsgOf<T>) => boolean = () => true,
  ): Promise<MsgOf<T>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.messages
        .slice(from)
        .find((m): m is MsgOf<T> => m.type === type && match(m as MsgOf<T>));
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`no ${type} from the firmware; got ${JSON.stringify(this.messages.slice(from))}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Sends a command (after a 0x00, as PROTOCOL.md asks of a sender) and returns its seq. */
  send(command: Command): number {
    const seq = ++this.seq;
    this.port.write(Buffer.concat([Buffer.from([0]), encodeCommand(command, seq)]));
    return seq;
  }

  async ping(): Promise<MsgOf<'pong'>> {
    const from = this.mark();
    const echo = this.send({ type: 'ping' });
    return this.next('pong', from, (p) => p.echo === echo);
  }

  write(bytes: Uint8Array): void {
    this.port.write(Buffer.from(bytes));
  }

  async close(): Promise<void> {
    if (this.port.isOpen) await new Promise<void>((resolve) => this.port.close(() => resolve()));
  }
}
