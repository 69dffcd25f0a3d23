/**
 * Scale-out on real brokers, end to end: two controllers (one board each) publish under one base
 * topic to a venue Mosquitto, which bridges the public topics only (Mosquitto's `connection`
 * bridge, `topic <public>/# out`) to a public Mosquitto the viewers use, with a broadcast delay of
 * a few seconds. Viewers on the public broker see both games exactly, late, whole, with players
 * and clocks; one joining late sees the whole games; broker restarts (venue, then public) leave
 * them whole.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { performRequest } from '../../src/controller/requests.js';
import { makeSquareName, Position, parseIccs } from '../../src/rules/index.js';
import { type RunningMosquitto, runMosquitto } from '../helpers/mosquitto.js';
import { Recorder } from '../mqtt/support.js';

const DELAY_MS = 3000;
const GAMES: Record<string, string[]> = {
  b1: ['h2e2', 'h9g7', 'h0g2', 'i9h9'],
  b2: ['c3c4', 'b9c7', 'b2c2', 'a9b9'],
};

const CHROMIUM = '/usr/bin/chromium';
const WEB_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

let venue: RunningMosquitto;
let browser: Browser;
/** The built viewer page on a plain static file server, as any web host would serve it. */
let statics: Server;
let staticUrl: string;
let pub: RunningMosquitto;
const controllers = new Map<string, Controller>();
const dirs: string[] = [];

async function startController(board: string, number: number, names: [string, string]): Promise<Controller> {
  const dir = mkdtempSync(join(tmpdir(), `xqboard-bridge-${board}-`));
  dirs.push(dir);
  const config = configSchema.parse({
    boards: [
      {
        id: board,
        number,
        source: { driver: 'simulator', heartbeatMs: 0 },
        red: { name: names[0], rating: 2500 + number },
        black: { name: names[1] },
      },
    ],
    mqtt: { embedded: false, url: venue.url, baseTopic: 'ev' },
    archive: { dir },
    web: { enabled: false },
    event: { name: 'Bridge Cup', round: '1' },
    broadcast: { delayMinutes: DELAY_MS / 60_000 },
    game: { clock: { periods: [{ minutes: 15, incrementSeconds: 10 }] } },
  });
  const controller = new Controller({ config, handMs: 40 });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  await controller.sessions.get(board)!.untilPlaying(3000);
  controllers.set(board, controller);
  return controller;
}

/**
 * Plays `moves` on a board's simulator; when each was read, on this process's monotonic clock (this
 * VM's wall clock has stepped by seconds during a test) and on the wall clock (the page's, as
 * Chromium's Date.now() reads it, `wallBefore`). The move is read between `before` (its request
 * sent) and `mono` (its answer back): on a loaded machine that is tens of milliseconds, so a delay
 * counted from the move ends no sooner than `before` + the delay, and no later than `mono` + it.
 */
async function play(
  board: string,
  moves: string[],
): Promise<{ before: number; wallBefore: number; mono: number }[]> {
  const at: { before: number; wallBefore: number; mono: number }[] = [];
  for (const move of moves) {
    const before = performance.now();
    const wallBefore = Date.now();
    const { result } = await performRequest(controllers.get(board)!.context, 'board/simulate', { move });
    if (!result.ok) throw new Error(`${board} ${move}: ${result.error.message}`);
    at.push({ before, wallBefore, mono: performance.now() });
  }
  return at;
}

/** The games as a viewer of `<public>/#` has them now: the moves of each board's current game, in order. */
function gamesSeen(
  viewer: Recorder,
): Record<string, { moves: string[]; game: Record<string, unknown>; status: Record<string, unknown> }> {
  const out: Record<
    string,
    { moves: string[]; game: Record<string, unknown>; status: Record<string, unknown> }
  > = {};
  for (const board of Object.keys(GAMES)) {
    const last = (topic: string) => {
      const m = viewer
        .on(`ev/public/${board}/${topic}`)
        .filter((r) => r.text !== '')
        .at(-1);
      return m ? (JSON.parse(m.text) as Record<string, unknown>) : undefined;
    };
    const game = last('game');
    const status = last('status');
    if (!game || !status) continue;
    const moves: string[] = [];
    for (let ply = 1; ply <= (status.ply as number); ply++) {
      const m = last(`moves/${ply}`);
      if (!m || m.game !== status.game) break;
      moves.push(m.iccs as string);
    }
    out[board] = { moves, game, status };
  }
  return out;
}

const whole = (viewer: Recorder, expected: Record<string, string[]>) => () => {
  const seen = gamesSeen(viewer);
  return Object.entries(expected).every(
    ([b, moves]) => seen[b]?.status.ply === moves.length && seen[b]?.moves.join(' ') === moves.join(' '),
  );
};

beforeAll(async () => {
  pub = await runMosquitto({ websockets: true, persistence: true });
  venue = await runMosquitto({
    extra: [
      'connection public',
      `address 127.0.0.1:${pub.port}`,
      'bridge_protocol_version mqttv311',
      'try_private false',
      'cleansession true',
      'restart_timeout 1 2',
      // Only the public mirror leaves the venue.
      'topic ev/public/# out 1',
    ].join('\n'),
  });
  statics = createServer((req, res) => {
    const name = new URL(req.url ?? '/', 'http://x').pathname.slice(1) || 'viewer.html';
    const file = join(WEB_DIR, name);
    if (!/^[a-z.]+$/.test(name) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const types: Record<string, string> = {
      '.html': 'text/html',
      '.js': 'text/javascript',
      '.css': 'text/css',
    };
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => statics.listen(0, '127.0.0.1', r));
  const address = statics.address();
  staticUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  await startController('b1', 1, ['Hu Ronghua', 'Yang Guanlin']);
  await startController('b2', 2, ['Xu Tianhong', 'Lü Qin']);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => statics?.close(r));
  for (const c of controllers.values()) await c.stop();
  await venue?.stop();
  await pub?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The viewer page in Chromium, 390 px wide like a phone, on the public broker. */
async function openViewer(query = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${staticUrl}/viewer.html?broker=ws://127.0.0.1:${pub.wsPort}&base=ev/public${query}`);
  return { page, errors };
}

/** The pieces after `moves` as the viewer page draws them: `<square> <colour>`, sorted. */
function piecesAfter(moves: string[]): string[] {
  const position = Position.default();
  for (const iccs of moves) {
    const move = parseIccs(iccs);
    if (!move.ok) throw new Error(iccs);
    position.play(move.value);
  }
  const out: string[] = [];
  position.toSetup().board.forEach((piece, sq) => {
    if (piece) out.push(`${makeSquareName(sq)} ${piece.color}`);
  });
  return out.sort();
}

/** The pieces an overview card draws, as `piecesAfter` has them. */
async function cardPieces(page: Page, board: string): Promise<string[]> {
  const pieces = await page
    .locator(`.vcard[data-board="${board}"] .piece`)
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-square'), e.getAttribute('class')]));
  return pieces.map(([sq, cls]) => `${sq} ${/\bred\b/.test(cls ?? '') ? 'red' : 'black'}`).sort();
}

/** A clock's time as the viewer page writes it (m:ss). */
const clockText = (ms: number): string => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The moves a viewer page shows for a board (its page), by their ICCS. */
async function pageMoves(page: Page): Promise<string[]> {
  return page
    .locator('.vmoves [data-iccs]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-iccs')!));
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('venue broker bridged to a public broker', () => {
  it('viewers see both games exactly, late, whole, with players and clocks; late joiners and restarts too', async () => {
    // Subscribed to everything on the public broker; reconnects by itself when it restarts.
    const viewer = await Recorder.connect(pub.url, ['#'], { reconnectPeriod: 300 });
    const arrived = new Map<string, number>();
    viewer.client.on('message', (topic, payload) => {
      if (payload.length > 0 && !arrived.has(topic)) arrived.set(topic, performance.now());
    });
    const overview = await openViewer();
    // When each card first showed each ply (the page's clock is this machine's, as Date.now()).
    await overview.page.evaluate(`(() => {
      window.plyShownAt = {};
      setInterval(() => {
        for (const card of document.querySelectorAll('.vcard')) {
          const at = (window.plyShownAt[card.dataset.board] ??= {});
          for (let k = 1; k <= Number(card.dataset.ply); k++) at[k] ??= Date.now();
        }
      }, 20);
    })()`);
    const [b1, b2] = await Promise.all([
      play('b1', GAMES.b1!.slice(0, 2)),
      play('b2', GAMES.b2!.slice(0, 2)),
    ]);
    const first = { b1: GAMES.b1!.slice(0, 2), b2: GAMES.b2!.slice(0, 2) };
    await viewer.until('both games, two moves each', whole(viewer, first), 20_000);
    // Late: every move reached the public broker the delay after it was played, not before.
    for (const [board, times] of [
      ['b1', b1],
      ['b2', b2],
    ] as const) {
      for (const [i, t] of times.entries()) {
        const at = arrived.get(`ev/public/${board}/moves/${i + 1}`)!;
        expect(at - t.before).toBeGreaterThanOrEqual(DELAY_MS - 50);
        expect(at - t.mono).toBeLessThan(DELAY_MS + 3000);
      }
    }
    // The page too: it showed no move before the delay after it was played.
    const card = (b: string) => overview.page.locator(`.vcard[data-board="${b}"]`);
    const shownAt = async () =>
      (await overview.page.evaluate('window.plyShownAt')) as Record<string, Record<string, number>>;
    await waitFor('the overview at two moves each', async () => {
      const at = await shownAt();
      return at.b1?.[2] !== undefined && at.b2?.[2] !== undefined;
    });
    const shown = await shownAt();
    for (const [board, times] of [
      ['b1', b1],
      ['b2', b2],
    ] as const) {
      for (const [i, t] of times.entries())
        expect(shown[board]![i + 1]! - t.wallBefore).toBeGreaterThanOrEqual(DELAY_MS - 50);
    }
    expect(await cardPieces(overview.page, 'b1')).toEqual(piecesAfter(first.b1));
    // Nothing but the public mirror crossed the bridge: no request, response, alert or state.
    expect(viewer.messages.every((m) => m.topic.startsWith('ev/public/'))).toBe(true);
    const seen = gamesSeen(viewer);
    expect(seen.b1!.game).toMatchObject({
      meta: {
        event: 'Bridge Cup',
        round: '1',
        number: 1,
        red: { name: 'Hu Ronghua', rating: 2501 },
        black: { name: 'Yang Guanlin' },
      },
      delayMs: DELAY_MS,
    });
    expect(seen.b2!.game).toMatchObject({ meta: { number: 2, red: { name: 'Xu Tianhong' } } });
    expect(seen.b1!.status.clock).toMatchObject({ running: 'red' });
    expect((seen.b1!.status.clock as { red: number }).red).toBeGreaterThan(14 * 60_000);

    // The venue broker restarts: the controllers reconnect and publish the public state again.
    await venue.restart();
    await play('b1', GAMES.b1!.slice(2));
    await viewer.until('b1 whole after the venue restart', whole(viewer, { b1: GAMES.b1! }), 30_000);

    // The public broker restarts: it keeps its retained messages, viewers reconnect and resubscribe.
    await pub.restart();
    await play('b2', GAMES.b2!.slice(2));
    await viewer.until('both whole after the public restart', whole(viewer, GAMES), 30_000);

    // The page open all along (it reconnected by itself): both boards, whole, with players and clocks.
    await waitFor(
      'the overview, whole',
      async () =>
        (await card('b1').getAttribute('data-ply')) === '4' &&
        (await card('b2').getAttribute('data-ply')) === '4',
    );
    expect(await card('b1').locator('.players').textContent()).toContain('Hu Ronghua');
    expect(await card('b2').locator('.players').textContent()).toContain('Lü Qin');
    // Exactly the games: every piece where the moves put it.
    for (const b of ['b1', 'b2']) expect(await cardPieces(overview.page, b)).toEqual(piecesAfter(GAMES[b]!));
    // The clocks: the side not to move shows the time the last status gave it (Red runs now).
    const final = gamesSeen(viewer);
    for (const b of ['b1', 'b2']) {
      const clock = final[b]!.status.clock as { red: number; black: number; running: string };
      expect(clock.running).toBe('red');
      expect(await card(b).locator('.vclock.black').textContent()).toBe(clockText(clock.black));
      expect(await card(b).locator('.vclock.red').textContent()).toMatch(/^1[45]:\d\d$/);
    }
    // It fits a 390 px phone: nothing wider than the screen.
    expect(Number(await overview.page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(
      390,
    );
    expect(overview.errors).toEqual([]);

    // A viewer joining late sees both games whole, from the retained messages alone.
    const boardPage = await openViewer('&board=b2');
    await waitFor('the board page, whole', async () => (await pageMoves(boardPage.page)).length === 4);
    expect(await pageMoves(boardPage.page)).toEqual(GAMES.b2);
    expect(await boardPage.page.locator('.vboardpage .players').allTextContents()).toEqual([
      expect.stringContaining('Lü Qin'),
      expect.stringContaining('Xu Tianhong'),
    ]);
    expect(Number(await boardPage.page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(
      390,
    );
    expect(boardPage.errors).toEqual([]);
    const late = await Recorder.connect(pub.url, ['ev/public/#']);
    await late.until('both games whole for a late viewer', whole(late, GAMES), 20_000);
    expect(gamesSeen(late).b2!.moves).toEqual(controllers.get('b2')!.sessions.get('b2')!.view().moves);
    await viewer.end();
    await late.end();
  });
});
