/**
 * The same bridge against Mosquitto (an external broker, as a venue runs it): the same contract,
 * and the last will — a controller killed with SIGKILL is announced offline by the broker.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Controller } from '../../src/controller/controller.js';
import { ROOT } from '../helpers/cli.js';
import { BASE, badRequests, newController, playTwoMoves, testConfig } from './scenario.js';
import { type Mosquitto, Recorder, startMosquitto } from './support.js';

let mosquitto: Mosquitto;
let setup: ReturnType<typeof testConfig>;
let controller: Controller;
let viewer: Recorder;

beforeAll(async () => {
  mosquitto = await startMosquitto();
  setup = testConfig({ embedded: false, url: mosquitto.url });
  controller = newController(setup.config);
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  viewer = await Recorder.connect(mosquitto.url, [`${BASE}/#`, 'wled/#']);
});

afterAll(async () => {
  await viewer?.end();
  await controller?.stop();
  await mosquitto?.stop();
  setup?.cleanup();
});

describe('the MQTT bridge on Mosquitto', () => {
  it('is online, retained, QoS 1', async () => {
    await viewer.until('bridge/state', () => viewer.on(`${BASE}/bridge/state`).length > 0);
    expect(viewer.on(`${BASE}/bridge/state`)[0]).toEqual({
      topic: `${BASE}/bridge/state`,
      text: '{"state":"online"}',
      retain: true,
      qos: 1,
    });
  });

  it('plays moves, journaled before they are published', async () => {
    await viewer.until('board1 playing', () =>
      viewer.json(`${BASE}/board1/position`).some((p) => p.status === 'playing'),
    );
    await playTwoMoves(viewer, setup.dir);
  });

  it('answers bad requests with errors', async () => {
    await badRequests(viewer);
  });

  it('publishes offline when it stops', async () => {
    await controller.stop();
    await viewer.until('offline', () =>
      viewer.on(`${BASE}/bridge/state`).some((m) => m.text === '{"state":"offline"}'),
    );
    // Retained: a client arriving now learns the controller is gone.
    const late = await Recorder.connect(mosquitto.url, [`${BASE}/bridge/state`]);
    await late.until('retained offline', () => late.on(`${BASE}/bridge/state`).length > 0);
    expect(late.on(`${BASE}/bridge/state`)[0]).toMatchObject({ text: '{"state":"offline"}', retain: true });
    await late.end();
  });

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
