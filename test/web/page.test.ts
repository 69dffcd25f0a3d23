/**
 * The web view in a real headless Chromium: a controller with a simulated board serves the page;
 * the board is drawn as a xiangqi board, a click on a piece then on a target plays the move on the
 * simulator (the session and MQTT see it), the move list follows the notation toggle, the move
 * reader's state (a lifted piece, an illegal move) shows, and a reload finds the same game live.
 * Chromium comes from Debian (`apt-get install chromium`, which npm test's scripts/system-deps.mjs
 * does): without it this fails.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import {
  INITIAL_FEN,
  makeFen,
  makeSquareName,
  Position,
  parseFen,
  parseIccs,
  parseSquare,
} from '../../src/rules/index.js';
import type { WebServer } from '../../src/web/server.js';
import { HINT_ANSWER_MS, Recorder } from '../mqtt/support.js';

const CHROMIUM = '/usr/bin/chromium';
const BASE = 'xqweb';

/**
 * Waits long enough for a loaded pipeline (Chromium, the controller and other tests share the
 * cores), not vitest's default second.
 */
const WAIT = { timeout: 15_000, interval: 50 };
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(fn, { ...WAIT, ...options });

function configFor(dir: string, ports: { mqtt: number; ws: number; web: number }) {
  return configSchema.parse({
    boards: [
      { id: 'board1', source: { driver: 'simulator', heartbeatMs: 500 } },
      { id: 'board2', source: { driver: 'simulator', heartbeatMs: 500, position: 'empty' } },
    ],
    mqtt: { port: ports.mqtt || 1883, wsPort: ports.ws, baseTopic: BASE },
    game: { clock: { periods: [{ minutes: 10 }] } },
    archive: { dir },
    web: { enabled: true, port: ports.web || 8080 },
    access: { users: [{ name: 'referee', password: 's3cret', role: 'arbiter' }] },
  });
}

describe('web view in Chromium', () => {
  let dir: string;
  let controller: Controller;
  let browser: Browser;
  let page: Page;
  let url: string;
  let mqtt: Recorder;
  let ports: { mqtt: number; ws: number; web: number };
  /** The controls need a login: the token the controller prints at start. */
  const token = () => controller.extension<WebServer>('web')!.token!;
  const auth = () => ({ authorization: `Bearer ${token()}` });

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `${CHROMIUM} is missing: the web view is tested in a real Chromium. Install it with ` +
          '`apt-get install -y chromium` (SYSTEM_PACKAGES in scripts/system-deps.mjs, which npm test runs first).',
      );
    }
    dir = mkdtempSync(join(tmpdir(), 'xqboard-web-'));
    // Ports 0: the system picks them; the ones bound are read back (and kept for the restart).
    controller = new Controller({
      config: configFor(dir, { mqtt: 0, ws: 0, web: 0 }),
      handMs: 120,
      listen: { mqttPort: 0, wsPort: 0, webPort: 0 },
    });
    const started = await controller.start();
    if (!started.ok) throw new Error(started.error.message);
    ports = {
      mqtt: started.value.broker!.port,
      ws: started.value.broker!.wsPort!,
      web: started.value.web!.port,
    };
    url = `http://127.0.0.1:${ports.web}`;
    mqtt = await Recorder.connect(
      `mqtt://127.0.0.1:${ports.mqtt}`,
      [`${BASE}/board1/move`, `${BASE}/board1/position`, `${BASE}/bridge/response/#`],
      { username: 'referee', password: 's3cret' },
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // The game starts once the reader has seen the simulated board in the start position.
    await vi.waitFor(() => {
      if (controller.sessions.get('board1')?.currentPhase !== 'playing') throw new Error('not playing yet');
    }, WAIT);
    await page.goto(`${url}/#token=${token()}`);
    expect(errors).toEqual([]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await mqtt?.end();
    await controller?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const card = () => page.locator('.board-card[data-board="board1"]');
  const pieceAt = (square: string) => card().locator(`.piece[data-square="${square}"]`);
  const drawnPieces = () =>
    card()
      .locator('.piece')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-square'), e.getAttribute('data-piece')]));

  it('draws the board: 9×10 points, river, palaces, and the 32 pieces where the start position has them', async () => {
    await poll(async () => (await drawnPieces()).length).toBe(32);
    const setup = parseFen(INITIAL_FEN);
    if (!setup.ok) throw new Error(setup.error.message);
    const expected = setup.value.board
      .flatMap((p, sq) => (p ? [[makeSquareName(sq), `${p.color} ${p.role}`]] : []))
      .sort();
    expect((await drawnPieces()).sort()).toEqual(expected);
    const svg = card().locator('svg.board');
    expect(await svg.locator('.point').count()).toBe(90);
    expect(await svg.locator('.grid line').count()).toBe(10 + 2 + 7 * 2 + 4);
    expect(await svg.locator('text.river').allTextContents()).toEqual(['楚河', '汉界']);
    expect(await pieceAt('e0').textContent()).toBe('帅');
    expect(await pieceAt('e9').textContent()).toBe('将');
    expect(await pieceAt('h2').textContent()).toBe('炮');
    expect(await pieceAt('a3').textContent()).toBe('兵');
    expect(await pieceAt('a6').textContent()).toBe('卒');
    // Red at the bottom: its king is below Black's.
    const red = await pieceAt('e0').boundingBox();
    const black = await pieceAt('e9').boundingBox();
    expect(red!.y).toBeGreaterThan(black!.y);
    // Every board is shown: the second one is empty, waiting to be set up.
    const second = page.locator('.board-card[data-board="board2"]');
    expect(await second.locator('.point').count()).toBe(90);
    // Its pieces are drawn faint where they are to be set up.
    expect(await second.locator('.piece.ghost').count()).toBe(32);
    expect(await second.locator('.status').textContent()).toContain('Setting up');
    // The game's clock: 10 minutes each.
    expect(await card().locator('.clock .red').textContent()).toMatch(/^红 (10:00|9:5\d)$/);
    expect(await card().locator('.clock .black').textContent()).toBe('黑 10:00');
  });

  it("streams the MQTT contract's payloads: the retained position first, as on MQTT", async () => {
    const abort = new AbortController();
    const res = await fetch(`${url}/events`, { signal: abort.signal });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: state')) text += decoder.decode((await reader.read()).value);
    abort.abort();
    const events = text
      .split('\n\n')
      .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
      .filter((e) => e.event !== undefined);
    const position = events.find((e) => e.event === 'position' && e.data?.includes('"board":"board1"'));
    const sse = JSON.parse(position!.data!) as { board: string; payload: Record<string, unknown> };
    await mqtt.until('the retained position', () => mqtt.json(`${BASE}/board1/position`).length > 0);
    const retained = mqtt.json(`${BASE}/board1/position`).at(-1)!;
    expect(Object.keys(sse.payload).sort()).toEqual(Object.keys(retained).sort());
    // The same game; only the sequence numbers (one counter per channel) and the clock's time differ.
    const { seq: _a, clock: _b, ...ours } = sse.payload;
    const { seq: _c, clock: _d, ...theirs } = retained;
    expect(ours).toEqual(theirs);
  });

  it('plays h2e2 by two clicks; the session and MQTT see it; the list follows the notation', async () => {
    await pieceAt('h2').click();
    await poll(() =>
      card()
        .locator('.target')
        .evaluateAll((t) => t.map((e) => e.getAttribute('data-target')).sort()),
    ).toEqual(['c2', 'd2', 'e2', 'f2', 'g2', 'h1', 'h3', 'h4', 'h5', 'h6', 'h9', 'i2']);
    await card().locator('.point[data-square="e2"]').click();
    await poll(async () => pieceAt('e2').getAttribute('data-piece')).toBe('red cannon');
    expect(await pieceAt('h2').count()).toBe(0);
    expect(controller.sessions.get('board1')!.view().moves).toEqual(['h2e2']);
    await mqtt.until('the move on MQTT', () => mqtt.json(`${BASE}/board1/move`).length === 1);
    expect(mqtt.json(`${BASE}/board1/move`)[0]).toMatchObject({ iccs: 'h2e2', wxf: 'C2.5', zh: '炮二平五' });
    // Black's clock runs now.
    await poll(() => card().locator('.clock .black').getAttribute('class')).toContain('running');

    const moves = card().locator('ol.moves');
    await page.locator('button[data-notation="chinese"]').click();
    await poll(() => moves.textContent()).toBe('炮二平五');
    await page.locator('button[data-notation="wxf"]').click();
    await poll(() => moves.textContent()).toBe('C2.5');
    await page.locator('button[data-notation="iccs"]').click();
    await poll(() => moves.textContent()).toBe('h2e2');
  });

  it('answers a bad request with 400 and an error naming the field, and goes on', async () => {
    const post = async (path: string, body: string) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', body, headers: auth() });
      return { status: res.status, body: (await res.json()) as { status: string; error?: string } };
    };
    const wrongType = await post('/api/boards/board1/simulate', JSON.stringify({ move: 5 }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.status).toBe('error');
    expect(wrongType.body.error).toContain('"move"');
    const unknownKey = await post('/api/boards/board1/simulate', JSON.stringify({ mvoe: 'h9g7' }));
    expect(unknownKey).toMatchObject({ status: 400, body: { status: 'error' } });
    expect(unknownKey.body.error).toContain('"mvoe"');
    const notJson = await post('/api/boards/board1/simulate', '{move:');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toContain('not JSON');
    const illegal = await post('/api/boards/board1/simulate', JSON.stringify({ move: 'a9a3' }));
    expect(illegal.status).toBe(400);
    expect(illegal.body.error).toContain('illegal_move');
    const noBoard = await post('/api/boards/nope/hint', '{}');
    expect(noBoard.status).toBe(404);
    expect(noBoard.body.error).toContain('"board1"');
    const wrongMethod = await fetch(`${url}/api/boards/board1/simulate`);
    expect(wrongMethod.status).toBe(405);
    // Still serving, the game untouched.
    const boards = (await (await fetch(`${url}/api/boards`)).json()) as {
      boards: { id: string; simulated: boolean; moves: string[]; position: Record<string, unknown> }[];
    };
    // The snapshot has the moves beside the position (which, as on MQTT, has only where the game stands).
    expect(boards.boards).toMatchObject([
      { id: 'board1', simulated: true, moves: ['h2e2'], position: { ply: 1, lastMove: 'h2e2' } },
      { id: 'board2', simulated: true, moves: [], position: { ply: 0, status: 'setup' } },
    ]);
    expect(boards.boards[0]!.position).not.toHaveProperty('moves');
  });

  it('after a reload shows the same game and follows it live', async () => {
    await page.reload();
    await poll(async () => pieceAt('e2').getAttribute('data-piece')).toBe('red cannon');
    expect((await drawnPieces()).length).toBe(32);
    // The notation chosen before the reload is kept.
    expect(await page.locator('button[data-notation="iccs"]').getAttribute('aria-pressed')).toBe('true');
    await poll(() => card().locator('ol.moves').textContent()).toBe('h2e2');
    await poll(() => page.locator('#connection').textContent()).toBe('live');
    // A move made elsewhere (the MQTT request) appears on the reloaded page.
    const response = await mqtt.request(BASE, 'board/simulate', { board: 'board1', move: '马8进7' });
    expect(response).toMatchObject({ status: 'ok' });
    await poll(async () => pieceAt('g7').getAttribute('data-piece')).toBe('black horse');
    await page.locator('button[data-notation="chinese"]').click();
    await poll(() => card().locator('ol.moves').textContent()).toBe('炮二平五马８进７');
    // A takeback (the board shows the position after ply 1 again) leaves the list; played again, it is back.
    const session = controller.sessions.get('board1')!;
    const afterFirst = Position.default();
    const h2e2 = parseIccs('h2e2');
    if (!h2e2.ok) throw new Error('h2e2');
    afterFirst.play(h2e2.value);
    await mqtt.request(BASE, 'board/simulate', { board: 'board1', fen: makeFen(afterFirst.toSetup()) });
    await poll(() => session.view().ply).toBe(1);
    await poll(() => card().locator('ol.moves').textContent()).toBe('炮二平五');
    expect(await mqtt.request(BASE, 'board/simulate', { board: 'board1', move: '马8进7' })).toMatchObject({
      status: 'ok',
    });
    await poll(() => card().locator('ol.moves').textContent()).toBe('炮二平五马８进７');
  });

  it('shows a lifted piece with its legal targets, and an illegal move with from→to', async () => {
    const sim = controller.sessions.get('board1')!.simulator!;
    sim.lift(parseSquare('b0')!);
    await poll(() => card().locator('.piece.lifted').getAttribute('data-square')).toBe('b0');
    await poll(() =>
      card()
        .locator('.target')
        .evaluateAll((t) => t.map((e) => e.getAttribute('data-target')).sort()),
    ).toEqual(['a2', 'c2']);
    sim.place(parseSquare('b0')!);
    await poll(() => card().locator('.piece.lifted').count()).toBe(0);

    sim.move(parseSquare('a0')!, parseSquare('a5')!);
    const alert = card().locator('.alert[data-kind="illegal_move"]');
    await poll(() => alert.count()).toBe(1);
    expect(await alert.locator('strong').textContent()).toBe('a0→a5');
    expect(await card().locator('.arrow.illegal').count()).toBeGreaterThan(0);
    await page.screenshot({ path: '/tmp/xqboard-web-illegal.png' });
    sim.move(parseSquare('a5')!, parseSquare('a0')!);
    await poll(() => alert.count()).toBe(0);
  });

  it("offers a dead-sensor doubt's candidates to choose, and shows the reader's answer", async () => {
    // The alert as the reader raises it when it cannot tell which sensor is dead, put on the
    // controller's bus: from there on, the page and the request are the real ones. This board's
    // reader has no such doubt, and says so.
    const alert = {
      kind: 'ambiguous',
      message: 'one sensor reads wrong, and the board cannot tell which yet',
      candidates: [['h2e2'], ['h2d2']],
      check: ['e2', 'd2'],
      sensors: ['e2', 'd2'],
    };
    controller.bus.emit('tracker.alert', { board: 'board1', alert, t: Date.now() });
    const choice = card().locator('.alert[data-kind="ambiguous"] button[data-candidate="1"]');
    await poll(() => choice.count()).toBe(1);
    expect(await choice.textContent()).toBe('h2d2 (d2 dead)');
    await choice.click();
    await poll(() => card().locator('.message').textContent()).toContain(
      'no doubt over which sensor is dead stands on this board',
    );
    controller.bus.emit('tracker.alertCleared', { board: 'board1', kind: 'ambiguous', t: Date.now() });
    await poll(() => card().locator('.alert[data-kind="ambiguous"]').count()).toBe(0);
  });

  it('hint, flip board and a screenshot that looks like a xiangqi board', async () => {
    await card().locator('button[data-action="hint"]').click();
    // The file's first hint starts the engine: as long as the product may take to answer it.
    await poll(() => card().locator('.hint-box').isVisible(), { timeout: HINT_ANSWER_MS }).toBe(true);
    expect(await card().locator('.hint-box').textContent()).toMatch(/^Hint: /);
    expect(await card().locator('.arrow.hint').count()).toBeGreaterThan(0);
    await pieceAt('h0').click();
    await page.screenshot({ path: '/tmp/xqboard-web.png' });
    await page.screenshot({ path: '/tmp/xqboard-web-full.png', fullPage: true });

    await card().locator('button[data-action="flip"]').click();
    const red = await pieceAt('e0').boundingBox();
    const black = await pieceAt('e9').boundingBox();
    expect(red!.y).toBeLessThan(black!.y);
    await page.screenshot({ path: '/tmp/xqboard-web-flipped.png' });
    await card().locator('button[data-action="flip"]').click();
  });

  it('after a controller restart the page reconnects by itself and shows the resumed game', async () => {
    await controller.stop();
    await poll(() => page.locator('#connection').textContent()).toBe('reconnecting…');
    // The same ports as before (the page reconnects to its own address).
    controller = new Controller({
      config: configFor(dir, ports),
      handMs: 120,
      listen: { mqttPort: ports.mqtt, wsPort: ports.ws, webPort: ports.web },
    });
    const started = await controller.start();
    if (!started.ok) throw new Error(started.error.message);
    await poll(() => page.locator('#connection').textContent()).toBe('live');
    // The game is resumed from its journal and the simulated board is set to it: play goes on.
    await poll(() => card().locator('ol.moves').textContent()).toBe('炮二平五马８进７');
    await poll(() => card().locator('.piece.ghost').count()).toBe(0);
    await poll(() => controller.sessions.get('board1')!.currentPhase).toBe('playing');
    expect(await pieceAt('g7').getAttribute('data-piece')).toBe('black horse');
    const res = await fetch(`${url}/api/boards/board1/simulate`, {
      method: 'POST',
      body: JSON.stringify({ move: 'h0g2' }),
      headers: auth(),
    });
    expect(await res.json()).toMatchObject({ status: 'ok', data: { iccs: 'h0g2', ply: 3 } });
    await poll(() => card().locator('ol.moves').textContent()).toMatch(/二进三$/);
    // The new controller printed a new token: the old one no longer opens the controls.
    await poll(() => page.locator('#login').isVisible()).toBe(true);
    await page.goto(`${url}/#token=${token()}`);
    await poll(() => page.locator('#logout').isVisible()).toBe(true);
  });

  it('new game: the board and the list start again', async () => {
    await card().locator('button[data-action="new"]').click();
    await poll(() => controller.sessions.get('board1')!.view().ply).toBe(0);
    await poll(() => card().locator('ol.moves li').count()).toBe(0);
    await poll(async () => pieceAt('h2').getAttribute('data-piece')).toBe('red cannon');
  });

  it('corrects the record from the form: the list and the session follow, the board is read against it', async () => {
    const session = controller.sessions.get('board1')!;
    // (The new game before this one is under way once the reader has seen its position.)
    await poll(() => session.currentPhase).toBe('playing');
    expect(await session.simulate({ move: 'h2e2' })).toMatchObject({ ok: true });
    const moves = card().locator('ol.moves');
    await page.locator('button[data-notation="iccs"]').click();
    const correct = async (ply: number, line: string) => {
      await card().locator('.correct-ply').fill(String(ply));
      await card().locator('.correct-moves').fill(line);
      await card().locator('form.correct button').click();
    };
    // Recorded as the cannon to d2, though it stands on e2: the board shows it moved on, out of turn.
    await correct(1, 'h2d2');
    await poll(() => session.view().moves).toEqual(['h2d2']);
    await poll(() => moves.textContent()).toBe('h2d2');
    const misplaced = card().locator('.alert[data-kind="illegal_move"]');
    await poll(() => misplaced.locator('strong').textContent()).toBe('d2→e2');
    // (A piece stands where the corrected game has none: d2 reading empty is no dead sensor.)
    expect(await card().locator('.alert[data-kind="sensor_fault"]').count()).toBe(0);
    await correct(1, 'h2a2');
    await poll(() => card().locator('.message').textContent()).toContain('ply 1, h2a2');
    await correct(1, 'h2e2');
    await poll(() => session.view().moves).toEqual(['h2e2']);
    await poll(() => misplaced.count()).toBe(0);
    await poll(() => card().locator('.message').textContent()).toBe('');
  });

  it('new game against the engine: its move is shown with an arrow', async () => {
    await card().locator('select.engine-side').selectOption('red');
    await card().locator('button[data-action="new"]').click();
    await poll(() => controller.sessions.get('board1')!.engineState().opponent?.side).toBe('red');
    await poll(() => card().locator('.hint-box').textContent(), { timeout: HINT_ANSWER_MS }).toMatch(
      /^The engine plays: .+ \((\+|-)?\d+\.\d|mate/,
    );
    expect(await card().locator('.arrow.hint').count()).toBeGreaterThan(0);
    const expected = controller.sessions.get('board1')!.engineState().expected;
    expect(expected).toMatch(/^[a-i]\d[a-i]\d$/);
  });
});

describe('web port', () => {
  it('a port in use stops the controller with an error naming web.port', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-web-port-'));
    const blocker = createServer();
    const taken = await new Promise<number>((resolve) =>
      blocker.listen(0, () => {
        const a = blocker.address();
        resolve(typeof a === 'object' && a ? a.port : 0);
      }),
    );
    const controller = new Controller({
      config: configFor(dir, { mqtt: 0, ws: 0, web: taken }),
      listen: { mqttPort: 0, wsPort: 0 },
    });
    try {
      const started = await controller.start();
      expect(started.ok).toBe(false);
      if (started.ok) return;
      expect(started.error).toMatchObject({ code: 'port_in_use', key: 'web.port', port: taken });
      expect(started.error.message).toContain('web.port');
    } finally {
      await controller.stop();
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
