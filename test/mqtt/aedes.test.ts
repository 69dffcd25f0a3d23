/**
 * The controller with its embedded aedes broker, over real sockets (TCP and WebSocket), seen by
 * mqtt.js clients: retained bridge state and board state for late viewers, moves at QoS 1 after
 * the journal has them, WLED commands, hints, bad requests, and offline on stop. Each test runs a
 * controller of its own on ports the system picked: they pass in any order, alone or together.
 */
import { describe, expect, it } from 'vitest';
import { ledIndex } from '../../src/leds/wled.js';
import { BASE, badRequests, boardPlaying, fenAfter, playTwoMoves, type Rig, startRig } from './scenario.js';
import { HINT_ANSWER_MS, Recorder } from './support.js';

async function withRig(test: (rig: Rig) => Promise<void>, options: { ws?: boolean } = {}): Promise<void> {
  const rig = await startRig(options);
  try {
    await test(rig);
  } finally {
    await rig.stop();
  }
}

describe('the MQTT bridge on the embedded broker', () => {
  it('announces itself retained, with its boards and requests', () =>
    withRig(async ({ viewer }) => {
      await viewer.until('bridge/state', () => viewer.on(`${BASE}/bridge/state`).length > 0);
      expect(viewer.on(`${BASE}/bridge/state`)[0]).toEqual({
        topic: `${BASE}/bridge/state`,
        text: '{"state":"online"}',
        retain: true,
        qos: 1,
      });
      await viewer.until('bridge/info', () => viewer.on(`${BASE}/bridge/info`).length > 0);
      const info = viewer.json(`${BASE}/bridge/info`)[0]!;
      expect(info).toMatchObject({
        baseTopic: BASE,
        boards: [
          { id: 'board1', driver: 'simulator', sensing: 'occupancy' },
          { id: 'board2', driver: 'simulator', sensing: 'occupancy' },
        ],
      });
      expect(info.requests).toContain('board/simulate');
      await viewer.until('availability', () => viewer.on(`${BASE}/board1/availability`).length > 0);
      const availability = viewer.on(`${BASE}/board1/availability`)[0]!;
      expect(availability).toMatchObject({ retain: true, qos: 1 });
      expect(JSON.parse(availability.text)).toEqual({ state: 'online', seq: expect.any(Number) });
    }));

  it('plays moves: journaled first, then published with their notation, position and PGN', () =>
    withRig(async ({ viewer, dir }) => {
      await boardPlaying(viewer);
      await playTwoMoves(viewer, dir);
    }));

  it('lights the lifted piece and its targets, then the last move, on WLED (QoS 0, not retained)', () =>
    withRig(async ({ viewer, dir, url }) => {
      await boardPlaying(viewer);
      await playTwoMoves(viewer, dir);
      const layout = { offset: 0, serpentine: false };
      const segments = () =>
        viewer
          .on('wled/board1/api')
          .map((m) => JSON.parse(m.text) as { seg?: { i: (number | string)[] } })
          .flatMap((c) => (c.seg ? [c.seg.i] : []));
      const colourAt = (i: (number | string)[], sq: number) => {
        const k = i.indexOf(ledIndex(sq, layout), 3);
        return k < 0 ? undefined : i[k + 1];
      };
      const api = viewer.on('wled/board1/api');
      expect(api.length).toBeGreaterThan(1);
      for (const m of api) expect(m).toMatchObject({ retain: false, qos: 0 });
      for (const i of segments()) expect(i.slice(0, 3)).toEqual([0, 90, '000000']);
      // Black's horse lifted from h9 (square 88): white, its targets g7 (69) and i7 (71) green,
      // Red's last move h2e2 still shown: from h2 (25) dim amber, to e2 (22) amber.
      expect(
        segments().some(
          (i) =>
            colourAt(i, 88) === 'FFFFFF' &&
            colourAt(i, 69) === '00FF00' &&
            colourAt(i, 71) === '00FF00' &&
            colourAt(i, 25) === '402000' &&
            colourAt(i, 22) === 'FF8000',
        ),
      ).toBe(true);
      const showsLastMove = (i: (number | string)[]) =>
        colourAt(i, 88) === '402000' && colourAt(i, 69) === 'FF8000' && i.length === 7;
      await viewer.until('the last move h9g7 on the LEDs', () => segments().some(showsLastMove));

      // WLED restarted (it says so on its status topic): power first, then the frame again.
      const before = viewer.on('wled/board1/api').length;
      const wled = await Recorder.connect(url, [], { username: 'wled-board1', password: 'led' });
      await wled.client.publishAsync('wled/board1/status', 'online', { qos: 0 });
      await viewer.until('WLED set up again', () => viewer.on('wled/board1/api').length >= before + 2);
      await wled.end();
      const again = viewer.on('wled/board1/api').slice(before);
      expect(JSON.parse(again[0]!.text)).toEqual({ on: true, bri: 100 });
      expect(showsLastMove(JSON.parse(again[1]!.text).seg.i)).toBe(true);
    }));

  it('a late viewer gets the whole game from retained messages, and no past move', () =>
    withRig(async ({ viewer, dir, url }) => {
      await boardPlaying(viewer);
      await playTwoMoves(viewer, dir);
      const late = await Recorder.connect(url, [`${BASE}/board1/#`, `${BASE}/bridge/state`]);
      const retained = ['availability', 'position', 'state', 'result', 'pgn', 'alerts'];
      // Retained messages come in no set order: wait for each of them.
      await late.until('retained state', () =>
        retained.every((t) => late.on(`${BASE}/board1/${t}`).length > 0),
      );
      for (const topic of retained) {
        expect(late.on(`${BASE}/board1/${topic}`), topic).toEqual([
          expect.objectContaining({ retain: true, qos: 1 }),
        ]);
      }
      // Where the game stands, and each of its moves on its own retained topic.
      const position = late.json(`${BASE}/board1/position`)[0]!;
      expect(position).toMatchObject({ ply: 2, lastMove: 'h9g7' });
      expect(position).not.toHaveProperty('moves');
      const records = [1, 2].map((ply) => `${BASE}/board1/moves/${ply}`);
      await late.until('the moves', () => records.every((t) => late.on(t).length > 0));
      for (const topic of records) {
        expect(late.on(topic), topic).toEqual([expect.objectContaining({ retain: true, qos: 1 })]);
      }
      expect(records.map((t) => late.json(t)[0])).toEqual([
        expect.objectContaining({ game: position.game, ply: 1, iccs: 'h2e2', zh: '炮二平五', color: 'red' }),
        expect.objectContaining({ game: position.game, ply: 2, iccs: 'h9g7', wxf: 'H8+7', color: 'black' }),
      ]);
      expect(late.on(`${BASE}/board1/moves/3`)).toEqual([]);
      // The retained PGN is the one of the game's start (moves are not published with it).
      expect(late.on(`${BASE}/board1/pgn`)[0]!.text).not.toContain('h2e2');
      expect(late.json(`${BASE}/board1/result`)[0]).toMatchObject({
        result: '*',
        reason: null,
        final: false,
      });
      expect(late.json(`${BASE}/board1/state`)[0]).toMatchObject({ state: 'awaiting_move' });
      expect(late.on(`${BASE}/board1/move`)).toEqual([]);
      expect(late.on(`${BASE}/board1/alert`)).toEqual([]);
      expect(late.json(`${BASE}/board1/alerts`)[0]).toMatchObject({ active: [] });
      await late.end();

      // A takeback (the board shows the position after ply 1 again): ply 2's record is cleared with
      // an empty retained payload, and a viewer joining now has ply 1 and no ply 2.
      const ply2 = `${BASE}/board1/moves/2`;
      await viewer.request(
        BASE,
        'board/simulate',
        { board: 'board1', fen: fenAfter('h2e2'), transaction: 'tb' },
        'tb',
      );
      await viewer.until('the takeback', () =>
        viewer.json(`${BASE}/board1/retract`).some((r) => r.ply === 2),
      );
      await viewer.until('ply 2 cleared', () => viewer.on(ply2).length === 2);
      expect(viewer.on(ply2)[1]).toMatchObject({ text: '', qos: 1 });
      await viewer.until('the position after the takeback', () =>
        viewer.json(`${BASE}/board1/position`).some((p) => p.ply === 1 && p.game === position.game),
      );
      const later = await Recorder.connect(url, [`${BASE}/board1/#`]);
      const expected = [...retained, 'moves/1'].map((t) => `${BASE}/board1/${t}`);
      await later.until('retained state', () => expected.every((t) => later.on(t).length > 0));
      expect(later.json(`${BASE}/board1/position`)[0]).toMatchObject({ ply: 1, lastMove: 'h2e2' });
      expect(later.json(`${BASE}/board1/moves/1`)[0]).toMatchObject({ ply: 1, iccs: 'h2e2' });
      expect(later.on(ply2)).toEqual([]);
      await later.end();

      // The game ends (Black, to move, resigns): the PGN goes out whole, with its moves and result.
      const pgnsBefore = viewer.on(`${BASE}/board1/pgn`).length;
      await viewer.request(BASE, 'game/resign', { board: 'board1', transaction: 'r' }, 'r');
      await viewer.until('the final PGN', () => viewer.on(`${BASE}/board1/pgn`).length > pgnsBefore);
      const final = viewer.on(`${BASE}/board1/pgn`).at(-1)!;
      expect(final).toMatchObject({ qos: 1 });
      expect(final.text).toMatch(/1\. h2e2 \{\[%emt [0-9:]+\]\} 1-0/);
      expect(final.text).toContain('[Result "1-0"]');
    }));

  it('serves browsers over WebSocket', () =>
    withRig(
      async ({ wsPort }) => {
        const browser = await Recorder.connect(`ws://127.0.0.1:${wsPort!}`, [`${BASE}/bridge/state`]);
        await browser.until(
          'bridge/state over WebSocket',
          () => browser.on(`${BASE}/bridge/state`).length > 0,
        );
        expect(browser.on(`${BASE}/bridge/state`)[0]).toMatchObject({
          text: '{"state":"online"}',
          retain: true,
        });
        await browser.end();
      },
      { ws: true },
    ));

  it('answers a hint request and publishes the hint', () =>
    withRig(async ({ viewer }) => {
      await boardPlaying(viewer);
      const r = await viewer.request(
        BASE,
        'game/hint',
        { board: 'board1', transaction: 'h' },
        'h',
        HINT_ANSWER_MS,
      );
      expect(r).toMatchObject({
        status: 'ok',
        transaction: 'h',
        data: { ply: 1, iccs: expect.stringMatching(/^[a-i]\d[a-i]\d$/) },
      });
      await viewer.until('the hint', () => viewer.on(`${BASE}/board1/hint`).length > 0);
      const hint = viewer.on(`${BASE}/board1/hint`)[0]!;
      expect(hint).toMatchObject({ retain: false, qos: 1 });
      expect(JSON.parse(hint.text)).toMatchObject({ ply: 1, iccs: (r.data as { iccs: string }).iccs });
    }));

  it('answers every bad request with an error naming the problem, and goes on', () =>
    withRig(async ({ viewer }) => {
      await boardPlaying(viewer);
      await badRequests(viewer);
      const r = await viewer.request(
        BASE,
        'game/options',
        { board: 'board1', takebacks: false, transaction: 'o' },
        'o',
      );
      expect(r).toEqual({
        data: { takebacks: false, illegalMovePolicy: 'casual' },
        status: 'ok',
        transaction: 'o',
      });
      const moved = await viewer.request(
        BASE,
        'board/simulate',
        { board: 'board1', move: 'h0g2', transaction: 'z' },
        'z',
      );
      expect(moved).toMatchObject({ status: 'ok' });
      await viewer.until('h0g2', () => viewer.json(`${BASE}/board1/move`).some((m) => m.iccs === 'h0g2'));
    }));

  it('resigns through a request: the result is retained and final', () =>
    withRig(async ({ viewer }) => {
      await boardPlaying(viewer);
      const r = await viewer.request(
        BASE,
        'game/resign',
        { board: 'board1', side: 'black', transaction: 'r' },
        'r',
      );
      expect(r).toMatchObject({
        status: 'ok',
        data: { result: '1-0', reason: 'resignation', status: 'over' },
      });
      await viewer.until('the result', () =>
        viewer.json(`${BASE}/board1/result`).some((m) => m.result === '1-0'),
      );
      const result = viewer.json(`${BASE}/board1/result`).find((m) => m.result === '1-0')!;
      expect(result).toEqual({
        game: expect.any(String),
        result: '1-0',
        reason: 'resignation',
        final: true,
        ply: 0,
        seq: expect.any(Number),
      });
    }));

  it('goes offline when it stops: board availability, then the bridge', () =>
    withRig(async ({ viewer, controller }) => {
      await boardPlaying(viewer);
      await controller.stop();
      const bridgeOffline = (m: { topic: string; text: string }) =>
        m.topic === `${BASE}/bridge/state` && m.text === '{"state":"offline"}';
      await viewer.until('bridge offline', () => viewer.messages.some(bridgeOffline));
      // The retained messages of the viewer's subscription may still be arriving (aedes streams
      // them from its store, interleaved with live ones): the stale retained `online` can come
      // after the live `offline`. A board's state is its message with the highest `seq`.
      const latest = (messages: Record<string, unknown>[]) =>
        messages.reduce((a, b) => ((b.seq as number) > (a.seq as number) ? b : a));
      expect(latest(viewer.json(`${BASE}/board1/availability`))).toMatchObject({
        state: 'offline',
        reason: 'stopped',
      });
      // The board went offline before the bridge did.
      const boardOfflineAt = viewer.messages.findIndex(
        (m) => m.topic === `${BASE}/board1/availability` && JSON.parse(m.text).state === 'offline',
      );
      expect(boardOfflineAt).toBeGreaterThanOrEqual(0);
      expect(boardOfflineAt).toBeLessThan(viewer.messages.findIndex(bridgeOffline));
    }));
});
