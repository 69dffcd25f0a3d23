/**
 * The bridge's contract checked over a real broker (the embedded aedes or a Mosquitto): the same
 * scenario for both. Exact topics, payloads, retain flags and QoS; each move in the journal on
 * disk before its MQTT message arrives; bad requests answered with errors that name the problem.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { stderrLogger } from '../../src/controller/bus.js';
import { Controller } from '../../src/controller/controller.js';
import { Game } from '../../src/game/game.js';
import { parseIccs } from '../../src/rules/iccs.js';
import { journaledMoves, type Recorder } from './support.js';

export const BASE = 'xqtest';

export function testConfig(
  mqtt: { embedded: true; port: number; wsPort?: number } | { embedded: false; url: string },
) {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-mqtt-'));
  const config = configSchema.parse({
    boards: [
      {
        id: 'board1',
        source: { driver: 'simulator', heartbeatMs: 1000 },
        leds: { driver: 'wled', topic: 'wled/board1', brightness: 100 },
      },
      { id: 'board2', source: { driver: 'simulator', heartbeatMs: 1000 } },
    ],
    mqtt: mqtt.embedded
      ? {
          embedded: true,
          port: mqtt.port === 0 ? 1883 : mqtt.port,
          wsPort: mqtt.wsPort ?? 0,
          baseTopic: BASE,
        }
      : { embedded: false, url: mqtt.url, baseTopic: BASE },
    archive: { dir },
    web: { enabled: false },
  });
  // Port 0: the system picks a free one (the schema asks for a real port number).
  const fixed = mqtt.embedded && mqtt.port === 0 ? { ...config, mqtt: { ...config.mqtt, port: 0 } } : config;
  return { config: fixed, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function newController(config: ReturnType<typeof testConfig>['config']): Controller {
  const quiet = process.env.XQBOARD_TEST_LOG ? stderrLogger : undefined;
  return new Controller({ config, handMs: 150, ...(quiet ? { logger: quiet } : {}) });
}

const fenAfter = (...moves: string[]): string => {
  const game = Game.start();
  if (!game.ok) throw new Error(game.error.message);
  for (const m of moves) {
    const move = parseIccs(m);
    if (!move.ok || !game.value.play(move.value).ok) throw new Error(`bad move ${m}`);
  }
  return game.value.fen;
};

/**
 * Plays h2e2 and h9g7 on board1 through `board/simulate` requests and checks every message.
 * `viewer` subscribed to `<base>/#` and `wled/#` before the moves.
 */
export async function playTwoMoves(viewer: Recorder, dir: string): Promise<void> {
  const move = `${BASE}/board1/move`;
  // What the journal held on disk when each move message arrived.
  const journalAtArrival: string[][] = [];
  viewer.client.on('message', (topic) => {
    if (topic === move) journalAtArrival.push(journaledMoves(dir));
  });

  const board2Before = viewer.on(`${BASE}/board2/move`).length;
  const response = await viewer.request(
    BASE,
    'board/simulate',
    { board: 'board1', move: 'h2e2', transaction: 'm1' },
    'm1',
  );
  expect(response).toEqual({ data: { iccs: 'h2e2' }, status: 'ok', transaction: 'm1' });
  await viewer.until('the move h2e2', () => viewer.on(move).length >= 1);
  const [first] = viewer.on(move);
  expect(first).toMatchObject({ topic: move, retain: false, qos: 1 });
  const payload = JSON.parse(first!.text);
  expect(payload).toEqual({
    game: expect.stringMatching(/^\d{8}-\d{6}-[0-9a-f]{4}$/),
    ply: 1,
    iccs: 'h2e2',
    wxf: 'C2.5',
    zh: '炮二平五',
    color: 'red',
    check: false,
    capture: false,
    fen: fenAfter('h2e2'),
    t: expect.any(Number),
    seq: expect.any(Number),
  });

  // Chinese notation works as well.
  const second = await viewer.request(
    BASE,
    'board/simulate',
    { board: 'board1', move: '马8进7', transaction: 2 },
    2,
  );
  expect(second).toMatchObject({ status: 'ok', data: { iccs: 'h9g7' }, transaction: 2 });
  await viewer.until('the move h9g7', () => viewer.on(move).length >= 2);
  expect(JSON.parse(viewer.on(move)[1]!.text)).toMatchObject({
    ply: 2,
    iccs: 'h9g7',
    color: 'black',
    fen: fenAfter('h2e2', 'h9g7'),
  });

  // Durable before announced.
  expect(journalAtArrival).toEqual([['h2e2'], ['h2e2', 'h9g7']]);

  // The live position follows, with the whole game.
  await viewer.until('the position after ply 2', () =>
    viewer.json(`${BASE}/board1/position`).some((p) => p.ply === 2),
  );
  const position = viewer.json(`${BASE}/board1/position`).find((p) => p.ply === 2)!;
  expect(position).toEqual({
    game: payload.game,
    startFen: fenAfter(),
    fen: fenAfter('h2e2', 'h9g7'),
    ply: 2,
    moves: ['h2e2', 'h9g7'],
    lastMove: 'h9g7',
    turn: 'red',
    check: false,
    status: 'playing',
    result: '*',
    reason: null,
    seq: expect.any(Number),
  });
  await viewer.until('the PGN after ply 2', () =>
    viewer.on(`${BASE}/board1/pgn`).some((m) => m.text.includes('h9g7')),
  );
  const pgn = viewer.on(`${BASE}/board1/pgn`).at(-1)!;
  expect(pgn.qos).toBe(1);
  expect(pgn.text).toContain('[Game "Chinese Chess"]');
  expect(pgn.text).toMatch(/1\. h2e2 \{\[%clk [0-9:]+\]\} h9g7/);

  // Every live message of board1 carries the next seq: no gap.
  const live = viewer.messages.filter(
    (m) => m.topic.startsWith(`${BASE}/board1/`) && !m.retain && !m.topic.endsWith('/pgn'),
  );
  const seqs = live.map((m) => JSON.parse(m.text).seq as number);
  const pgnCount = viewer.messages.filter((m) => m.topic === `${BASE}/board1/pgn` && !m.retain).length;
  expect(seqs.length).toBeGreaterThan(4);
  // The PGN text has no room for a seq; it takes its number all the same.
  expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length + pgnCount);
  // The other board did not move.
  expect(viewer.on(`${BASE}/board2/move`).length).toBe(board2Before);
}

/** Requests that are wrong in every way get an error each, and the controller goes on. */
export async function badRequests(viewer: Recorder): Promise<void> {
  const cases: { name: string; payload: string; error: RegExp; transaction: string | number | null }[] = [
    { name: 'board/simulate', payload: 'not json', error: /not JSON/, transaction: null },
    {
      name: 'board/simulate',
      payload: '{"board":"board1","move":5,"transaction":7}',
      error: /"move"/,
      transaction: 7,
    },
    {
      name: 'board/simulate',
      payload: '{"board":"board1","transaction":"a"}',
      error: /exactly one of/,
      transaction: 'a',
    },
    {
      name: 'board/simulate',
      payload: '{"board":"nope","move":"h0g2","transaction":"b"}',
      error: /no board "nope"/,
      transaction: 'b',
    },
    {
      name: 'board/simulate',
      payload: '{"move":"h0g2","transaction":"c"}',
      error: /"board" is required/,
      transaction: 'c',
    },
    {
      name: 'board/simulate',
      payload: '{"board":"board1","move":"h0h9","transaction":"d"}',
      error: /bad_move/,
      transaction: 'd',
    },
    {
      name: 'board/simulate',
      payload: '{"board":"board1","move":"h0g2","colour":"red","transaction":"e"}',
      error: /"colour"/,
      transaction: 'e',
    },
    {
      name: 'game/options',
      payload: '{"board":"board1","transaction":"f"}',
      error: /takebacks/,
      transaction: 'f',
    },
    {
      name: 'game/new',
      payload: '{"board":"board1","fen":"xyz","transaction":"g"}',
      error: /bad_position/,
      transaction: 'g',
    },
    {
      name: 'game/draw',
      payload: '{"board":"board1","action":"maybe","transaction":"h"}',
      error: /"action"/,
      transaction: 'h',
    },
    { name: 'frobnicate', payload: '{}', error: /unknown request "frobnicate"/, transaction: null },
    { name: 'board/simulate', payload: '[1,2]', error: /payload/, transaction: null },
  ];
  for (const c of cases) {
    const topic = `${BASE}/bridge/response/${c.name}`;
    const before = viewer.on(topic).length;
    await viewer.client.publishAsync(`${BASE}/bridge/request/${c.name}`, c.payload, { qos: 1 });
    await viewer.until(`the answer to ${c.payload}`, () => viewer.on(topic).length > before);
    const answer = viewer.on(topic)[before]!;
    expect(answer).toMatchObject({ retain: false, qos: 1 });
    const r = JSON.parse(answer.text);
    expect(r, c.payload).toMatchObject({ status: 'error', data: {}, transaction: c.transaction });
    expect(r.error, c.payload).toMatch(c.error);
  }
}
