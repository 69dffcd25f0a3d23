/**
 * The web server's access rules in a real Chromium: the viewer page works without a login and
 * shows no controls; a page of another origin cannot change a game (a form post, a no-cors fetch,
 * a fetch carrying the token: all refused, the game untouched); an arbiter's name and password
 * through the page's login form open the controls, and they work.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import type { WebServer } from '../../src/web/server.js';
import { RED1, REFEREE } from '../helpers/accounts.js';

const CHROMIUM = '/usr/bin/chromium';
const WAIT = { timeout: 15_000, interval: 50 };
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, WAIT);

describe('web access in Chromium', () => {
  let dir: string;
  let controller: Controller;
  let browser: Browser;
  let url: string;
  let evil: Server;
  let evilUrl: string;
  const token = () => controller.extension<WebServer>('web')!.token!;
  const session = () => controller.sessions.get('board1')!;

  /** A new tab on the page, once board1 is drawn. */
  async function openPage() {
    const page = await browser.newPage();
    await page.goto(url);
    const card = page.locator('.board-card[data-board="board1"]');
    await poll(() => card.locator('.piece').count()).toBe(32);
    return { page, card };
  }

  /** Fills the page's login form and sends it. */
  async function logIn(page: Page, name: string, password: string) {
    const form = page.locator('#login-form');
    if (!(await form.isVisible())) await page.locator('#login').click();
    await form.locator('input[name="name"]').fill(name);
    await form.locator('input[name="password"]').fill(password);
    await form.locator('button[type="submit"]').click();
  }

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    dir = mkdtempSync(join(tmpdir(), 'xqboard-web-access-'));
    controller = new Controller({
      config: configSchema.parse({
        boards: [{ id: 'board1', source: { driver: 'simulator', heartbeatMs: 500 } }],
        mqtt: { baseTopic: 'xqwebacc' },
        archive: { dir },
        web: { enabled: true },
        access: { users: [REFEREE, RED1] },
      }),
      handMs: 100,
      listen: { mqttPort: 0, wsPort: 0, webPort: 0 },
    });
    const started = await controller.start();
    if (!started.ok) throw new Error(started.error.message);
    url = `http://127.0.0.1:${started.value.web!.port}`;
    await session().untilPlaying(10_000);
    // Another origin (another port): a page that tries everything a page can.
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>elsewhere</title><p>elsewhere</p>');
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', () => resolve()));
    const address = evil.address();
    evilUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await controller?.stop();
    await new Promise<void>((resolve) => (evil ? evil.close(() => resolve()) : resolve()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the viewer page works without a login and shows no controls', async () => {
    const { page, card } = await openPage();
    await poll(() => page.locator('#connection').textContent()).toBe('live');
    expect(await page.locator('#login').isVisible()).toBe(true);
    expect(await card.locator('button[data-action="new"]').isVisible()).toBe(false);
    expect(await card.locator('button[data-action="hint"]').isVisible()).toBe(false);
    // A click on a piece moves nothing (no targets offered).
    await card.locator('.piece[data-square="h2"]').click();
    expect(await card.locator('.target').count()).toBe(0);
    // It follows the game live: a move made elsewhere shows.
    const ply = session().view().ply;
    const move = ply % 2 === 0 ? 'h2e2' : 'h9g7';
    expect((await session().simulate({ move })).ok).toBe(true);
    await poll(() => card.locator('ol.moves li').count()).toBeGreaterThan(0);
    // Its POSTs without a login are refused.
    const status = await page.evaluate(
      async () => (await fetch('/api/boards/board1/new', { method: 'POST', body: '{}' })).status,
    );
    expect(status).toBe(401);
    await page.close();
  });

  it('a page of another origin cannot change a game, even with the token', async () => {
    const before = session().view();
    const page = await browser.newPage();
    await page.goto(evilUrl);
    const t = token();
    const outcomes = await page.evaluate(
      async ({ target, t }) => {
        const results: string[] = [];
        // A simple request (no preflight): a text/plain body the server would parse as JSON.
        const attempt = async (what: string, init: RequestInit) => {
          try {
            const res = await fetch(`${target}/api/request/game/resign`, { method: 'POST', ...init });
            results.push(`${what}: ${res.type} ${res.status}`);
          } catch (e) {
            results.push(`${what}: ${(e as Error).name}`);
          }
        };
        await attempt('no-cors', {
          mode: 'no-cors',
          body: '{"board":"board1"}',
          headers: { 'content-type': 'text/plain' },
        });
        await attempt('token', { body: '{"board":"board1"}', headers: { authorization: `Bearer ${t}` } });
        // A form posted to the controller, as a link in a mail could do.
        // (The page's DOM: the test program itself has no DOM types.)
        const document = (globalThis as { document?: any }).document;
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = `${target}/api/request/game/new`;
        form.enctype = 'text/plain';
        form.target = 'sink';
        const input = document.createElement('input');
        input.name = '{"board":"board1","x":"';
        input.value = '"}';
        form.append(input);
        const sink = document.createElement('iframe');
        sink.name = 'sink';
        document.body.append(sink, form);
        const loaded = new Promise((r) => sink.addEventListener('load', r));
        form.submit();
        await loaded;
        return results;
      },
      { target: url, t },
    );
    // The no-cors answer is opaque to the page; the token's request fails its preflight.
    expect(outcomes).toEqual(['no-cors: opaque 0', 'token: TypeError']);
    // What the server answered such a request, seen outside the browser: 403, whatever it carries.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${url}/api/request/game/resign`,
        { method: 'POST', headers: { origin: evilUrl, authorization: `Bearer ${t}` } },
        (res) => {
          let body = '';
          res.on('data', (d) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('{"board":"board1"}');
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', code: 'forbidden' });
    await new Promise((r) => setTimeout(r, 300));
    const after = session().view();
    expect(after.game).toBe(before.game);
    expect(after.status).toBe(before.status);
    expect(after.result).toBe('*');
    await page.close();
  });

  it("the controls work once logged in with the arbiter's name and password", async () => {
    const { page, card } = await openPage();
    await logIn(page, REFEREE.name, 'wrong');
    await poll(() => page.locator('.login-error').textContent()).toContain('wrong name or password');
    await logIn(page, REFEREE.name, REFEREE.password);
    await poll(() => page.locator('#who').textContent()).toBe('referee (arbiter)');
    await poll(() => card.locator('button[data-action="new"]').isVisible()).toBe(true);
    const game = session().view().game;
    await card.locator('button[data-action="new"]').click();
    await vi.waitFor(() => {
      if (session().view().game === game || session().currentPhase !== 'playing')
        throw new Error('no new game yet');
    }, WAIT);
    // A move by two clicks.
    await card.locator('.piece[data-square="h2"]').click();
    await card.locator('.point[data-square="e2"]').click();
    await poll(() => session().view().moves).toEqual(['h2e2']);
    // Logged out: the controls go away.
    await page.locator('#logout').click();
    await poll(() => card.locator('button[data-action="new"]').isVisible()).toBe(false);
    await page.close();
  });

  it("a player's login shows its board's Hint, not the arbiter's controls", async () => {
    const { page, card } = await openPage();
    await logIn(page, RED1.name, RED1.password);
    await poll(() => page.locator('#who').textContent()).toBe('red1 (player)');
    await poll(() => card.locator('button[data-action="hint"]').isVisible()).toBe(true);
    expect(await card.locator('button[data-action="new"]').isVisible()).toBe(false);
    await card.locator('button[data-action="hint"]').click();
    await poll(() => card.locator('.hint-box').isVisible()).toBe(true);
    await page.locator('#logout').click();
    await page.close();
  });
});
