/**
 * One list of requests and the answers they must get, played through each front end — MQTT
 * (`bridge/request/<name>`), HTTP (`POST /api/request/<name>`) and the terminal — on a controller
 * with a simulated board (one controller, a fresh game for each front end). Every front end calls
 * the same request API, so each must give exactly these answers, and the same error text for the
 * same mistake.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { responseOf } from '../../src/controller/requests.js';
import { TerminalView } from '../../src/controller/terminal.js';
import { HINT_ANSWER_MS, Recorder } from '../mqtt/support.js';

const MATE_IN_ONE = '4k4/8R/9/9/9/9/9/9/9/R2K5 w - - 0 1';
const BASE = 'xqreq';

interface Step {
  readonly name: string;
  readonly payload: Record<string, unknown>;
  /** The same request typed on the terminal (none: the terminal cannot make that mistake). */
  readonly terminal?: string;
  readonly expect:
    | { readonly status: 'ok'; readonly data: Record<string, unknown> }
    | { readonly status: 'error'; readonly code: string };
}

const ok = (data: Record<string, unknown> = {}) => ({ status: 'ok' as const, data });
const error = (code: string) => ({ status: 'error' as const, code });

const STEPS: readonly Step[] = [
  {
    name: 'game/get',
    payload: {},
    terminal: 'get',
    expect: ok({ status: 'playing', ply: 0, turn: 'red', final: false }),
  },
  // Moves that would record nothing are errors, never ok.
  { name: 'board/simulate', payload: { move: 'h9g7' }, terminal: 'h9g7', expect: error('wrong_side') },
  { name: 'board/simulate', payload: { move: '马8进7' }, terminal: '马8进7', expect: error('wrong_side') },
  { name: 'board/simulate', payload: { move: 'e0e2' }, terminal: 'e0e2', expect: error('illegal_move') },
  { name: 'board/simulate', payload: { move: 'zz' }, terminal: 'zz', expect: error('bad_move') },
  {
    name: 'board/simulate',
    payload: { move: '炮二平五' },
    terminal: '炮二平五',
    expect: ok({ iccs: 'h2e2', ply: 1 }),
  },
  {
    name: 'board/simulate',
    payload: { move: '炮二平五' },
    terminal: '炮二平五',
    expect: error('wrong_side'),
  },
  {
    name: 'game/options',
    payload: { takebacks: false },
    terminal: 'takebacks off',
    expect: ok({ takebacks: false, illegalMovePolicy: 'casual' }),
  },
  { name: 'game/options', payload: {}, expect: error('bad_request') },
  { name: 'game/hint', payload: {}, terminal: 'hint', expect: ok({ ply: 2 }) },
  {
    name: 'game/draw',
    payload: { action: 'offer' },
    terminal: 'draw offer',
    expect: ok({ status: 'playing' }),
  },
  {
    name: 'game/draw',
    payload: { action: 'accept' },
    terminal: 'draw accept',
    expect: ok({ result: '1/2-1/2', reason: 'agreement', status: 'over', final: true }),
  },
  {
    name: 'game/get',
    payload: {},
    terminal: 'get',
    expect: ok({ status: 'over', result: '1/2-1/2', ply: 1 }),
  },
  // After the end: a hint is for the game on the board, which is over.
  { name: 'game/hint', payload: {}, terminal: 'hint', expect: error('game_over') },
  { name: 'board/simulate', payload: { move: 'h9g7' }, terminal: 'h9g7', expect: error('game_over') },
  { name: 'game/resign', payload: {}, terminal: 'resign', expect: error('game_over') },
  { name: 'game/new', payload: { fen: 'xyz' }, terminal: 'new xyz', expect: error('bad_position') },
  // A new game on a simulated board sets its pieces up: it is under way when answered.
  { name: 'game/new', payload: {}, terminal: 'new', expect: ok({ status: 'playing', ply: 0 }) },
  // Which sensor is dead is for the players to say only while the board doubts it.
  { name: 'game/resolve', payload: { candidate: 0 }, terminal: 'resolve 0', expect: error('no_doubt') },
  { name: 'game/resolve', payload: { candidate: -1 }, terminal: 'resolve -1', expect: error('bad_request') },
  // (The point it takes for dead, as the alert gave it, ties the answer to that alert.)
  {
    name: 'game/resolve',
    payload: { candidate: 0, sensor: 'h2' },
    terminal: 'resolve 0 h2',
    expect: error('no_doubt'),
  },
  {
    name: 'game/resolve',
    payload: { candidate: 0, sensor: 'j2' },
    terminal: 'resolve 0 j2',
    expect: error('bad_request'),
  },
  // A correction of the record is checked whole before anything changes.
  {
    name: 'game/correct',
    payload: { ply: 2, moves: ['h2e2'] },
    terminal: 'correct 2 h2e2',
    expect: error('bad_ply'),
  },
  {
    name: 'game/correct',
    payload: { ply: 1, moves: ['a0a5'] },
    terminal: 'correct 1 a0a5',
    expect: error('illegal_move'),
  },
  {
    name: 'game/correct',
    payload: { ply: 1, moves: ['h2'] },
    terminal: 'correct 1 h2',
    expect: error('bad_request'),
  },
  {
    name: 'game/resign',
    payload: { side: 'black' },
    terminal: 'resign black',
    expect: ok({ result: '1-0', reason: 'resignation', status: 'over', final: true }),
  },
  { name: 'game/draw', payload: { action: 'maybe' }, expect: error('bad_request') },
  { name: 'board/simulate', payload: { reset: true }, terminal: 'reset', expect: ok() },
  {
    name: 'game/new',
    payload: { fen: MATE_IN_ONE },
    terminal: `new ${MATE_IN_ONE}`,
    expect: ok({ status: 'playing', startFen: MATE_IN_ONE }),
  },
  {
    name: 'board/simulate',
    payload: { move: 'a0a9' },
    terminal: 'a0a9',
    expect: ok({ iccs: 'a0a9', ply: 1 }),
  },
  {
    name: 'game/get',
    payload: {},
    terminal: 'get',
    expect: ok({ status: 'over', result: '1-0', reason: 'checkmate', final: true }),
  },
  { name: 'game/get', payload: { board: 'nope' }, expect: error('no_board') },
  // board2 is a real board (its serial port is not plugged in): in setup, not simulated.
  {
    name: 'board/simulate',
    payload: { board: 'board2', move: 'h2e2' },
    terminal: 'h2e2',
    expect: error('not_simulated'),
  },
  { name: 'game/resign', payload: { board: 'board2' }, terminal: 'resign', expect: error('no_game') },
  {
    name: 'game/get',
    payload: { board: 'board2' },
    terminal: 'get',
    expect: ok({ status: 'setup', ply: 0, final: false }),
  },
  { name: 'game/get', payload: { board: 'board1', colour: 'red' }, expect: error('bad_request') },
  { name: 'frobnicate', payload: {}, expect: error('unknown_request') },
];

interface Answer {
  readonly status: string;
  readonly code?: string;
  readonly error?: string;
  readonly data: unknown;
}

interface FrontEnd {
  send(step: Step, index: number): Promise<Answer | undefined>;
}

/** What must be identical across front ends: status, code, error text, the data expected. */
function normal(step: Step, a: Answer): unknown {
  const data = a.data as Record<string, unknown>;
  const keys = step.expect.status === 'ok' ? Object.keys(step.expect.data) : [];
  return {
    status: a.status,
    code: a.code,
    error: a.error,
    data: Object.fromEntries(keys.map((k) => [k, data[k]])),
  };
}

const seen = new Map<string, Map<number, unknown>>();

let dir: string;
let controller: Controller;
let terminal: TerminalView | undefined;
let viewer: Recorder;
let web: string;

// One controller for the three front ends (its engine starts once: ~3 s of CPU a start); each run
// begins with a fresh game on board1, so no run depends on another having run.
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-req-'));
  const config = configSchema.parse({
    boards: [
      { id: 'board1', source: { driver: 'simulator', heartbeatMs: 500 } },
      { id: 'board2', source: { driver: 'serial', port: join(dir, 'no-such-tty') } },
    ],
    mqtt: { baseTopic: BASE },
    archive: { dir },
    web: { enabled: true },
    // Anonymous clients change games here: the test grants it (the default is a viewer).
    // The three front ends' ~100 requests on one controller within seconds: above the default
    // rate limit (a burst of 30), which is not what is tested here.
    access: { anonymous: 'arbiter', rateLimit: { burst: 1000, perMinute: 6000 } },
    // The answer to game/hint is what is compared, not the engine's play: a depth-1 search instead
    // of the default second of thinking.
    engine: { hint: { depth: 1 } },
  });
  controller = new Controller({
    config,
    handMs: 120,
    listen: { mqttPort: 0, wsPort: 0, webPort: 0 },
    extensions: (context) => {
      terminal = new TerminalView(context, { output: { write: () => true }, onQuit: () => {} });
      return [terminal];
    },
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  viewer = await Recorder.connect(`mqtt://127.0.0.1:${started.value.broker!.port}`, [
    `${BASE}/bridge/response/#`,
  ]);
  web = `http://127.0.0.1:${started.value.web!.port}`;
  await controller.sessions.get('board1')!.untilPlaying(10_000);
}, 60_000);

afterAll(async () => {
  await viewer?.end();
  await controller?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh game on board1, its pieces set up, as the first step expects: nothing left from before. */
async function freshGame(): Promise<void> {
  for (const [name, payload] of [
    ['board/simulate', { reset: true }],
    ['game/new', {}],
    ['game/options', { takebacks: true }],
  ] as const) {
    const tx = `fresh ${name}`;
    const answer = await viewer.request(BASE, name, { board: 'board1', ...payload, transaction: tx }, tx);
    expect(answer, `${name} before the steps`).toMatchObject({ status: 'ok' });
  }
  const get = await viewer.request(
    BASE,
    'game/get',
    { board: 'board1', transaction: 'fresh get' },
    'fresh get',
  );
  expect(get, 'a fresh game before the steps').toMatchObject({
    status: 'ok',
    data: { status: 'playing', ply: 0 },
  });
}

async function run(kind: 'mqtt' | 'http' | 'terminal'): Promise<void> {
  const frontEnds: Record<typeof kind, FrontEnd> = {
    mqtt: {
      async send(step, i) {
        const { transaction: _, ...answer } = (await viewer.request(
          BASE,
          step.name,
          { board: 'board1', ...step.payload, transaction: i },
          i,
          step.name === 'game/hint' ? HINT_ANSWER_MS : undefined,
        )) as unknown as Answer & { transaction: unknown };
        return answer;
      },
    },
    http: {
      async send(step) {
        const res = await fetch(`${web}/api/request/${step.name}`, {
          method: 'POST',
          body: JSON.stringify({ board: 'board1', ...step.payload }),
        });
        const { transaction: _, ...answer } = (await res.json()) as Answer & { transaction: unknown };
        expect(res.status, step.name).toBe(
          answer.status === 'ok' ? 200 : ['no_board', 'unknown_request'].includes(answer.code!) ? 404 : 400,
        );
        return answer;
      },
    },
    terminal: {
      async send(step) {
        if (step.terminal === undefined) return undefined;
        // The terminal's commands go to the board chosen with `board ID`.
        const board = (step.payload.board as string | undefined) ?? 'board1';
        await terminal!.command(`board ${board}`);
        const result = await terminal!.command(step.terminal);
        const { transaction: _, ...answer } = responseOf(result!, null);
        return answer as Answer;
      },
    },
  };
  const answers = new Map<number, unknown>();
  seen.set(kind, answers);
  await freshGame();
  for (const [i, step] of STEPS.entries()) {
    const answer = await frontEnds[kind].send(step, i);
    if (!answer) continue;
    const label = `${kind} step ${i}: ${step.name} ${JSON.stringify(step.payload)}`;
    if (step.expect.status === 'ok')
      expect(answer, label).toMatchObject({ status: 'ok', data: step.expect.data });
    else expect(answer, label).toMatchObject({ status: 'error', code: step.expect.code, data: {} });
    answers.set(i, normal(step, answer));
  }
}

describe('one request API, three front ends', () => {
  afterAll(() => seen.clear());

  // The first hint starts the controller's engine (HINT_ANSWER_MS at most).
  it('MQTT gives the expected answers', () => run('mqtt'), 120_000);
  it('HTTP gives the expected answers', () => run('http'), 120_000);
  it('the terminal gives the expected answers', () => run('terminal'), 120_000);

  it('and the same ones everywhere, error texts included', async () => {
    for (const kind of ['mqtt', 'http', 'terminal']) if (!seen.has(kind)) await run(kind as 'mqtt');
    const [mqtt, http, terminal] = ['mqtt', 'http', 'terminal'].map((k) => seen.get(k)!);
    expect(http).toEqual(mqtt);
    for (const [i, answer] of terminal!) expect(answer, `step ${i}`).toEqual(mqtt!.get(i));
    expect(terminal!.size).toBe(STEPS.filter((s) => s.terminal !== undefined).length);
  }, 360_000);
});
