/**
 * The same bridge against Mosquitto (an external broker, as a venue runs it): the same contract,
 * and the last will — a controller killed with SIGKILL is announced offline by the broker.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { badRequests, boardPlaying, playTwoMoves, type Rig, startRig } from './scenario.js';
import { type Mosquitto, Recorder, startMosquitto } from './support.js';

// One broker for the file; each test has its own controller under its own base topic, so the
// retained messages of one never reach another and the tests pass in any order.
let mosquitto: Mosquitto;
let tests = 0;

beforeAll(async () => {
  mosquitto = await startMosquitto();
});

afterAll(async () => {
  await mosquitto?.stop();
});

async function withRig(test: (rig: Rig) => Promise<void>): Promise<void> {
  const rig = await startRig({ url: mosquitto.url, base: `xqmosq${++tests}` });
  try {
    await test(rig);
  } finally {
    await rig.stop();
  }
}

describe('the MQTT bridge on Mosquitto', () => {
  it('is online, retained, QoS 1', () =>
    withRig(async ({ viewer, base }) => {
      await viewer.until('bridge/state', () => viewer.on(`${base}/bridge/state`).length > 0);
      expect(viewer.on(`${base}/bridge/state`)[0]).toEqual({
        topic: `${base}/bridge/state`,
        text: '{"state":"online"}',
        retain: true,
        qos: 1,
      });
    }));

  it('plays moves, journaled before they are published', () =>
    withRig(async ({ viewer, dir, base }) => {
      await boardPlaying(viewer, base);
      await playTwoMoves(viewer, dir, base);
    }));

  it('answers bad requests with errors', () =>
    withRig(async ({ viewer, base }) => {
      await boardPlaying(viewer, base);
      await badRequests(viewer, base);
    }));

  it('publishes offline when it stops', () =>
    withRig(async ({ viewer, base, controller }) => {
      await boardPlaying(viewer, base);
      await controller.stop();
      await viewer.until('offline', () =>
        viewer.on(`${base}/bridge/state`).some((m) => m.text === '{"state":"offline"}'),
      );
      // Retained: a client arriving now learns the controller is gone.
      const late = await Recorder.connect(mosquitto.url, [`${base}/bridge/state`]);
      await late.until('retained offline', () => late.on(`${base}/bridge/state`).length > 0);
      expect(late.on(`${base}/bridge/state`)[0]).toMatchObject({ text: '{"state":"offline"}', retain: true });
      await late.end();
    }));

  it('a controller killed outright is announced offline by its last will', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-will-'));
    const base = 'xqwill';
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        'boards:',
        '  - id: b1',
        '    source: { driver: simulator }',
        'mqtt:',
        '  embedded: false',
        `  url: ${mosquitto.url}`,
        `  baseTopic: ${base}`,
        'archive:',
        `  dir: ${join(dir, 'games')}`,
        'web: { enabled: false }',
        '',
      ].join('\n'),
    );
    const watcher = await Recorder.connect(mosquitto.url, [`${base}/bridge/state`]);
    const child = spawn(process.execPath, ['bin/xqboard.js', 'start', '--config', config], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    try {
      await watcher.until('the child online', () =>
        watcher.on(`${base}/bridge/state`).some((m) => m.text === '{"state":"online"}'),
      );
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await watcher.until('the last will', () =>
        watcher.on(`${base}/bridge/state`).some((m) => m.text === '{"state":"offline"}'),
      );
      const will = watcher.on(`${base}/bridge/state`).find((m) => m.text === '{"state":"offline"}')!;
      expect(will).toMatchObject({ qos: 1 });
    } catch (e) {
      throw new Error(`${(e as Error).message}\nchild stderr:\n${stderr}`);
    } finally {
      child.kill('SIGKILL');
      await watcher.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
