/**
 * A simulated Arduino running StandardFirmata with MCP23017 expanders on its I2C bus, on the device
 * side of a mock serial port. It speaks the Firmata wire protocol to the real `firmata-io`:
 * version and firmware on open, capability and analog-mapping answers, pin modes, digital reports,
 * and I2C writes / continuous reads answered with I2C_REPLY every sampling interval.
 *
 * The expander model is the part of the MCP23017 datasheet the driver relies on: IODIR (0x00/0x01,
 * reset 0xFF = inputs), GPPU (0x0C/0x0D, reset 0 = no pull-ups), GPIO (0x12/0x13) with sequential
 * addressing. A reed switch pulls its pin to ground when a magnet is on it; an open input without
 * the pull-up floats, which this model reads as 0 (so a driver that forgets GPPU sees a full board).
 */
import { DeviceLink } from './device-link.js';

const REPORT_VERSION = 0xf9;
const START_SYSEX = 0xf0;
const END_SYSEX = 0xf7;
const QUERY_FIRMWARE = 0x79;
const CAPABILITY_QUERY = 0x6b;
const CAPABILITY_RESPONSE = 0x6c;
const ANALOG_MAPPING_QUERY = 0x69;
const ANALOG_MAPPING_RESPONSE = 0x6a;
const I2C_REQUEST = 0x76;
const I2C_REPLY = 0x77;
const I2C_CONFIG = 0x78;
const SAMPLING_INTERVAL = 0x7a;
const PIN_MODE = 0xf4;
const SET_DIGITAL_PIN = 0xf5;
const DIGITAL_MESSAGE = 0x90;
const REPORT_DIGITAL = 0xd0;
const REPORT_ANALOG = 0xc0;
const MODE_INPUT = 0;
const MODE_PULLUP = 0x0b;

const PIN_COUNT = 20; // an Uno-like pin map: 0–1 serial, 2–13 digital, 14–19 analog (18/19 SDA/SCL)

interface Expander {
  regs: Uint8Array;
  /** Bit set = contact closed (magnet present), pin pulled to ground. */
  closed: number;
}

interface ContinuousRead {
  address: number;
  register: number;
  length: number;
}

export interface FirmataDeviceOptions {
  addresses?: readonly number[];
  /** Continuous-read period, ms (StandardFirmata's default is 19). */
  samplingMs?: number;
}

export class FirmataDevice {
  readonly link: DeviceLink;
  readonly expanders = new Map<number, Expander>();
  private readonly reads: ContinuousRead[] = [];
  private readonly pinModes = new Array<number>(PIN_COUNT).fill(-1);
  private readonly latch = new Array<boolean>(PIN_COUNT).fill(false);
  private readonly pressed = new Array<boolean>(PIN_COUNT).fill(false);
  private readonly reportedPorts = new Set<number>();
  private rx: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private samplingMs: number;
  /** I2C requests seen, for tests that check how the driver talks to the chips. */
  readonly i2cLog: { address: number; mode: number; data: number[] }[] = [];

  constructor(options: FirmataDeviceOptions = {}) {
    for (const address of options.addresses ?? [0x20, 0x21, 0x22, 0x23, 0x24, 0x25]) {
      const regs = new Uint8Array(0x16);
      regs[0x00] = 0xff;
      regs[0x01] = 0xff;
      this.expanders.set(address, { regs, closed: 0 });
    }
    this.samplingMs = options.samplingMs ?? 19;
    this.link = new DeviceLink(
      {
        onOpen: () => this.boot(),
        onHostData: (d) => this.receive(d),
        onClose: () => this.halt(),
      },
      'firmata',
    );
  }

  /** Puts a magnet on (or takes it off) input `bit` (0–7 GPA, 8–15 GPB) of the chip at `address`. */
  setContact(address: number, bit: number, closed: boolean): void {
    const chip = this.expanders.get(address);
    if (!chip) throw new Error(`no expander at 0x${address.toString(16)}`);
    chip.closed = closed ? chip.closed | (1 << bit) : chip.closed & ~(1 << bit);
  }

  /** Presses or releases a push button wired from a plain pin to ground. */
  setButton(pin: number, down: boolean): void {
    this.pressed[pin] = down;
    this.reportPort(pin >> 3);
  }

  stop(): void {
    this.halt();
  }

  /** A hung I2C bus: continuous reads stop answering (the serial link stays up). */
  hangBus(): void {
    this.halt();
  }

  releaseBus(): void {
    this.timer ??= setInterval(() => this.sample(), this.samplingMs);
  }

  private boot(): void {
    this.rx = [];
    this.reads.length = 0;
    this.reportedPorts.clear();
    this.link.send([REPORT_VERSION, 2, 5]);
    this.sendFirmware();
  }

  private halt(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private sendFirmware(): void {
    const name = [...Buffer.from('StandardFirmata.ino')].flatMap((b) => [b & 0x7f, b >> 7]);
    this.link.send([START_SYSEX, QUERY_FIRMWARE, 2, 5, ...name, END_SYSEX]);
  }

  private receive(data: Buffer): void {
    for (const byte of data) {
      if (this.rx.length === 0 && byte < 0x80) continue; // stray data byte
      if (byte >= 0x80 && this.rx[0] !== START_SYSEX) this.rx = [];
      this.rx.push(byte);
      this.tryMessage();
    }
  }

  private tryMessage(): void {
    const rx = this.rx;
    const first = rx[0]!;
    if (first === START_SYSEX) {
      if (rx[rx.length - 1] !== END_SYSEX) return;
      this.sysex(rx.slice(1, -1));
    } else if (first === REPORT_VERSION) {
      this.link.send([REPORT_VERSION, 2, 5]);
    } else if (first === PIN_MODE || first === SET_DIGITAL_PIN || (first & 0xf0) === DIGITAL_MESSAGE) {
      if (rx.length < 3) return;
      this.threeByte(first, rx[1]!, rx[2]!);
    } else if ((first & 0xf0) === REPORT_DIGITAL || (first & 0xf0) === REPORT_ANALOG) {
      if (rx.length < 2) return;
      if ((first & 0xf0) === REPORT_DIGITAL) {
        const port = first & 0x0f;
        if (rx[1]) this.reportedPorts.add(port);
        else this.reportedPorts.delete(port);
        if (rx[1]) this.reportPort(port);
      }
    }
    this.rx = [];
  }

  private threeByte(first: number, a: number, b: number): void {
    if (first === PIN_MODE) {
      this.pinModes[a] = b;
    } else if (first === SET_DIGITAL_PIN) {
      this.latch[a] = b !== 0;
    } else {
      const port = first & 0x0f;
      const bits = a | (b << 7);
      for (let i = 0; i < 8; i++) {
        const pin = port * 8 + i;
        if (pin < PIN_COUNT) this.latch[pin] = ((bits >> i) & 1) === 1;
      }
      this.reportPort(port);
    }
  }

  private sysex(body: number[]): void {
    const command = body[0];
    if (command === QUERY_FIRMWARE) this.sendFirmware();
    else if (command === CAPABILITY_QUERY) this.sendCapabilities();
    else if (command === ANALOG_MAPPING_QUERY) {
      const map = Array.from({ length: PIN_COUNT }, (_, pin) => (pin >= 14 ? pin - 14 : 127));
      this.link.send([START_SYSEX, ANALOG_MAPPING_RESPONSE, ...map, END_SYSEX]);
    } else if (command === SAMPLING_INTERVAL) {
      this.samplingMs = Math.max(1, (body[1] ?? 19) | ((body[2] ?? 0) << 7));
    } else if (command === I2C_CONFIG) {
      // nothing to configure on a simulated bus
    } else if (command === I2C_REQUEST) {
      this.i2cRequest(body);
    }
  }

  private sendCapabilities(): void {
    const out = [START_SYSEX, CAPABILITY_RESPONSE];
    for (let pin = 0; pin < PIN_COUNT; pin++) {
      if (pin >= 2) out.push(0, 1, 1, 1, MODE_PULLUP, 1); // INPUT, OUTPUT, PULLUP
      if (pin >= 14) out.push(2, 10); // ANALOG
      if (pin === 18 || pin === 19) out.push(6, 1); // I2C
      out.push(0x7f);
    }
    out.push(END_SYSEX);
    this.link.send(out);
  }

  private i2cRequest(body: number[]): void {
    const address = body[1]!;
    const mode = (body[2]! >> 3) & 0x03;
    const data: number[] = [];
    for (let i = 3; i + 1 < body.length; i += 2) data.push(body[i]! | (body[i + 1]! << 7));
    this.i2cLog.push({ address, mode, data });
    const chip = this.expanders.get(address);
    if (mode === 0) {
      // write: register, then bytes to consecutive registers
      if (!chip || data.length === 0) return;
      let reg = data[0]!;
      for (const value of data.slice(1)) chip.regs[reg++ % chip.regs.length] = value;
    } else if (mode === 1 || mode === 2) {
      const [register, length] = data.length >= 2 ? [data[0]!, data[1]!] : [0, data[0] ?? 0];
      const read = { address, register, length };
      if (mode === 1) this.reply(read);
      else {
        this.reads.push(read);
        this.timer ??= setInterval(() => this.sample(), this.samplingMs);
      }
    } else {
      for (let i = this.reads.length - 1; i >= 0; i--)
        if (this.reads[i]!.address === address) this.reads.splice(i, 1);
    }
  }

  private sample(): void {
    for (const read of this.reads) this.reply(read);
  }

  private reply({ address, register, length }: ContinuousRead): void {
    const chip = this.expanders.get(address);
    if (!chip) return; // nobody answers: StandardFirmata sends nothing back for a NACK
    const bytes: number[] = [];
    for (let i = 0; i < length; i++) bytes.push(this.readRegister(chip, register + i));
    this.link.send([
      START_SYSEX,
      I2C_REPLY,
      address & 0x7f,
      address >> 7,
      register & 0x7f,
      register >> 7,
      ...bytes.flatMap((b) => [b & 0x7f, b >> 7]),
      END_SYSEX,
    ]);
  }

  private readRegister(chip: Expander, register: number): number {
    if (register !== 0x12 && register !== 0x13) return chip.regs[register] ?? 0;
    const shift = register === 0x12 ? 0 : 8;
    const iodir = chip.regs[register - 0x12]!;
    const pullup = chip.regs[register - 0x12 + 0x0c]!;
    const closed = (chip.closed >> shift) & 0xff;
    // Inputs: closed contact reads 0; open contact reads 1 only with the pull-up on.
    return iodir & ~closed & pullup & 0xff;
  }

  private reportPort(port: number): void {
    if (!this.reportedPorts.has(port)) return;
    let bits = 0;
    for (let i = 0; i < 8; i++) {
      const pin = port * 8 + i;
      if (pin >= PIN_COUNT) break;
      const mode = this.pinModes[pin];
      if (mode !== MODE_INPUT && mode !== MODE_PULLUP) continue;
      const pulledUp = mode === MODE_PULLUP || this.latch[pin];
      const level = this.pressed[pin] ? 0 : pulledUp ? 1 : 0;
      bits |= level << i;
    }
    this.link.send([DIGITAL_MESSAGE | port, bits & 0x7f, bits >> 7]);
  }
}
