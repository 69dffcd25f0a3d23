/**
 * The embedded broker in its own worker thread (`mqtt.brokerThread: true`): the controller starts
 * it, its bridge reaches it over a MessagePort, viewers over TCP and WebSocket get the moves, a port in use
 * is the same coded error, and it stops cleanly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { REFEREE } from '../helpers/accounts.js';
import { Recorder } from './support.js';

const configOf = (dir: string, port = 1883) =>
  configSchema.parse({
    boards: [{ id: 'b1', source: { driver: 'simulator', heartbeatMs: 0 } }],
    mqtt: { baseTopic: 'th', brokerThread: true, port },
    access: { users: [REFEREE] },
    archive: { dir },
    web: { enabled: false },
  });

describe('embedded broker in a worker thread', () => {
  it('serves the bridge and the viewers, over TCP and WebSocket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-thread-'));
    const controller = new Controller({
      config: configOf(dir),
      handMs: 40,
      listen: { mqttPort: 0, wsPort: 0 },
    });
    try {
      const started = await controller.start();
      if (!started.ok) throw new Error(started.error.message);
      const { port, wsPort } = started.value.broker!;
      expect(started.value.mqttUrl).toBe(`mqtt://127.0.0.1:${port}`);
      const tcp = await Recorder.connect(`mqtt://127.0.0.1:${port}`, ['th/#'], {
        username: REFEREE.name,
        password: REFEREE.password,
      });
      const ws = await Recorder.connect(`ws://127.0.0.1:${wsPort}`, ['th/public/#']);
      await controller.sessions.get('b1')!.untilPlaying(3000);
      // The roles hold in the thread too: an anonymous viewer reads the moves, not the requests.
      const anonymous = await Recorder.connect(`mqtt://127.0.0.1:${port}`, ['th/#']);
      const answer = await tcp.request('th', 'board/simulate', { move: 'h2e2', transaction: 1 }, 1);
      expect(answer).toMatchObject({ status: 'ok', data: { iccs: 'h2e2', ply: 1 } });
      await tcp.until('the move', () => tcp.on('th/b1/move').length > 0);
      await anonymous.until('the move, as a viewer', () => anonymous.on('th/b1/move').length > 0);
      expect(tcp.on('th/bridge/request/board/simulate')).toHaveLength(1);
      expect(anonymous.on('th/bridge/request/board/simulate')).toHaveLength(0);
      await anonymous.end();
      await ws.until('the public move', () => ws.on('th/public/b1/moves/1').length > 0);
      expect(ws.json('th/public/b1/moves/1')[0]).toMatchObject({ iccs: 'h2e2', ply: 1 });
      await tcp.end();
      await ws.end();
    } finally {
      await controller.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a port in use as the embedded broker does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-thread-'));
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    const controller = new Controller({ config: configOf(dir, port), host: '127.0.0.1' });
    try {
      const started = await controller.start();
      expect(started.ok).toBe(false);
      expect(!started.ok && started.error).toMatchObject({ code: 'port_in_use', key: 'mqtt.port', port });
    } finally {
      await controller.stop();
      await new Promise((r) => taken.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
