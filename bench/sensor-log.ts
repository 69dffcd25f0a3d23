/** Sensor-log reading and writing speed, and replay throughput (frames/s through a ReplaySource). */
import { readFileSync } from 'node:fs';
import { ReplaySource } from '../src/sensors/replay.js';
import { makeSensorLog, parseSensorLog, type SensorLogEvent } from '../src/sensors/sensor-log.js';

const LOGS = ['example-occupancy', 'example-occupancy-2', 'example-colour-buttons'];

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const v = fn();
  return [v, performance.now() - t];
}

export async function benchSensorLog(): Promise<void> {
  for (const name of LOGS) {
    const text = readFileSync(
      new URL(`../../shared/data/sensor-logs/${name}.jsonl`, import.meta.url),
      'utf8',
    );
    const one = parseSensorLog(text);
    if (!one.ok) throw new Error(one.error.message);
    // The log repeated with shifted times: a long game's worth of lines.
    const last = one.value.events.at(-1)?.t ?? 0;
    const events: SensorLogEvent[] = [];
    for (let k = 0; k < 200; k++)
      for (const e of one.value.events) events.push({ ...e, t: e.t + k * (last + 1) });
    const big = makeSensorLog(one.value.header, events);
    parseSensorLog(big); // warm-up
    const [parsed, readMs] = timed(() => parseSensorLog(big));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [, writeMs] = timed(() => makeSensorLog(one.value.header, events));
    const source = new ReplaySource({ log: parsed.value });
    let n = 0;
    source.subscribe(() => n++);
    const [, replayMs] = timed(() => void source.start());
    const lines = parsed.value.lines;
    const rate = (count: number, ms: number) => `${((count / ms) * 1000).toFixed(0).padStart(9)}/s`;
    console.log(
      `${name.padEnd(24)} ${String(lines).padStart(6)} lines  read ${rate(lines, readMs)}  write ${rate(lines, writeMs)}  replay ${rate(n, replayMs)} events`,
    );
  }
}
