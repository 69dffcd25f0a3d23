/**
 * Fan-out to 1,000 viewers: the controller publishes each move of a simulated game on the public
 * mirror (`<public>/<board>/moves/<ply>`), 1,000 viewers in another process receive it, over TCP
 * and over WebSocket, through the embedded broker and through Mosquitto, side by side in one run.
 * Reported: p50/p99 from the controller's publish of a move to its receipt at every viewer, the
 * time to connect the 1,000, and the move reader's latency (piece set down → move announced) while
 * the fan-out runs, against the same with no viewer. Then the controller's resident memory: the
 * real `xqboard start` process after start, and with 1,000 WebSocket viewers on its broker.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { connect } from 'mqtt';
import mqttPacket from 'mqtt-packet';
import { WebSocket } from 'ws';
import { configSchema } from '../src/config/schema.js';
import { Controller } from '../src/controller/controller.js';
import { readPgn } from '../src/record/pgn.js';
import { type Move, Position } from '../src/rules/index.js';
import { isExtendable } from '../src/tracker/reader.js';
import { randomListenPort, runMosquitto } from '../test/helpers/mosquitto.js';
import { monotonicMs } from './monotonic.js';
import { percentile } from './mqtt.js';

const VIEWERS = Number(process.env.XQBOARD_BENCH_VIEWERS ?? 1000);
const ROUNDS = Number(process.env.XQBOARD_BENCH_ROUNDS ?? 3);
const PLIES = 40;
const TOPIC = 'bench/public/bench/moves/+';

const now = monotonicMs;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (v: number): string => (Number.isFinite(v) ? v.toFixed(0) : '—');
const f1 = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '—');

function benchMoves(): Move[] {
  const text = readFileSync(
    new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url),
    'utf8',
  );
  const first = readPgn(text)[0];
  if (!first?.ok) throw new Error('cannot read the benchmark game');
  return first.value.moves.slice(0, PLIES).map((m) => m.move);
}

interface Viewers {
  readonly connectMs: number;
  report(): Promise<Record<string, number[]>>;
  /** Subscribed again, the receipts so far forgotten (before a game they are measured in). */
  watch(): Promise<void>;
  /** Unsubscribed (while another group on the same broker is measured). */
  unwatch(): Promise<void>;
  stop(): Promise<void>;
}

async function startViewers(url: string, count: number): Promise<Viewers> {
  const script = fileURLToPath(new URL('./fanout-viewers.js', import.meta.url));
  const child: ChildProcess = fork(script, [url, TOPIC, String(count)], { stdio: 'inherit' });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const exit = (code: number | null) => reject(new Error(`viewers exited (${code})`));
      const on = (m: Record<string, unknown>) => {
        if (m.type === type) {
          child.off('message', on);
          child.off('exit', exit);
          resolve(m);
        } else if (m.type === 'error') reject(new Error(String(m.message)));
      };
      child.on('message', on);
      child.once('exit', exit);
    });
  const ready = await next('ready');
  return {
    connectMs: ready.connectMs as number,
    async report() {
      const r = next('report');
      child.send({ type: 'report' });
      return (await r).receipts as Record<string, number[]>;
    },
    async watch() {
      const r = next('watch');
      child.send({ type: 'watch' });
      await r;
    },
    async unwatch() {
      const r = next('unwatch');
      child.send({ type: 'unwatch' });
      await r;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'exit' });
      await Promise.race([exited, pause(3000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

const PROBE = { name: 'frame-probe', password: 'probe' } as const;

/** Frames a raw WebSocket viewer receives per published message (aedes once wrote ~5). */
async function framesPerMessage(wsUrl: string, tcpUrl: string): Promise<number> {
  const ws = new WebSocket(wsUrl, 'mqtt');
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let frames = 0;
  let packets = 0;
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  parser.on('packet', (p) => {
    if (p.cmd === 'publish') packets++;
  });
  let subscribed: () => void = () => {};
  const suback = new Promise<void>((r) => {
    subscribed = r;
  });
  parser.on('packet', (p) => {
    if (p.cmd === 'suback') subscribed();
  });
  ws.on('message', (data: Buffer) => {
    frames++;
    parser.parse(data);
  });
  ws.send(
    mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clientId: `frames-${process.pid}`,
      username: PROBE.name,
      password: Buffer.from(PROBE.password),
      clean: true,
      keepalive: 30,
    }),
  );
  ws.send(
    mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'frames/#', qos: 0 }] }),
  );
  await suback;
  const before = frames;
  const publisher = connect(tcpUrl, { reconnectPeriod: 0, username: PROBE.name, password: PROBE.password });
  await new Promise((r) => publisher.once('connect', r));
  const n = 50;
  for (let i = 0; i < n; i++) {
    await publisher.publishAsync(
      `frames/${i}`,
      JSON.stringify({ ply: i, iccs: 'h2e2', fen: 'x'.repeat(60) }),
      { qos: 0 },
    );
    await pause(5);
  }
  for (let i = 0; i < 200 && packets < n; i++) await pause(10);
  await publisher.endAsync();
  ws.close();
  return (frames - before) / Math.max(1, packets);
}

interface Run {
  /** Piece set down → move announced, ms. */
  readonly reader: number[];
  /** The controller's event loop delay while the game was played, p99 ms. */
  readonly loopP99: number;
  /** Publish → receipt, ms, every viewer and move. */
  readonly deliveries: number[];
  readonly missing: number;
}

/** A new game on the simulated board (the last one's retained moves are cleared). */
async function newGame(controller: Controller): Promise<void> {
  const session = controller.sessions.get('bench')!;
  session.newGame();
  await session.untilPlaying(5000);
  await pause(200);
}

/** Plays the game on the controller's simulated board; the next piece moves while the last fans out. */
async function play(controller: Controller, moves: Move[], viewers?: Viewers): Promise<Run> {
  const session = controller.sessions.get('bench')!;
  const sim = session.simulator!;
  const published = new Map<number, number>();
  let announced: ((ply: number) => void) | undefined;
  const off = controller.publicFeed.subscribe((m) => {
    if (m.topic === 'move') {
      published.set(m.payload.ply, now());
      announced?.(m.payload.ply);
    }
  });
  const reader: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const pos = Position.default();
  for (const move of moves) {
    // Only pieces that could not go further: their move is due the bounce window after they land.
    const quick = !isExtendable(pos, [move]);
    pos.play(move);
    sim.lift(move.from);
    await pause(60);
    if (sim.pieceAt(move.to)) {
      sim.remove(move.to);
      await pause(60);
    }
    const done = new Promise<number>((r) => {
      announced = () => r(performance.now());
    });
    const placedAt = performance.now();
    sim.place(move.to);
    const at = await done;
    if (quick) reader.push(at - placedAt);
    await pause(20);
  }
  off();
  const deliveries: number[] = [];
  // The loop is watched until every viewer has had every move (the fan-out included).
  let missing = 0;
  if (viewers) {
    // Every viewer has every move, or 30 s have passed.
    let receipts: Record<string, number[]> = {};
    for (let i = 0; i < 300; i++) {
      receipts = await viewers.report();
      if ([...published.keys()].every((ply) => (receipts[ply]?.length ?? 0) >= VIEWERS)) break;
      await pause(100);
    }
    for (const [ply, at] of published) {
      const got = receipts[ply] ?? [];
      missing += Math.max(0, VIEWERS - got.length);
      for (const t of got) deliveries.push(t - at);
    }
  }
  loop.disable();
  return { reader, deliveries, missing, loopP99: loop.percentile(99) / 1e6 };
}

function controllerFor(dir: string, mqtt: Record<string, unknown>): Controller {
  const config = configSchema.parse({
    boards: [{ id: 'bench', source: { driver: 'simulator', heartbeatMs: 0 } }],
    mqtt: { baseTopic: 'bench', ...mqtt },
    archive: { dir },
    web: { enabled: false },
    // The frame probe publishes on a topic of its own: an account that may.
    access: { users: [{ ...PROBE, role: 'controller' }] },
  });
  return new Controller({ config, listen: { mqttPort: 0, wsPort: 0 } });
}

type Kind = 'embedded' | 'thread' | 'mosquitto';
type Transport = 'tcp' | 'ws';

const KIND_NAMES: Record<Kind | 'quiet', string> = {
  embedded: 'embedded',
  thread: 'thread',
  mosquitto: 'mosquitto',
  quiet: 'no viewer',
};

interface Row {
  readonly kind: Kind | 'quiet';
  readonly transport?: Transport;
  readonly viewers?: Viewers;
  readonly controller: Controller;
  readonly reader: number[];
  readonly deliveries: number[];
  readonly loopP99: number[];
  /** p50 and p99 of each round's deliveries. */
  readonly rounds: { p50: number; p99: number }[];
  missing: number;
}

/**
 * Every broker and transport is measured in every round, in an order that turns from round to
 * round, and the rows pool their rounds: on a shared machine the load changes from minute to
 * minute, and rows measured one after another (as this bench once did) compared one minute's
 * load with another's — the same build came out anywhere between 0.8× and 1.4× Mosquitto. (It
 * also timed receipts against publishes by each process's own wall-clock origin, which drift apart
 * here: monotonic.ts.) The viewer groups stay connected; only the measured one is subscribed.
 * Each round also plays a game on a controller nobody watches: the move reader's own latency,
 * under that round's load.
 */
export async function benchFanout(): Promise<void> {
  const moves = benchMoves();
  const frames: string[] = [];
  const cleanup: (() => Promise<void>)[] = [];
  const controllers = new Map<Kind | 'quiet', { controller: Controller; urls: Record<Transport, string> }>();
  try {
    for (const kind of ['embedded', 'thread', 'mosquitto', 'quiet'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'xqboard-bench-fanout-'));
      const mosquitto = kind === 'mosquitto' ? await runMosquitto({ websockets: true }) : undefined;
      const controller = controllerFor(
        dir,
        mosquitto ? { embedded: false, url: mosquitto.url } : kind === 'thread' ? { brokerThread: true } : {},
      );
      cleanup.unshift(async () => {
        await controller.stop();
        await mosquitto?.stop();
        rmSync(dir, { recursive: true, force: true });
      });
      const started = await controller.start();
      if (!started.ok) throw new Error(started.error.message);
      const urls = mosquitto
        ? { tcp: mosquitto.url, ws: mosquitto.wsUrl! }
        : {
            tcp: `mqtt://127.0.0.1:${started.value.broker!.port}`,
            ws: `ws://127.0.0.1:${started.value.broker!.wsPort}`,
          };
      controllers.set(kind, { controller, urls });
      await newGame(controller);
      if (kind !== 'quiet') frames.push(`${kind} ${(await framesPerMessage(urls.ws, urls.tcp)).toFixed(2)}`);
      // A game to warm up (JIT).
      await play(controller, moves);
    }
    const rows: Row[] = [];
    for (const kind of ['embedded', 'thread', 'mosquitto'] as const) {
      for (const transport of ['tcp', 'ws'] as const) {
        const { controller, urls } = controllers.get(kind)!;
        const viewers = await startViewers(urls[transport], VIEWERS);
        cleanup.unshift(() => viewers.stop());
        // Only the group measured listens: the other one on this broker is connected, subscribed to nothing.
        await viewers.unwatch();
        rows.push({ kind, transport, viewers, controller, ...emptyRow() });
      }
    }
    rows.push({ kind: 'quiet', controller: controllers.get('quiet')!.controller, ...emptyRow() });

    for (let round = 0; round < ROUNDS; round++) {
      const turn = (round * 3) % rows.length;
      for (const row of [...rows.slice(turn), ...rows.slice(0, turn)]) {
        await newGame(row.controller);
        await row.viewers?.watch();
        const run = await play(row.controller, moves, row.viewers);
        await row.viewers?.unwatch();
        row.reader.push(...run.reader);
        row.deliveries.push(...run.deliveries);
        row.loopP99.push(run.loopP99);
        row.rounds.push({ p50: percentile(run.deliveries, 50), p99: percentile(run.deliveries, 99) });
        row.missing += run.missing;
      }
    }
    report(rows, frames);
  } finally {
    for (const stop of cleanup) await stop();
  }
  for (const thread of [false, true]) {
    // Its WebSocket port is picked at random: another one if that one is taken.
    for (let attempt = 1; ; attempt++) {
      try {
        await benchControllerMemory(thread);
        break;
      } catch (e) {
        if (attempt >= 5 || !/already in use/.test((e as Error).message)) throw e;
      }
    }
  }
}

const emptyRow = () => ({ reader: [], deliveries: [], loopP99: [], rounds: [], missing: 0 });

function report(rows: Row[], frames: string[]): void {
  const quiet = rows.find((r) => r.kind === 'quiet')!;
  console.log(
    `fan-out of each move to ${VIEWERS} viewers (public mirror, ${PLIES} moves a game, viewers in another process): publish → receipt; ${ROUNDS} rounds, every row in each, pooled`,
  );
  console.log(
    'broker (thread: embedded in its own thread)\nbroker       transport  p50 ms  p99 ms  missing  connect all  reader p50/p99 ms  controller loop delay p99 (median of rounds)',
  );
  for (const r of rows) {
    console.log(
      `${KIND_NAMES[r.kind].padEnd(12)} ${(r.transport ?? '').padEnd(9)}  ${f0(percentile(r.deliveries, 50)).padStart(6)}  ${f0(percentile(r.deliveries, 99)).padStart(6)}  ${String(r.viewers ? r.missing : '').padStart(7)}  ${r.viewers ? `${(r.viewers.connectMs / 1000).toFixed(1).padStart(9)} s` : ''.padStart(11)}  ${`${f1(percentile(r.reader, 50))}/${f1(percentile(r.reader, 99))}`.padEnd(17)}  ${f1(percentile(r.loopP99, 50))} ms`,
    );
  }
  const range = (values: number[]): string =>
    `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  for (const kind of ['embedded', 'thread'] as const) {
    for (const transport of ['tcp', 'ws'] as const) {
      const e = rows.find((r) => r.kind === kind && r.transport === transport)!;
      const m = rows.find((r) => r.kind === 'mosquitto' && r.transport === transport)!;
      const ratio = (p: 50 | 99) => percentile(e.deliveries, p) / percentile(m.deliveries, p);
      const perRound = (p: 'p50' | 'p99') => e.rounds.map((x, i) => x[p] / m.rounds[i]![p]);
      console.log(
        `${kind === 'thread' ? 'embedded in its thread' : 'embedded'} / Mosquitto over ${transport === 'tcp' ? 'TCP' : 'WebSocket'}: p50 ${ratio(50).toFixed(2)}× (rounds ${range(perRound('p50'))}), p99 ${ratio(99).toFixed(2)}× (rounds ${range(perRound('p99'))}) (goal ≤ 1.2×)`,
      );
    }
  }
  const quietP99 = percentile(quiet.reader, 99);
  console.log(
    `move reader, piece that could not go further set down → move announced, no viewer: p50 ${f1(percentile(quiet.reader, 50))} ms, p99 ${f1(quietP99)} ms, controller loop delay p99 ${f1(percentile(quiet.loopP99, 50))} ms (the 35 ms bounce window is most of the latency); reader p99 during the fan-out, against it: ${rows
      .filter((r) => r.viewers)
      .map((r) => `${KIND_NAMES[r.kind]} ${r.transport} ${signed(percentile(r.reader, 99) - quietP99)} ms`)
      .join(', ')}`,
  );
  console.log(`WebSocket frames per MQTT message at a viewer: ${frames.join(', ')}`);
}

const signed = (v: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(1)}`;

const rssMb = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
};

/** The real `xqboard start` (bin/xqboard.js), one simulated board, the embedded broker and the page. */
async function benchControllerMemory(brokerThread: boolean): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-bench-rss-'));
  const cli = fileURLToPath(new URL('../bin/xqboard.js', import.meta.url));
  // `xqboard start` cannot be asked for a WebSocket on any free port (0 is none).
  const wsPort = randomListenPort();
  const conf = join(dir, 'config.yaml');
  writeFileSync(
    conf,
    `boards:\n  - id: bench\n    source: { driver: simulator }\nmqtt:\n  baseTopic: bench\n  wsPort: ${wsPort}\n  brokerThread: ${brokerThread}\narchive:\n  dir: ${join(dir, 'games')}\n`,
  );
  const child = spawn(
    process.execPath,
    [cli, 'start', '--config', conf, '--mqtt-port', '0', '--web-port', '0'],
    {
      // Its terminal view reads stdin and quits at its end: keep it open.
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  try {
    let port: number | undefined;
    for (let i = 0; i < 200 && port === undefined; i++) {
      port = Number(/MQTT broker on port (\d+)/.exec(out)?.[1]) || undefined;
      if (child.exitCode !== null) throw new Error(`xqboard start exited:\n${out}`);
      await pause(50);
    }
    if (port === undefined) throw new Error(`xqboard start did not say its port:\n${out}`);
    await pause(2000);
    const afterStart = rssMb(child.pid!);
    const viewers = await startViewers(`ws://127.0.0.1:${wsPort}`, VIEWERS);
    const player = connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    await new Promise((r) => player.once('connect', r));
    for (const move of ['h2e2', 'h9g7', 'h0g2', 'i9h9']) {
      await player.publishAsync('bench/bridge/request/board/simulate', JSON.stringify({ move }), { qos: 1 });
      await pause(600);
    }
    await pause(1000);
    const withViewers = rssMb(child.pid!);
    await player.endAsync();
    await viewers.stop();
    console.log(
      `controller resident memory (xqboard start, one simulated board, embedded broker${brokerThread ? ' in its own thread' : ''}): after start ${afterStart.toFixed(0)} MB (goal ≤ 80 MB), with ${VIEWERS} WebSocket viewers ${withViewers.toFixed(0)} MB`,
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
