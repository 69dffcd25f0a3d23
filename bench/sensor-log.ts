/**
 * Sensor-log reading and writing speed, and replay throughput: the log's events through a
 * ReplaySource into a move reader (the machine, its judgement and the game), as `xqboard replay` does.
 */
import { readFileSync } from 'node:fs';
import { ReplaySource } from '../src/sensors/replay.js';
import { makeSensorLog, parseSensorLog, type SensorLogEvent } from '../src/sensors/sensor-log.js';
import type { SensorEvent } from '../src/sensors/source.js';
import { runSensorEvents } from '../src/tracker/run.js';

const LOGS = ['example-occupancy', 'example-occupancy-2', 'example-colour-buttons'];
/** Each log (one game) replayed this many times, each time into a fresh game and move reader. */
const REPLAYS = 200;

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
    let n = 0;
    const [, replayMs] = timed(() => {
      for (let k = 0; k < REPLAYS; k++) {
        const source = new ReplaySource({ log: one.value });
        const events: SensorEvent[] = [];
        source.subscribe((e) => events.push(e));
        void source.start();
        const run = runSensorEvents(one.value.header.fen, events, { sensing: one.value.header.sensing });
        if (!run.ok) throw new Error(run.error.message);
        n += events.length;
      }
    });
    const lines = parsed.value.lines;
    const rate = (count: number, ms: number) => `${((count / ms) * 1000).toFixed(0).padStart(9)}/s`;
    console.log(
      `${name.padEnd(24)} ${String(lines).padStart(6)} lines  read ${rate(lines, readMs)}  write ${rate(lines, writeMs)}  replay ${rate(n, replayMs)} events into a move reader`,
    );
  }
}
