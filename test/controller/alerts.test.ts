/**
 * Every alert kind has an end that every viewer sees. For each kind: raise it on a simulated
 * board, see it active on MQTT (`alert` and the retained `alerts`), on the page's event stream
 * (SSE) and in GET /api/boards; end it, see it end on all three; then a viewer who joins after
 * the end (a new MQTT client, a new event stream, a fresh /api/boards) sees no alert at all.
 *
 * The reader ends its own kinds; the session ends `check` when the side is out of check and every
 * alert when a new game starts (the kinds the reader has no end for here: foul, play_on,
 * record_failed end so); `storage` ends once the write the full disk refused is done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import type { BoardSession } from '../../src/controller/board-session.js';
import { Controller } from '../../src/controller/controller.js';
import { parseSquare, type Square } from '../../src/rules/index.js';
import type { BoardSimulator } from '../../src/sensors/simulator.js';
import { canMountTmpfs, fillTmpfs, mountTmpfs, unmount } from '../helpers/tmpfs.js';
import { Recorder } from '../mqtt/support.js';

const BASE = 'xqalert';
const WAIT = { timeout: 15_000, interval: 25 };

/** The page's event stream, read as the browser does. */
class EventStream {
  readonly events: { topic: string; board: string; payload: Record<string, unknown> }[] = [];
  private readonly abort = new AbortController();
  private constructor() {}

  static async open(url: string): Promise<EventStream> {
    const s = new EventStream();
    const res = await fetch(`${url}/events`, { signal: s.abort.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const topic = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (topic && data)
              s.events.push({
                topic,
                ...(JSON.parse(data) as { board: string; payload: Record<string, unknown> }),
              });
          }
        }
      } catch {
        // closed
      }
    })();
    return s;
  }

  close(): void {
    this.abort.abort();
  }
}

interface Rig {
  controller: Controller;
  session: BoardSession;
  sim: BoardSimulator;
  mqttUrl: string;
  webUrl: string;
  viewer: Recorder;
  sse: EventStream;
  request(name: string, payload: object): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function rig(game: Record<string, unknown> = {}, archiveDir?: string): Promise<Rig> {
  const dir = archiveDir ?? mkdtempSync(join(tmpdir(), 'xqboard-alerts-'));
  const config = configSchema.parse({
    boards: [{ id: 'board1', source: { driver: 'simulator', heartbeatMs: 500 } }],
    mqtt: { baseTopic: BASE },
    game,
    archive: { dir },
    web: { enabled: true },
    // Anonymous clients change games here: the test grants it (the default is a viewer).
    access: { anonymous: 'arbiter' },
  });
  const controller = new Controller({ config, handMs: 120, listen: { mqttPort: 0, wsPort: 0, webPort: 0 } });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const mqttUrl = `mqtt://127.0.0.1:${started.value.broker!.port}`;
  const webUrl = `http://127.0.0.1:${started.value.web!.port}`;
  const viewer = await Recorder.connect(mqttUrl, [`${BASE}/#`]);
  const sse = await EventStream.open(webUrl);
  const session = controller.sessions.get('board1')!;
  await session.untilPlaying(10_000);
  return {
    controller,
    session,
    sim: session.simulator!,
    mqttUrl,
    webUrl,
    viewer,
    sse,
    request: (name, payload) => viewer.request(BASE, name, payload),
    async stop() {
      sse.close();
      await viewer.end();
      await controller.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const sq = (name: string): Square => parseSquare(name)!;

/** A hand moving one piece, without the request API (a move the game may refuse). */
async function hand(r: Rig, from: string, to: string): Promise<void> {
  expect(r.sim.lift(sq(from)).ok).toBe(true);
  await new Promise((done) => setTimeout(done, 80));
  if (r.sim.pieceAt(sq(to))) r.sim.remove(sq(to));
  expect(r.sim.place(sq(to)).ok).toBe(true);
}

async function boardAlerts(r: Rig, url = r.webUrl): Promise<string[]> {
  const res = (await (await fetch(`${url}/api/boards`)).json()) as {
    boards: { alerts: { kind: string }[] }[];
  };
  return res.boards[0]!.alerts.map((a) => a.kind);
}

const mqttAlerts = (r: Recorder, kind: string) =>
  r
    .json(`${BASE}/board1/alert`)
    .filter((a) => a.kind === kind)
    .map((a) => a.active);
const sseAlerts = (s: EventStream, kind: string) =>
  s.events.filter((e) => e.topic === 'alert' && e.payload.kind === kind).map((e) => e.payload.active);
const retainedKinds = (r: Recorder) =>
  ((r.json(`${BASE}/board1/alerts`).at(-1)?.active ?? []) as { kind: string }[]).map((a) => a.kind);

async function seenActive(r: Rig, kind: string): Promise<void> {
  await vi.waitFor(() => expect(mqttAlerts(r.viewer, kind)).toContain(true), WAIT);
  await vi.waitFor(() => expect(sseAlerts(r.sse, kind)).toContain(true), WAIT);
  // The retained set is another message, published after the `alert`: it may not be here yet.
  await vi.waitFor(() => expect(retainedKinds(r.viewer)).toContain(kind), WAIT);
  expect(await boardAlerts(r)).toContain(kind);
  // One feed: the same message has the same number on MQTT and on the page's stream.
  const onMqtt = r.viewer.json(`${BASE}/board1/alert`).find((a) => a.kind === kind && a.active);
  const onSse = r.sse.events.find((e) => e.topic === 'alert' && e.payload.kind === kind && e.payload.active);
  expect(onSse?.payload.seq).toBe(onMqtt?.seq);
}

async function seenEnded(r: Rig, kind: string): Promise<void> {
  await vi.waitFor(() => expect(mqttAlerts(r.viewer, kind).at(-1)).toBe(false), WAIT);
  await vi.waitFor(() => expect(sseAlerts(r.sse, kind).at(-1)).toBe(false), WAIT);
  await vi.waitFor(() => expect(retainedKinds(r.viewer)).not.toContain(kind), WAIT);
  expect(await boardAlerts(r)).not.toContain(kind);
  // Viewers who join now see no alert at all.
  const late = await Recorder.connect(r.mqttUrl, [`${BASE}/board1/#`]);
  await late.until('the retained alerts', () => late.on(`${BASE}/board1/alerts`).length > 0);
  expect(late.json(`${BASE}/board1/alerts`)).toEqual([expect.objectContaining({ active: [] })]);
  expect(late.on(`${BASE}/board1/alert`)).toEqual([]);
  await late.end();
  const stream = await EventStream.open(r.webUrl);
  await vi.waitFor(() => expect(stream.events.some((e) => e.topic === 'alerts')).toBe(true), WAIT);
  stream.close();
  expect(stream.events.filter((e) => e.topic === 'alerts').map((e) => e.payload.active)).toEqual([[]]);
  expect(stream.events.filter((e) => e.topic === 'alert')).toEqual([]);
  expect(await boardAlerts(r)).toEqual([]);
}

async function withRig(
  game: Record<string, unknown>,
  test: (r: Rig) => Promise<void>,
  archiveDir?: string,
): Promise<void> {
  const r = await rig(game, archiveDir);
  try {
    await test(r);
  } finally {
    await r.stop();
  }
}

describe('every alert kind is raised and ended on MQTT, SSE and /api/boards', () => {
  it(
    'illegal_move: ends when the piece is put right',
    () =>
      withRig({}, async (r) => {
        await hand(r, 'e0', 'e2');
        await seenActive(r, 'illegal_move');
        await hand(r, 'e2', 'e0');
        await seenEnded(r, 'illegal_move');
      }),
    60_000,
  );

  it(
    'check: ends when the side in check gets out of it',
    () =>
      withRig({}, async (r) => {
        expect(await r.request('game/new', { fen: '3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1' })).toMatchObject({
          status: 'ok',
          data: { status: 'playing' },
        });
        expect(await r.request('board/simulate', { move: 'e1d1' })).toMatchObject({ status: 'ok' });
        await seenActive(r, 'check');
        expect(await r.request('board/simulate', { move: 'd9e9' })).toMatchObject({ status: 'ok' });
        await seenEnded(r, 'check');
      }),
    60_000,
  );

  it(
    'out_of_sync: ends when the board matches the game again',
    () =>
      withRig({}, async (r) => {
        // Two stray pieces: no single square explains the board, so it is out of step.
        r.sim.place(sq('e4'), { color: 'red', role: 'pawn' });
        r.sim.place(sq('c4'), { color: 'red', role: 'pawn' });
        await seenActive(r, 'out_of_sync');
        r.sim.remove(sq('e4'));
        r.sim.remove(sq('c4'));
        await seenEnded(r, 'out_of_sync');
      }),
    60_000,
  );

  it(
    'sensor_fault: a piece from nowhere is named at once, and the alert ends when it is taken off',
    () =>
      withRig({}, async (r) => {
        // (On e5, where no red piece could have moved: on e4 the soldier's move with e3's sensor
        // stuck would read the same, and the reader would say it cannot yet tell which.)
        r.sim.place(sq('e5'), { color: 'red', role: 'pawn' });
        await seenActive(r, 'sensor_fault');
        r.sim.remove(sq('e5'));
        await seenEnded(r, 'sensor_fault');
      }),
    60_000,
  );

  it(
    'takeback_forbidden: ends when the move is played again',
    () =>
      withRig({ takebacks: false }, async (r) => {
        expect(await r.request('board/simulate', { move: 'h2e2' })).toMatchObject({ status: 'ok' });
        await hand(r, 'e2', 'h2');
        await seenActive(r, 'takeback_forbidden');
        await hand(r, 'h2', 'e2');
        await seenEnded(r, 'takeback_forbidden');
      }),
    60_000,
  );

  it(
    'foul: ends with the game (a new game starts)',
    () =>
      withRig({ illegalMovePolicy: 'tournament', foulCorrectionMs: 200 }, async (r) => {
        await hand(r, 'e0', 'e2');
        await seenActive(r, 'foul');
        expect(await r.request('game/new', {})).toMatchObject({ status: 'ok' });
        await seenEnded(r, 'foul');
      }),
    60_000,
  );

  it(
    'play_on: ends with the game (a new game starts)',
    () =>
      withRig({}, async (r) => {
        const cycle = ['h0g2', 'h9g7', 'g2h0', 'g7h9'];
        for (const move of ['b0c2', 'b9c7', ...cycle, ...cycle, 'h0g2']) {
          expect(await r.request('board/simulate', { move }), move).toMatchObject({ status: 'ok' });
        }
        await seenActive(r, 'play_on');
        expect(await r.request('game/new', {})).toMatchObject({ status: 'ok' });
        await seenEnded(r, 'play_on');
      }),
    90_000,
  );

  it(
    'record_failed: a move that cannot be journaled is not announced; the alert ends with the game',
    () =>
      withRig({}, async (r) => {
        // The journal goes away under the session (a disk pulled out).
        (r.session as unknown as { core: { recorder: { close(): void } } }).core.recorder.close();
        expect(await r.request('board/simulate', { move: 'h2e2' })).toMatchObject({
          status: 'error',
          code: 'refused',
        });
        await seenActive(r, 'record_failed');
        expect(r.viewer.on(`${BASE}/board1/move`)).toEqual([]);
        expect(await r.request('game/new', {})).toMatchObject({ status: 'ok' });
        await seenEnded(r, 'record_failed');
      }),
    60_000,
  );

  it.skipIf(!canMountTmpfs())(
    'storage: a full disk (tmpfs) refuses the move; it ends once the move is written, by itself',
    async () => {
      const mnt = mkdtempSync(join(tmpdir(), 'xqboard-alerts-full-'));
      expect(mountTmpfs(mnt)).toBe(true);
      try {
        await withRig(
          {},
          async (r) => {
            const disk = fillTmpfs(mnt);
            // What was left in the journal's last page takes a few moves; then one is refused.
            const line = ['a0a2', 'g9i7', 'a3a4', 'h7d7', 'f0e1', 'b7a7', 'a2a0', 'e9e8', 'e0f0', 'e8e7'];
            let refused: string | undefined;
            for (const move of line) {
              const answer = await r.request('board/simulate', { move });
              if (answer.status === 'error') {
                expect(answer).toMatchObject({
                  code: 'refused',
                  error: expect.stringMatching(/storage: .*ENOSPC.*free space/),
                });
                refused = move;
                break;
              }
            }
            expect(refused).toBeDefined();
            await seenActive(r, 'storage');
            const announced = () => r.viewer.json(`${BASE}/board1/move`).map((m) => m.iccs);
            expect(announced()).not.toContain(refused);
            disk.free();
            await vi.waitFor(() => expect(announced()).toContain(refused), WAIT);
            await seenEnded(r, 'storage');
          },
          join(mnt, 'games'),
        );
      } finally {
        unmount(mnt);
        rmSync(mnt, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
