/**
 * 100 hint requests in a burst do not hold up the game: at most one hint per board is worked out
 * at a time (the others are answered `busy` at once), so a move played right after the burst is
 * announced about as soon as a move played with nothing else going on. The figures are printed;
 * the bound is loose (a loaded machine), the failure it guards against was ~30 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { Recorder } from '../mqtt/support.js';

const BASE = 'xqburst';
let dir: string;
let controller: Controller;
let client: Recorder;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-burst-'));
  controller = new Controller({
    config: configSchema.parse({
      boards: [{ id: 'board1', source: { driver: 'simulator', heartbeatMs: 500 } }],
      mqtt: { baseTopic: BASE, wsPort: 0 },
      archive: { dir },
      web: { enabled: false },
      access: {
        users: [{ name: 'referee', password: 's3cret', role: 'arbiter' }],
        // Every one of the 100 reaches the request layer: the hint gate is what is tested.
        rateLimit: { burst: 1000, perMinute: 6000 },
      },
    }),
    handMs: 60,
    listen: { mqttPort: 0 },
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  client = await Recorder.connect(
    `mqtt://127.0.0.1:${started.value.broker!.port}`,
    [`${BASE}/board1/move`, `${BASE}/bridge/response/#`],
    { username: 'referee', password: 's3cret' },
  );
  await controller.sessions.get('board1')!.untilPlaying(10_000);
}, 30_000);

afterAll(async () => {
  await client?.end();
  await controller?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** From the request of a simulated move to its announcement on MQTT, in ms. */
async function moveLatency(move: string): Promise<number> {
  const before = client.on(`${BASE}/board1/move`).length;
  const t0 = performance.now();
  await client.client.publishAsync(`${BASE}/bridge/request/board/simulate`, JSON.stringify({ move }), {
    qos: 1,
  });
  await client.until(`the move ${move}`, () => client.on(`${BASE}/board1/move`).length > before);
  return performance.now() - t0;
}

it('100 hint requests in a burst do not delay the next move beyond its normal latency', async () => {
  const normal = [await moveLatency('h2e2'), await moveLatency('h9g7')];
  const responses = `${BASE}/bridge/response/game/hint`;
  // The burst, not waited for one by one.
  const sent = Array.from({ length: 100 }, (_, i) =>
    client.client.publishAsync(`${BASE}/bridge/request/game/hint`, JSON.stringify({ transaction: `h${i}` }), {
      qos: 1,
    }),
  );
  const during = await moveLatency('b0c2');
  await Promise.all(sent);
  await client.until('100 answers', () => client.json(responses).length >= 100, 30_000);
  const answers = client.json(responses);
  const busy = answers.filter((a) => a.code === 'busy').length;
  const given = answers.filter((a) => a.status === 'ok').length;
  console.log(
    `move latency: normal ${normal.map((n) => n.toFixed(0)).join(', ')} ms; right after 100 hints ${during.toFixed(0)} ms; ` +
      `hints given ${given}, busy ${busy}, other: ${answers
        .filter((a) => a.status !== 'ok' && a.code !== 'busy')
        .map((a) => a.code)
        .join(', ')}`,
  );
  expect(answers.length).toBe(100);
  // One at a time: while one is worked out the others are answered at once. The one worked out
  // may be answered with an error too: the move played meanwhile made its position old.
  expect(busy).toBeGreaterThan(50);
  expect(busy).toBeLessThan(100);
  expect(during).toBeLessThan(Math.max(...normal) + 1000);
}, 60_000);
