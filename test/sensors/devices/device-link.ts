/**
 * The device end of a serial cable, for simulated boards. It wraps serialport's own MockBinding
 * (so the host runs the real `SerialPortStream` stack) and adds what the mock lacks: the device
 * hears every host write as it happens, and the cable can be unplugged (the pending read fails
 * the way a vanished tty does, and opens fail until it is plugged in again).
 */
import { SerialPortMock } from 'serialport';
import type { SerialBinding } from '../../../src/sensors/serial.js';

type MockPort = Awaited<ReturnType<typeof SerialPortMock.binding.open>>;
type BindingPortInterface = Awaited<ReturnType<SerialBinding['open']>>;
type OpenOptions = Parameters<SerialBinding['open']>[0];

/** What a simulated board does when the host opens the port, writes, or the port closes. */
export interface DeviceBehaviour {
  onOpen(): void;
  onHostData(data: Buffer): void;
  onClose(): void;
}

class DevicePort implements BindingPortInterface {
  private unplugError: Error | undefined;
  private rejectUnplugged: ((e: Error) => void) | undefined;
  private readonly unplugged: Promise<never>;

  constructor(
    readonly inner: MockPort,
    private readonly device: DeviceBehaviour,
    private readonly onClosed: (port: DevicePort) => void,
  ) {
    this.unplugged = new Promise<never>((_, reject) => {
      this.rejectUnplugged = reject;
    });
    this.unplugged.catch(() => {});
  }

  get openOptions() {
    return this.inner.openOptions;
  }
  get isOpen() {
    return this.inner.isOpen;
  }

  unplug(): void {
    this.unplugError = new Error('device unplugged (ENXIO)');
    this.rejectUnplugged?.(this.unplugError);
  }

  async close(): Promise<void> {
    this.onClosed(this);
    await this.inner.close();
    this.device.onClose();
  }
  async read(buffer: Buffer, offset: number, length: number) {
    if (this.unplugError) throw this.unplugError;
    return Promise.race([this.inner.read(buffer, offset, length), this.unplugged]);
  }
  async write(buffer: Buffer): Promise<void> {
    if (this.unplugError) throw this.unplugError;
    await this.inner.write(buffer);
    this.device.onHostData(Buffer.from(buffer));
  }
  update(o: Parameters<MockPort['update']>[0]) {
    return this.inner.update(o);
  }
  set(o: Parameters<MockPort['set']>[0]) {
    return this.inner.set(o);
  }
  get() {
    return this.inner.get();
  }
  getBaudRate() {
    return this.inner.getBaudRate();
  }
  flush() {
    return this.inner.flush();
  }
  drain() {
    return this.inner.drain();
  }
}

let nextPath = 0;

export class DeviceLink {
  /** Give this to the driver under test in place of the platform binding. */
  readonly binding: SerialBinding;
  readonly path: string;
  private plugged = true;
  private current: DevicePort | undefined;
  /** How many times the host opened the port. */
  opens = 0;

  constructor(
    private readonly device: DeviceBehaviour,
    name = 'device',
  ) {
    this.path = `/dev/sim-${name}-${process.pid}-${nextPath++}`;
    SerialPortMock.binding.createPort(this.path, { echo: false, record: false });
    this.binding = {
      list: () => SerialPortMock.binding.list(),
      open: async (options: OpenOptions) => {
        if (!this.plugged) throw new Error(`cannot open ${options.path}: no such device (ENOENT)`);
        const inner = await SerialPortMock.binding.open(options);
        const port = new DevicePort(inner, this.device, (p) => {
          if (this.current === p) this.current = undefined;
        });
        this.current = port;
        this.opens++;
        // Like a board that resets when DTR rises: its first bytes wait in the port for the host.
        this.device.onOpen();
        return port;
      },
    };
  }

  get isOpen(): boolean {
    return this.current?.isOpen ?? false;
  }

  /** Bytes from the device to the host; dropped (like on a real wire) when nobody has the port open. */
  send(data: Uint8Array | readonly number[]): void {
    const port = this.current;
    if (port?.isOpen) port.inner.emitData(Buffer.from(data as Uint8Array));
  }

  unplug(): void {
    this.plugged = false;
    this.current?.unplug();
  }

  plug(): void {
    this.plugged = true;
  }
}
