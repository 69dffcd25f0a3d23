/**
 * The web server's rules, over HTTP from outside a browser: reading is open; a POST needs a login
 * with the rights for its request (the printed token, a session from /api/login, Basic), a wrong
 * password is logged and answered later, another origin is refused whatever it carries, a player
 * acts only on its board, and a client beyond its rate is answered 429.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { silentLogger } from '../../src/util/log.js';
import type { WebServer } from '../../src/web/server.js';
import { RED1, REFEREE } from '../helpers/accounts.js';

let dir: string;
let controller: Controller;
let url: string;
const warnings: string[] = [];
const basic = (name: string, password: string) =>
  `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-web-auth-'));
  controller = new Controller({
    config: configSchema.parse({
      boards: [
        { id: 'board1', source: { driver: 'simulator' } },
        { id: 'board2', source: { driver: 'simulator' } },
      ],
      mqtt: { baseTopic: 'xqwebauth' },
      archive: { dir },
      web: { enabled: true },
      access: {
        users: [REFEREE, RED1],
        rateLimit: { burst: 40, perMinute: 60 },
      },
    }),
    logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) },
    listen: { mqttPort: 0, wsPort: 0, webPort: 0 },
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  url = `http://127.0.0.1:${started.value.web!.port}`;
}, 30_000);

afterAll(async () => {
  await controller?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function post(path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body), headers });
  return {
    status: res.status,
    body: (await res.json()) as { status: string; code?: string; data?: Record<string, unknown> },
  };
}

describe('web access', () => {
  it('reads are open; a POST without a login is 401', async () => {
    expect((await fetch(`${url}/api/boards`)).status).toBe(200);
    expect(await (await fetch(`${url}/api/session`)).json()).toMatchObject({
      data: { name: null, role: 'viewer' },
    });
    const r = await post('/api/request/game/get', { board: 'board1' });
    expect(r).toMatchObject({ status: 401, body: { status: 'error', code: 'unauthorized' } });
  });

  it('the printed token, a login session and Basic open the controls', async () => {
    const token = controller.extension<WebServer>('web')!.token!;
    expect(
      (await post('/api/request/game/get', { board: 'board1' }, { authorization: `Bearer ${token}` })).status,
    ).toBe(200);
    const login = await post('/api/login', { name: 'referee', password: 's3cret' });
    expect(login).toMatchObject({ status: 200, body: { data: { role: 'arbiter', name: 'referee' } } });
    const session = `Bearer ${login.body.data!.token as string}`;
    expect((await post('/api/request/bridge/health', {}, { authorization: session })).status).toBe(200);
    expect(
      (await post('/api/request/bridge/health', {}, { authorization: basic('referee', 's3cret') })).status,
    ).toBe(200);
    expect((await post('/api/request/bridge/health', {}, { authorization: 'Bearer made-up' })).status).toBe(
      401,
    );
  });

  it('a wrong password is logged and answered later', async () => {
    const t0 = Date.now();
    const r = await post('/api/login', { name: 'referee', password: 'guess' });
    expect(r.status).toBe(401);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(warnings.some((w) => w.includes('failed login of "referee"'))).toBe(true);
    expect(
      (await post('/api/request/bridge/health', {}, { authorization: basic('referee', 'nope') })).status,
    ).toBe(401);
  });

  it('another origin is refused whatever it carries; the same origin is not', async () => {
    const auth = { authorization: basic('referee', 's3cret') };
    const elsewhere = await post(
      '/api/request/bridge/health',
      {},
      { ...auth, origin: 'http://evil.example' },
    );
    expect(elsewhere).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const site = await post('/api/request/bridge/health', {}, { ...auth, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const own = await post('/api/request/bridge/health', {}, { ...auth, origin: url });
    expect(own.status).toBe(200);
  });

  it('a player acts on its own board, for its side', async () => {
    const red1 = { authorization: basic('red1', 'r3d') };
    expect((await post('/api/request/game/get', { board: 'board1' }, red1)).status).toBe(200);
    expect((await post('/api/request/game/get', { board: 'board2' }, red1)).status).toBe(403);
    expect((await post('/api/request/game/new', { board: 'board1' }, red1)).status).toBe(403);
    expect(
      (await post('/api/request/game/draw', { board: 'board1', action: 'offer', side: 'black' }, red1))
        .status,
    ).toBe(403);
    // Its side when the request does not say.
    const offer = await post('/api/request/game/draw', { board: 'board1', action: 'offer' }, red1);
    expect(offer.body.code).not.toBe('forbidden');
    expect(offer.status).not.toBe(401);
  });

  it('beyond its rate a client is answered 429', async () => {
    const auth = { authorization: basic('referee', 's3cret') };
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await post('/api/request/bridge/health', {}, auth)).status);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  });
});
