/**
 * Sensor link speed: snapshots parsed per second by the codec alone, and the time from the last
 * byte of a SNAPSHOT frame arriving at the port to the driver's `snapshot` event, through the real
 * serialport stream stack on the mock binding (the simulated firmware of the tests on the far end).
 */

import { boardDecoder, encodeBoardMessage, ProtocolParser } from '../src/sensors/protocol.js';
import { SerialSource } from '../src/sensors/serial.js';
import { ProtocolDevice } from '../test/sensors/devices/protocol-device.js';

function randomCells(seed: number): string {
  let x = seed * 2654435761;
  let s = '';
  for (let i = 0; i < 90; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    s += x & 0x10000 ? 'x' : '.';
  }
  return s;
}

function codecThroughput(): void {
  const frames = Array.from({ length: 1000 }, (_, i) =>
    encodeBoardMessage({ type: 'snapshot', reason: 'change', tMs: i, cells: randomCells(i) }, i),
  );
  const wire = Buffer.concat(frames);
  const parser = new ProtocolParser(boardDecoder(() => 'occupancy'));
  let snapshots = 0;
  const onItem = (item: { ok: boolean }) => {
    if (item.ok) snapshots++;
  };
  for (let i = 0; i < 20; i++) parser.parse(wire, onItem); // warm up
  snapshots = 0;
  const t0 = performance.now();
  let elapsed = 0;
  // fed in 64-byte reads, as a USB-serial adapter delivers them
  while (elapsed < 1000) {
    for (let at = 0; at < wire.length; at += 64) parser.parse(wire.subarray(at, at + 64), onItem);
    elapsed = performance.now() - t0;
  }
  const perSecond = (snapshots / elapsed) * 1000;
  const bytesPerSecond = (snapshots * (wire.length / frames.length) * 1000) / elapsed;
  console.log(
    `codec: ${Math.round(perSecond).toLocaleString('en')} snapshots/s parsed (${(bytesPerSecond / 1e6).toFixed(1)} MB/s of wire, ${(wire.length / frames.length).toFixed(0)} B/frame); errors ${Object.values(parser.errors).reduce((a, b) => a + b, 0)}`,
  );
}

const tick = () => new Promise((r) => setImmediate(r));

async function driverLatency(samples: number): Promise<void> {
  const device = new ProtocolDevice({});
  const source = new SerialSource({
    id: 'bench',
    path: device.link.path,
    binding: device.link.binding,
    sensing: 'occupancy',
    silentPeriods: 1e6,
  });
  let arrived: (() => void) | undefined;
  let at = 0;
  let expected = '';
  source.subscribe((e) => {
    if (e.type === 'snapshot' && arrived && e.cells === expected) {
      at = performance.now();
      arrived();
    }
  });
  await source.start();
  for (let i = 0; i < 20; i++) await tick(); // let the handshake's own snapshots pass
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    device.cells = expected = randomCells(i + 1);
    const frame = device.snapshotFrame();
    device.sendRaw(frame.subarray(0, -1));
    await tick(); // the frame's body is read; only its delimiter is missing
    const done = new Promise<void>((r) => {
      arrived = r;
    });
    const t0 = performance.now();
    device.sendRaw(frame.subarray(-1));
    await done;
    latencies.push(at - t0);
  }
  arrived = undefined;
  await source.stop();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  console.log(
    `serial driver (mock binding): last byte → snapshot event over ${samples} frames: p50 ${(pct(50) * 1000).toFixed(0)} µs, p99 ${(pct(99) * 1000).toFixed(0)} µs, max ${(latencies[latencies.length - 1]! * 1000).toFixed(0)} µs`,
  );
}

export async function benchSensors(): Promise<void> {
  codecThroughput();
  await driverLatency(2000);
}
