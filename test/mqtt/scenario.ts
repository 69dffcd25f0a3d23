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
import { Controller } from '../../src/controller/controller.js';
import { Game } from '../../src/game/game.js';
import { parseIccs } from '../../src/rules/index.js';
import { createLogger } from '../../src/util/log.js';
import { journaledMoves, Recorder } from './support.js';

export const BASE = 'xqtest';

/** Board1's WLED device topic under the base topic `base`. */
export const wledTopic = (base: string): string => `wled/${base === BASE ? 'board1' : `${base}-board1`}`;

/** Two simulated boards (board1 with WLED LEDs), the web page off unless asked. */
export function testConfig(
  mqtt: { embedded: true } | { embedded: false; url: string },
  options: { base?: string; web?: boolean } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-mqtt-'));
  const base = options.base ?? BASE;
  const config = configSchema.parse({
    boards: [
      {
        id: 'board1',
        source: { driver: 'simulator', heartbeatMs: 1000 },
        leds: {
          driver: 'wled',
          topic: wledTopic(base),
          brightness: 100,
        },
      },
      { id: 'board2', source: { driver: 'simulator', heartbeatMs: 1000 } },
    ],
    mqtt: mqtt.embedded
      ? // No WebSocket on the default port (another test may hold it): tests that want one ask for port 0.
        { embedded: true, baseTopic: base, wsPort: 0 }
      : { embedded: false, url: mqtt.url, baseTopic: base },
    archive: { dir },
    web: { enabled: options.web ?? false },
    // Anonymous clients change games here: the test grants it (the default is a viewer).
    access: {
      anonymous: 'arbiter',
      // The WLED device's own login: only it speaks on its topic.
      users: [{ name: 'wled-board1', password: 'led', role: 'led', topic: wledTopic(base) }],
    },
  });
  return { config, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function newController(
  config: ReturnType<typeof testConfig>['config'],
  listen: ConstructorParameters<typeof Controller>[0]['listen'] = { mqttPort: 0 },
): Controller {
  const quiet = process.env.XQBOARD_TEST_LOG ? createLogger() : undefined;
  return new Controller({ config, handMs: 150, listen, ...(quiet ? { logger: quiet } : {}) });
}

export interface Rig {
  readonly controller: Controller;
  readonly dir: string;
  /** The broker's URL (TCP). */
  readonly url: string;
  readonly wsPort?: number;
  readonly webPort?: number;
  readonly base: string;
  /** A viewer subscribed to everything of the base topic and the WLED topics, before the boards started. */
  readonly viewer: Recorder;
  stop(): Promise<void>;
}

/**
 * A controller of its own for one test, on ports the system picked (port 0, read back), with a
 * viewer: no test depends on what another one left.
 */
export async function startRig(
  options: { url?: string; base?: string; ws?: boolean; web?: boolean } = {},
): Promise<Rig> {
  const setup = testConfig(options.url ? { embedded: false, url: options.url } : { embedded: true }, options);
  const base = options.base ?? BASE;
  const controller = newController(setup.config, {
    mqttPort: 0,
    ...(options.ws ? { wsPort: 0 } : {}),
    ...(options.web ? { webPort: 0 } : {}),
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const url = options.url ?? `mqtt://127.0.0.1:${started.value.broker!.port}`;
  const viewer = await Recorder.connect(url, [`${base}/#`, 'wled/#']);
  return {
    controller,
    dir: setup.dir,
    url,
    ...(started.value.broker?.wsPort !== undefined ? { wsPort: started.value.broker.wsPort } : {}),
    ...(started.value.web ? { webPort: started.value.web.port } : {}),
    base,
    viewer,
    async stop() {
      await viewer.end();
      await controller.stop();
      setup.cleanup();
    },
  };
}

/** Waits for board1's game to be under way (the simulated board shows the start position). */
export async function boardPlaying(viewer: Recorder, base = BASE, board = 'board1'): Promise<void> {
  await viewer.until(`${board} playing`, () =>
    viewer.json(`${base}/${board}/position`).some((p) => p.status === 'playing'),
  );
}

export const fenAfter = (...moves: string[]): string => {
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
export async function playTwoMoves(viewer: Recorder, dir: string, base = BASE): Promise<void> {
  const move = `${base}/board1/move`;
  // What the journal held on disk when each move message arrived.
  const journalAtArrival: string[][] = [];
  viewer.client.on('message', (topic) => {
    if (topic === move) journalAtArrival.push(journaledMoves(dir));
  });

  const board2Before = viewer.on(`${base}/board2/move`).length;
  const response = await viewer.request(
    base,
    'board/simulate',
    { board: 'board1', move: 'h2e2', transaction: 'm1' },
    'm1',
  );
  // Answered once the move is recorded.
  expect(response).toEqual({ data: { iccs: 'h2e2', ply: 1 }, status: 'ok', transaction: 'm1' });
  expect(journaledMoves(dir)).toEqual(['h2e2']);
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
    base,
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

  // Each move's record, retained on its own topic, right after the move: the move's payload (no clock runs).
  const records = [1, 2].map((ply) => `${base}/board1/moves/${ply}`);
  await viewer.until('the records of both moves', () => records.every((t) => viewer.on(t).length > 0));
  for (const [i, topic] of records.entries()) {
    expect(viewer.on(topic), topic).toEqual([expect.objectContaining({ qos: 1 })]);
    const moved = JSON.parse(viewer.on(move)[i]!.text);
    expect(JSON.parse(viewer.on(topic)[0]!.text)).toEqual({ ...moved, seq: moved.seq + 1 });
  }

  // The live position follows: where the game stands, not the whole game.
  await viewer.until('the position after ply 2', () =>
    viewer.json(`${base}/board1/position`).some((p) => p.ply === 2),
  );
  const position = viewer.json(`${base}/board1/position`).find((p) => p.ply === 2)!;
  expect(position).toEqual({
    game: payload.game,
    startFen: fenAfter(),
    fen: fenAfter('h2e2', 'h9g7'),
    ply: 2,
    lastMove: 'h9g7',
    turn: 'red',
    check: false,
    status: 'playing',
    result: '*',
    reason: null,
    seq: expect.any(Number),
  });
  // The PGN went out when the game started, and not again for a move.
  const pgns = viewer.on(`${base}/board1/pgn`);
  expect(pgns.length).toBeGreaterThan(0);
  expect(pgns.at(-1)!.qos).toBe(1);
  expect(pgns.at(-1)!.text).toContain('[Game "Chinese Chess"]');
  const firstMove = viewer.messages.indexOf(first!);
  expect(viewer.messages.slice(firstMove).filter((m) => m.topic === `${base}/board1/pgn`)).toEqual([]);
  expect(pgns.every((m) => !m.text.includes('h2e2'))).toBe(true);

  // Every live message of board1 carries the next seq: no gap.
  const board1 = viewer.messages.filter((m) => m.topic.startsWith(`${base}/board1/`) && !m.retain);
  // The PGN text and a cleared record (empty) have no room for a seq; they take their number all the same.
  const unnumbered = board1.filter((m) => m.topic.endsWith('/pgn') || m.text === '').length;
  const seqs = board1
    .filter((m) => !m.topic.endsWith('/pgn') && m.text !== '')
    .map((m) => JSON.parse(m.text).seq as number);
  expect(seqs.length).toBeGreaterThan(4);
  expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length + unnumbered);
  // The other board did not move.
  expect(viewer.on(`${base}/board2/move`).length).toBe(board2Before);
}

/** Requests that are wrong in every way get an error each, and the controller goes on. */
export async function badRequests(viewer: Recorder, base = BASE): Promise<void> {
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
      error: /illegal_move: 'h0h9' is not legal/,
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
    const topic = `${base}/bridge/response/${c.name}`;
    const before = viewer.on(topic).length;
    await viewer.client.publishAsync(`${base}/bridge/request/${c.name}`, c.payload, { qos: 1 });
    await viewer.until(`the answer to ${c.payload}`, () => viewer.on(topic).length > before);
    const answer = viewer.on(topic)[before]!;
    expect(answer).toMatchObject({ retain: false, qos: 1 });
    const r = JSON.parse(answer.text);
    expect(r, c.payload).toMatchObject({ status: 'error', data: {}, transaction: c.transaction });
    expect(r.error, c.payload).toMatch(c.error);
  }
}
