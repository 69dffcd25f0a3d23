/**
 * One board's fault never stops another: a board whose source cannot be made is reported (and
 * announced offline over MQTT) while the others run; a source that fails to start is retried with
 * a growing wait until it does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/load.js';
import { configSchema } from '../../src/config/schema.js';
import { BoardSession } from '../../src/controller/board-session.js';
import { Bus, type BusEvents } from '../../src/controller/bus.js';
import { Controller } from '../../src/controller/controller.js';
import { BoardSimulator } from '../../src/sensors/simulator.js';
import type { SensorListener, SensorSource } from '../../src/sensors/source.js';
import { ManualClock } from '../../src/util/clock.js';
import { Recorder } from '../mqtt/support.js';

/** A driver whose first starts fail (a port not there yet), then works like the simulator. */
class FlakySource implements SensorSource {
  readonly id = 'flaky';
  readonly sensing = 'occupancy' as const;
  attempts = 0;
  constructor(
    private readonly inner: BoardSimulator,
    private failures: number,
  ) {}
  async start(): Promise<void> {
    this.attempts++;
    if (this.failures-- > 0) throw new Error('cannot open /dev/ttyACM0: no such file');
    await this.inner.start();
  }
  stop(): Promise<void> {
    return this.inner.stop();
  }
  subscribe(listener: SensorListener): () => void {
    return this.inner.subscribe(listener);
  }
  health() {
    return this.inner.health();
  }
}

describe('controller', () => {
  it('runs the good boards when one board cannot be made, and announces that one offline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-controller-'));
    const parsed = configSchema.parse({
      boards: [
        { id: 'broken', source: { driver: 'replay', file: join(dir, 'missing.jsonl') } },
        { id: 'good', source: { driver: 'simulator' } },
      ],
      mqtt: { wsPort: 0, baseTopic: 'xqc' },
      archive: { dir },
      web: { enabled: false },
    });
    const controller = new Controller({ config: { ...parsed, mqtt: { ...parsed.mqtt, port: 0 } } });
    try {
      const started = await controller.start();
      if (!started.ok) throw new Error(started.error.message);
      expect(started.value.failed.map((e) => e.board)).toEqual(['broken']);
      expect([...controller.sessions.keys()]).toEqual(['good']);
      const viewer = await Recorder.connect(`mqtt://127.0.0.1:${started.value.broker!.port}`, [
        'xqc/+/availability',
      ]);
      await viewer.until('both availabilities', () => viewer.messages.length >= 2);
      const broken = viewer.json('xqc/broken/availability')[0]!;
      expect(broken).toMatchObject({ state: 'offline' });
      expect(broken.reason).toContain('missing.jsonl');
      expect(viewer.json('xqc/good/availability')[0]).toMatchObject({ state: 'online' });
      await viewer.end();
    } finally {
      await controller.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('retries a source that fails to start, waiting longer each time, and then reads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-retry-'));
    const clock = new ManualClock(0);
    const config = defaultConfig();
    const bus = new Bus();
    const availability: BusEvents['board.availability'][] = [];
    bus.on('board.availability', (e) => availability.push(e));
    const source = new FlakySource(new BoardSimulator({ id: 'board1', clock }), 2);
    const session = new BoardSession({
      board: config.boards[0]!,
      source,
      game: config.game,
      tracker: config.tracker,
      archiveDir: dir,
      bus,
      clock,
      retry: { initialMs: 1000, maxMs: 8000 },
    });
    try {
      await session.start();
      expect(source.attempts).toBe(1);
      expect(availability).toEqual([
        {
          board: 'board1',
          online: false,
          reason: 'the source did not start: cannot open /dev/ttyACM0: no such file',
        },
      ]);
      clock.advance(999);
      expect(source.attempts).toBe(1);
      clock.advance(1);
      await new Promise((r) => setImmediate(r));
      expect(source.attempts).toBe(2);
      clock.advance(1999);
      await new Promise((r) => setImmediate(r));
      expect(source.attempts).toBe(2);
      clock.advance(1);
      await new Promise((r) => setImmediate(r));
      expect(source.attempts).toBe(3);
      expect(availability.at(-1)).toEqual({ board: 'board1', online: true });
      clock.advance(100);
      expect(session.currentPhase).toBe('playing');
    } finally {
      await session.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
