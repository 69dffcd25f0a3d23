import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asFastAsPossible, ReplaySource, readSensorLogFile, realTime } from '../../src/sensors/replay.js';
import { parseSensorLog, type SensorLog } from '../../src/sensors/sensor-log.js';
import { EMPTY_CELLS, makeOcc } from '../../src/sensors/snapshot.js';
import type { SensorEvent } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';
import { scratchDir } from '../helpers/scratch.js';
import { sharedPath } from '../helpers/shared.js';

const EMPTY_OCC = makeOcc(EMPTY_CELLS);

function logOf(lines: string[]): SensorLog {
  const log = parseSensorLog(lines.join('\n'));
  if (!log.ok) throw new Error(log.error.message);
  return log.value;
}

const SMALL = logOf([
  '{"type":"header","version":1,"sensing":"occupancy","board":"b3"}',
  `{"t":100,"occ":"${EMPTY_OCC}"}`,
  '{"t":250,"button":"red"}',
  '{"t":250,"button":"black"}',
  `{"t":1000,"occ":"${EMPTY_OCC}"}`,
]);

function record(source: ReplaySource): SensorEvent[] {
  const seen: SensorEvent[] = [];
  source.subscribe((e) => seen.push(e));
  return seen;
}

describe('replay as fast as possible', () => {
  for (const name of ['example-occupancy', 'example-occupancy-2', 'example-colour-buttons']) {
    it(`plays every event of ${name} in order, inside start()`, async () => {
      const log = await readSensorLogFile(sharedPath(`data/sensor-logs/${name}.jsonl`));
      if (!log.ok) throw new Error(log.error.message);
      const source = new ReplaySource({ log: log.value });
      const seen = record(source);
      expect(seen).toEqual([]);
      await source.start();
      expect(seen).toEqual(log.value.events);
      expect(source.done).toBe(true);
      expect(source.health().snapshots).toBe(log.value.events.filter((e) => e.type === 'snapshot').length);
      expect(source.health().linkUp).toBe(false);
      await source.finished;
    });
  }

  it('takes its id and sensing from the header', () => {
    const source = new ReplaySource({ log: SMALL });
    expect(source.id).toBe('b3');
    expect(source.sensing).toBe('occupancy');
    expect(new ReplaySource({ log: SMALL, id: 'x' }).id).toBe('x');
  });

  it('stops when a listener stops it, and resumes on start', async () => {
    const source = new ReplaySource({ log: SMALL });
    const seen = record(source);
    const unsubscribe = source.subscribe((e) => {
      if (e.type === 'button') void source.stop();
    });
    await source.start();
    await source.finished;
    expect(seen.map((e) => e.t)).toEqual([100, 250]);
    expect(source.position).toBe(2);
    unsubscribe();
    await source.start();
    expect(seen.map((e) => e.t)).toEqual([100, 250, 250, 1000]);
  });

  it('advances a manual clock to each event, so timers set on it fire in log order', async () => {
    const clock = new ManualClock(0);
    const source = new ReplaySource({ log: SMALL, pace: asFastAsPossible(clock) });
    const trace: string[] = [];
    source.subscribe((e) => {
      trace.push(`${e.type}@${clock.now()}`);
      // A tracker's settle time after each snapshot.
      if (e.type === 'snapshot') clock.setTimer(() => trace.push(`settled@${clock.now()}`), 300);
    });
    await source.start();
    expect(trace).toEqual(['snapshot@100', 'button@250', 'button@250', 'settled@400', 'snapshot@1000']);
    expect(clock.pending()).toEqual([300]);
  });
});

describe('replay in real time', () => {
  it('waits on the clock between events, from the first event', async () => {
    const clock = new ManualClock(5000);
    const source = new ReplaySource({ log: SMALL, pace: realTime({ clock }) });
    const seen = record(source);
    await source.start();
    expect(seen.map((e) => e.t)).toEqual([]);
    clock.advance(0);
    expect(seen.map((e) => e.t)).toEqual([100]);
    clock.advance(149);
    expect(seen.map((e) => e.t)).toEqual([100]);
    clock.advance(1);
    expect(seen.map((e) => e.t)).toEqual([100, 250, 250]);
    clock.advance(749);
    expect(seen.length).toBe(3);
    clock.advance(1);
    expect(seen.map((e) => e.t)).toEqual([100, 250, 250, 1000]);
    await source.finished;
    expect(clock.pending()).toEqual([]);
  });

  it('plays faster with a speed', () => {
    const clock = new ManualClock(0);
    const source = new ReplaySource({ log: SMALL, pace: realTime({ clock, speed: 10 }) });
    const seen = record(source);
    void source.start();
    clock.advance(89);
    expect(seen.length).toBe(3);
    clock.advance(1);
    expect(seen.length).toBe(4);
  });

  it('stop cancels the pending wait', async () => {
    const clock = new ManualClock(0);
    const source = new ReplaySource({ log: SMALL, pace: realTime({ clock }) });
    const seen = record(source);
    await source.start();
    clock.advance(100);
    expect(seen.length).toBe(1);
    await source.stop();
    expect(clock.pending()).toEqual([]);
    clock.advance(10_000);
    expect(seen.length).toBe(1);
    await source.finished;
  });

  it('plays on the system clock', async () => {
    const log = logOf([`{"t":0,"occ":"${EMPTY_OCC}"}`, '{"t":20,"button":"red"}']);
    const source = new ReplaySource({ log, pace: realTime() });
    const seen = record(source);
    await source.start();
    await source.finished;
    expect(seen.map((e) => e.type)).toEqual(['snapshot', 'button']);
  });
});

describe('readSensorLogFile', () => {
  const dir = scratchDir('xqboard-replay-');

  it('names the line of a bad log (the caller adds the path)', async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, `{"t":5,"occ":"${EMPTY_OCC}"}\n{"t":4,"button":"red"}\n`);
    const r = await readSensorLogFile(path);
    expect(!r.ok && r.error).toMatchObject({ code: 'time_decreasing', line: 2 });
    expect(!r.ok && r.error.message).toBe(`line 2: "t" 4 is before the previous line's 5`);
  });

  it('reports a file it cannot read', async () => {
    const r = await readSensorLogFile(join(dir, 'missing.jsonl'));
    expect(!r.ok && r.error.code).toBe('unreadable');
    expect(!r.ok && r.error.message).toMatch(/missing\.jsonl/);
  });
});
