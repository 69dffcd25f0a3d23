import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SerialPortMock } from 'serialport';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { defaultSetup } from '../../src/rules/index.js';
import { JohnnyFiveSource } from '../../src/sensors/johnny-five.js';
import { createSource, createSources } from '../../src/sensors/registry.js';
import { ReplaySource } from '../../src/sensors/replay.js';
import { SerialSource } from '../../src/sensors/serial.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import { cellsOf } from '../../src/sensors/snapshot.js';
import type { SensorEvent } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';
import { scratchDir } from '../helpers/scratch.js';
import { sharedPath } from '../helpers/shared.js';

function config(yaml: string): Config {
  const r = parseConfig(yaml, 'test.yaml');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('createSource', () => {
  it('the default configuration gives one simulated board showing the start position', async () => {
    const clock = new ManualClock(0);
    const r = await createSource(config('').boards[0]!, { clock });
    if (!r.ok) throw new Error(r.error.message);
    const source = r.value;
    expect(source).toBeInstanceOf(BoardSimulator);
    expect([source.id, source.sensing]).toEqual(['board1', 'occupancy']);
    const seen: SensorEvent[] = [];
    source.subscribe((e) => seen.push(e));
    await source.start();
    clock.advance(1000);
    expect(seen.filter((e) => e.type === 'snapshot')).toEqual([
      { type: 'snapshot', t: 0, cells: cellsOf(defaultSetup().board, 'occupancy') },
      { type: 'snapshot', t: 1000, cells: cellsOf(defaultSetup().board, 'occupancy') },
    ]);
    await source.stop();
  });

  it('a replay board plays its log (speed 0: as fast as possible)', async () => {
    const file = sharedPath('data/sensor-logs/example-colour-buttons.jsonl');
    const c = config(`boards:\n  - { id: demo, source: { driver: replay, file: "${file}", speed: 0 } }\n`);
    const r = await createSource(c.boards[0]!);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value).toBeInstanceOf(ReplaySource);
    expect([r.value.id, r.value.sensing]).toEqual(['demo', 'colour']);
    let events = 0;
    r.value.subscribe(() => events++);
    await r.value.start();
    expect(events).toBe(253);
  });

  it('a replay board in real time waits on the clock', async () => {
    const file = sharedPath('data/sensor-logs/example-occupancy.jsonl');
    const clock = new ManualClock(0);
    const c = config(`boards:\n  - { id: demo, source: { driver: replay, file: "${file}" } }\n`);
    const r = await createSource(c.boards[0]!, { clock });
    if (!r.ok) throw new Error(r.error.message);
    let events = 0;
    r.value.subscribe(() => events++);
    await r.value.start();
    expect(events).toBe(0);
    clock.advance(0);
    expect(events).toBe(1);
    await r.value.stop();
  });

  it('serial and johnny-five boards get their drivers, loaded on demand, not started', async () => {
    const c = config(
      'boards:\n' +
        '  - { id: s1, source: { driver: serial, port: /dev/ttyMOCK0, sensing: colour } }\n' +
        '  - { id: j1, source: { driver: johnny-five, port: /dev/ttyMOCK1 } }\n',
    );
    const { sources, errors } = await createSources(c.boards, { binding: SerialPortMock.binding });
    expect(errors).toEqual([]);
    const serial = sources.get('s1')!;
    expect(serial).toBeInstanceOf(SerialSource);
    expect([serial.id, serial.sensing, serial.health().linkUp]).toEqual(['s1', 'colour', false]);
    const j5 = sources.get('j1')!;
    expect(j5).toBeInstanceOf(JohnnyFiveSource);
    expect([j5.id, j5.sensing, j5.health().linkUp]).toEqual(['j1', 'occupancy', false]);
  });
});

describe('one board’s fault never stops another', () => {
  const dir = scratchDir('xqboard-registry-');

  it('a bad log is that board’s error; the others are made', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"type":"header","version":1}\n{"t":1,"button":"green"}\n');
    const c = config(
      `boards:\n  - { id: ok1, source: { driver: simulator } }\n` +
        `  - { id: broken, source: { driver: replay, file: "${bad}" } }\n` +
        `  - { id: missing, source: { driver: replay, file: "${join(dir, 'none.jsonl')}" } }\n` +
        `  - { id: ok2, source: { driver: simulator, sensing: colour } }\n`,
    );
    const { sources, errors } = await createSources(c.boards);
    expect([...sources.keys()]).toEqual(['ok1', 'ok2']);
    expect(errors.map((e) => [e.board, e.code])).toEqual([
      ['broken', 'bad_log'],
      ['missing', 'bad_log'],
    ]);
    expect(errors[0]!.message).toBe(
      `board broken: ${bad}: line 2: "button" must be "red" or "black", got "green"`,
    );
  });

  it('a replay whose log disagrees with the configured sensing', async () => {
    const file = sharedPath('data/sensor-logs/example-occupancy.jsonl');
    const c = config(
      `boards:\n  - { id: r, source: { driver: replay, file: "${file}", sensing: colour } }\n`,
    );
    const r = await createSource(c.boards[0]!);
    expect(!r.ok && r.error.code).toBe('sensing_mismatch');
  });
});
