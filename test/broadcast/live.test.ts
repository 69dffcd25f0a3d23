/**
 * Event metadata, the live PGN over HTTP and the public MQTT mirror, on a real controller with two
 * simulated boards: the live PGN read back by our own PGN reader is the game after every move and
 * once finished, with the players and the event; a poll without a change is 304; an arbiter's
 * `event/meta` reaches the PGN, the retained position and the archive; public topics carry no
 * requests or responses, each move once, and the delay holds them back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { type ConfigInput, configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { performRequest } from '../../src/controller/requests.js';
import { gameOfJournal } from '../../src/record/archive.js';
import { listJournals } from '../../src/record/journal.js';
import { readPgn } from '../../src/record/pgn.js';
import { Recorder } from '../mqtt/support.js';

const MOVES = ['h2e2', 'h9g7', 'h0g2', 'i9h9', 'i0h0', 'b9c7'];

const running: { controller: Controller; dir: string }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.controller.stop();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

async function start(extra: Partial<ConfigInput> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-live-'));
  const config = configSchema.parse({
    boards: [
      {
        id: 'b1',
        number: 2,
        source: { driver: 'simulator', heartbeatMs: 0 },
        red: { name: 'Lü Qin', rating: 2650, team: 'Guangdong' },
        black: { name: 'Wang Tianyi', rating: 2700 },
      },
      { id: 'b2', number: 1, source: { driver: 'simulator', heartbeatMs: 0 } },
    ],
    mqtt: { wsPort: 0, baseTopic: 'ev' },
    archive: { dir },
    event: { name: 'City Open', site: 'Hall A', round: '3' },
    ...extra,
  });
  const controller = new Controller({ config, handMs: 40, listen: { mqttPort: 0, wsPort: 0, webPort: 0 } });
  running.push({ controller, dir });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  for (const s of controller.sessions.values()) await s.untilPlaying(3000);
  const web = `http://127.0.0.1:${started.value.web!.port}`;
  const mqtt = `mqtt://127.0.0.1:${started.value.broker!.port}`;
  const request = async (name: string, payload: object) => {
    const { result } = await performRequest(controller.context, name, payload);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.data as Record<string, unknown>;
  };
  return { controller, dir, web, mqtt, request };
}

const readLive = async (url: string, etag?: string) => {
  const res = await fetch(url, etag ? { headers: { 'if-none-match': etag } } : {});
  return { status: res.status, etag: res.headers.get('etag') ?? '', text: await res.text() };
};

describe('live PGN and event metadata', () => {
  it('is the game after every move and when finished, with the players; an unchanged poll is 304', async () => {
    const { web, request, controller } = await start();
    let etag = '';
    for (const [i, move] of MOVES.entries()) {
      await request('board/simulate', { board: 'b1', move });
      const live = await readLive(`${web}/boards/b1/live.pgn`);
      expect(live.status).toBe(200);
      expect(live.etag).not.toBe(etag);
      etag = live.etag;
      const [game] = readPgn(live.text);
      if (!game?.ok) throw new Error(live.text);
      expect(game.value.moves.map((m) => m.iccs)).toEqual(MOVES.slice(0, i + 1));
      expect(game.value.result).toBe('*');
      // No clock runs: each move carries the time it took, never a clock time.
      expect(game.value.moves.every((m) => m.emt !== undefined && m.clock === undefined)).toBe(true);
      expect(live.text).not.toContain('%clk');
      const again = await readLive(`${web}/boards/b1/live.pgn`, etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
    }
    await request('game/resign', { board: 'b1', side: 'black' });
    const live = await readLive(`${web}/boards/b1/live.pgn`, etag);
    expect(live.status).toBe(200);
    const [game] = readPgn(live.text);
    if (!game?.ok) throw new Error(live.text);
    expect(game.value.result).toBe('1-0');
    expect(game.value.moves.map((m) => m.iccs)).toEqual(MOVES);
    expect(game.value.tags).toMatchObject({
      Event: 'City Open',
      Site: 'Hall A',
      Round: '3',
      Red: 'Lü Qin',
      Black: 'Wang Tianyi',
      RedElo: '2650',
      BlackElo: '2700',
      RedTeam: 'Guangdong',
      BoardNumber: '2',
    });
    expect(controller.sessions.get('b1')!.view().moves).toEqual(MOVES);

    // The whole round: board number 1 first, then 2.
    const event = await readLive(`${web}/event/live.pgn`);
    const games = readPgn(event.text).map((g) => (g.ok ? g.value : undefined));
    expect(games.map((g) => g?.tags.BoardNumber)).toEqual(['1', '2']);
    expect(games[1]?.moves.map((m) => m.iccs)).toEqual(MOVES);
    expect((await readLive(`${web}/event/live.pgn`, event.etag)).status).toBe(304);
    expect((await readLive(`${web}/boards/nope/live.pgn`)).status).toBe(404);
    // The viewer page, and where it finds the broker and the public topics.
    expect((await fetch(`${web}/viewer.html`)).status).toBe(200);
    const viewer = (await (await fetch(`${web}/viewer.json`)).json()) as { base: string; wsPort: number };
    expect(viewer.base).toBe('ev/public');
    expect(viewer.wsPort).toBeGreaterThan(0);
  });

  it('writes the time left as [%clk] when a clock runs', async () => {
    const { web, request } = await start({
      game: { clock: { periods: [{ minutes: 10, incrementSeconds: 5 }] } },
    });
    for (const move of MOVES.slice(0, 4)) await request('board/simulate', { board: 'b1', move });
    const [game] = readPgn((await readLive(`${web}/boards/b1/live.pgn`)).text);
    if (!game?.ok) throw new Error('unreadable');
    const clocks = game.value.moves.map((m) => m.clock ?? -1);
    // Ten minutes plus the increments, less the seconds the simulated hand took; the first move
    // starts the clock, so Red's first costs nothing.
    expect(clocks[0]).toBe(605_000);
    for (const c of clocks) expect(c).toBeGreaterThan(595_000);
    for (const c of clocks) expect(c).toBeLessThanOrEqual(610_000);
  });

  it("takes an arbiter's metadata into the game under way: PGN, retained position, archive", async () => {
    const { web, request, mqtt, dir } = await start();
    await request('board/simulate', { board: 'b2', move: 'h2e2' });
    const viewer = await Recorder.connect(mqtt, ['ev/b2/position']);
    const answer = await request('event/meta', {
      board: 'b2',
      round: '4',
      red: { name: 'Xu Yinchuan', team: 'Guangdong' },
      black: { name: 'Zhao Xinxin', rating: 2600 },
    });
    expect(answer).toMatchObject({ round: '4', number: 1, red: { name: 'Xu Yinchuan' } });
    await viewer.until('the position with the players', () =>
      viewer.json('ev/b2/position').some((p) => (p.meta as { red?: unknown })?.red !== undefined),
    );
    const position = viewer.json('ev/b2/position').at(-1)!;
    expect(position.meta).toMatchObject({
      event: 'City Open',
      round: '4',
      red: { name: 'Xu Yinchuan', team: 'Guangdong' },
      black: { name: 'Zhao Xinxin', rating: 2600 },
    });
    await viewer.end();
    const [game] = readPgn((await readLive(`${web}/boards/b2/live.pgn`)).text);
    expect(game?.ok && game.value.tags).toMatchObject({ Red: 'Xu Yinchuan', Round: '4', BlackElo: '2600' });
    await request('game/resign', { board: 'b2' });
    const journal = listJournals(dir)
      .flatMap((j) => (j.ok ? [j.value] : []))
      .find((j) => j.start.meta.Board === 'b2')!;
    const archived = gameOfJournal(journal);
    expect(archived.ok && archived.value.tags).toMatchObject({
      Event: 'City Open',
      Round: '4',
      Red: 'Xu Yinchuan',
      Black: 'Zhao Xinxin',
      RedTeam: 'Guangdong',
      BlackElo: '2600',
    });
    // `games show` names the event, the round and the players (it said "?" before).
    const out: string[] = [];
    await main(['games', 'show', journal.start.id, '--dir', dir], { out: (t) => out.push(t), err: () => {} });
    expect(out[0]).toContain('Xu Yinchuan [Guangdong] (Red) – Zhao Xinxin [2600] (Black)');
    expect(out[1]).toContain('City Open, Hall A, round 4, board 1');
    // A bad request says what is wrong.
    const bad = await performRequest({ sessions: new Map() }, 'event/meta', { board: 'b2' });
    expect(bad.result.ok).toBe(false);
  });

  it('mirrors only public topics, each move once, retained for a late viewer, the delay late', async () => {
    const { request, mqtt, web } = await start({ broadcast: { delayMinutes: 0.02 } });
    const early = await Recorder.connect(mqtt, ['ev/public/#']);
    await request('board/simulate', { board: 'b1', move: 'h2e2' });
    const announced = performance.now();
    // The arbiter's live PGN (the session) has it; the public has not yet.
    const before = readPgn((await readLive(`${web}/boards/b1/live.pgn`)).text)[0];
    expect(before?.ok ? before.value.moves.length : 0).toBe(0);
    await early.until('the move, late', () => early.on('ev/public/b1/moves/1').length > 0);
    expect(performance.now() - announced).toBeGreaterThan(1000);
    await request('board/simulate', { board: 'b1', move: 'h9g7' });
    await request('game/get', { board: 'b1' });
    await early.until('the second move', () => early.on('ev/public/b1/moves/2').length > 0);
    await early.until('its status', () => early.json('ev/public/b1/status').some((s) => s.ply === 2));
    expect(early.messages.every((m) => m.topic.startsWith('ev/public/'))).toBe(true);
    expect(early.messages.some((m) => /request|response|alert|state$/.test(m.topic))).toBe(false);
    // Each move once, and no message carries the whole game.
    expect(early.on('ev/public/b1/moves/1')).toHaveLength(1);
    expect(early.messages.every((m) => !m.text.includes('"moves"'))).toBe(true);
    const late = await Recorder.connect(mqtt, ['ev/public/#']);
    await late.until('the whole game', () =>
      ['moves/1', 'moves/2', 'game', 'status'].every((t) => late.on(`ev/public/b1/${t}`).length > 0),
    );
    expect(late.json('ev/public/b1/moves/2')[0]).toMatchObject({ ply: 2, iccs: 'h9g7', color: 'black' });
    expect(late.json('ev/public/b1/game')[0]).toMatchObject({
      meta: { red: { name: 'Lü Qin' }, round: '3' },
      delayMs: 1200,
    });
    await early.end();
    await late.end();
  });
});
