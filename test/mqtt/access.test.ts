/**
 * Roles on both brokers: the embedded aedes (its hooks) and Mosquitto 2 with the files
 * `xqboard mosquitto-acl` generates, over TCP and WebSocket. For each role, each request and each
 * topic is allowed or refused as the table of src/mqtt/access.ts says: a refused publish never
 * reaches anyone (an arbiter watching every topic does not see it, the controller does not answer
 * it), a topic a role may not read is never delivered to it whatever it subscribed to. A retained
 * request is refused with an error and not kept; a spoofed retained `position` never replaces
 * the controller's.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type IClientOptions } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { LoginThrottle } from '../../src/mqtt/access.js';
import { mosquittoFiles } from '../../src/mqtt/mosquitto-acl.js';
import { type Logger, silentLogger } from '../../src/util/log.js';
import { type Mosquitto, Recorder, startMosquitto } from './support.js';

const BASE = 'xqacc';
const USERS = [
  { name: 'referee', password: 's3cret', role: 'arbiter' },
  { name: 'red1', password: 'r3d', role: 'player', board: 'board1', side: 'red' },
  { name: 'fan', password: 'f4n', role: 'viewer' },
  { name: 'wled1', password: 'l3d', role: 'led', topic: 'wled/board1' },
] as const;
type Who = 'anonymous' | (typeof USERS)[number]['name'];
const EVERYONE: readonly Who[] = ['anonymous', 'fan', 'red1', 'referee', 'wled1'];
const login = (who: Who): IClientOptions => {
  const u = USERS.find((x) => x.name === who);
  return u ? { username: u.name, password: u.password } : {};
};

/** Requests (topic after `<base>/bridge/request/`) and who may make them. */
const REQUESTS: { topic: string; payload: Record<string, unknown>; may: readonly Who[] }[] = [
  { topic: 'game/get', payload: { board: 'board1' }, may: ['referee'] },
  { topic: 'game/get/board1', payload: {}, may: ['referee', 'red1'] },
  { topic: 'game/hint/board1', payload: {}, may: ['referee', 'red1'] },
  { topic: 'game/hint/board2', payload: {}, may: ['referee'] },
  { topic: 'game/hint', payload: { board: 'board1' }, may: ['referee'] },
  { topic: 'game/draw/board1/red', payload: { action: 'offer' }, may: ['referee', 'red1'] },
  { topic: 'game/draw/board1/black', payload: { action: 'accept' }, may: ['referee'] },
  { topic: 'game/draw', payload: { board: 'board1', action: 'offer', side: 'red' }, may: ['referee'] },
  { topic: 'game/resign/board2/red', payload: {}, may: ['referee'] },
  { topic: 'game/resolve/board1', payload: { candidate: 0 }, may: ['referee', 'red1'] },
  { topic: 'game/resolve/board2', payload: { candidate: 0 }, may: ['referee'] },
  { topic: 'game/correct/board1', payload: { ply: 9, moves: ['h2e2'] }, may: ['referee', 'red1'] },
  { topic: 'game/correct/board2', payload: { ply: 1, moves: ['h2e2'] }, may: ['referee'] },
  { topic: 'game/new', payload: { board: 'board2' }, may: ['referee'] },
  { topic: 'game/options', payload: { board: 'board2', takebacks: false }, may: ['referee'] },
  { topic: 'board/simulate', payload: { board: 'board2', move: 'h2e2' }, may: ['referee'] },
  { topic: 'bridge/health', payload: {}, may: ['referee'] },
  // Last: they end board1's game (the answers to what follows are game_over errors, still answers).
  { topic: 'game/resign/board1/black', payload: {}, may: ['referee'] },
  { topic: 'game/resign/board1/red', payload: {}, may: ['referee', 'red1'] },
];

/** Other topics each role tries to write. */
const WRITES: { topic: string; may: readonly Who[] }[] = [
  { topic: `${BASE}/board1/move`, may: [] },
  { topic: `${BASE}/bridge/state`, may: [] },
  { topic: `${BASE}/bridge/response/game/resign`, may: [] },
  { topic: 'wled/board1/api', may: ['wled1'] },
  { topic: 'wled/board2/api', may: [] },
];

interface Setup {
  readonly controller: Controller;
  readonly url: string;
  readonly wsUrl: string;
  readonly warnings: string[];
  stop(): Promise<void>;
}

function configFor(dir: string, mqtt: Record<string, unknown>, anonymous: 'viewer' | 'none' = 'viewer') {
  return configSchema.parse({
    boards: [
      {
        id: 'board1',
        source: { driver: 'simulator', heartbeatMs: 500 },
        leds: { driver: 'wled', topic: 'wled/board1' },
      },
      { id: 'board2', source: { driver: 'simulator', heartbeatMs: 500 } },
    ],
    mqtt: { baseTopic: BASE, ...mqtt },
    access: { users: USERS, anonymous },
    archive: { dir },
    web: { enabled: false },
  });
}

function recordingLogger(warnings: string[]): Logger {
  const logger: Logger = {
    ...silentLogger,
    warn: (m: string) => void warnings.push(m),
    error: (m: string) => void warnings.push(m),
    child: () => logger,
  };
  return logger;
}

async function startAedes(anonymous: 'viewer' | 'none' = 'viewer'): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-access-'));
  const warnings: string[] = [];
  const controller = new Controller({
    config: configFor(dir, {}, anonymous),
    logger: recordingLogger(warnings),
    handMs: 100,
    listen: { mqttPort: 0, wsPort: 0 },
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const { port, wsPort } = started.value.broker!;
  return {
    controller,
    url: `mqtt://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${wsPort}`,
    warnings,
    async stop() {
      await controller.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startWithMosquitto(): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-access-mosq-'));
  // Mosquitto started as root reads its files as the user it drops to.
  chmodSync(dir, 0o755);
  const login = { username: 'xqctl', password: 'ctl-pw' };
  const files = mosquittoFiles(configFor(dir, { embedded: false, url: 'mqtt://unused:1', ...login }));
  writeFileSync(join(dir, 'passwd'), files.passwd, { mode: 0o644 });
  writeFileSync(join(dir, 'acl'), files.acl, { mode: 0o644 });
  const mosquitto: Mosquitto = await startMosquitto({
    conf: files.conf(join(dir, 'passwd'), join(dir, 'acl')),
    websockets: true,
  });
  const warnings: string[] = [];
  const controller = new Controller({
    config: configFor(dir, { embedded: false, url: mosquitto.url, ...login }),
    logger: recordingLogger(warnings),
    handMs: 100,
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  return {
    controller,
    url: mosquitto.url,
    wsUrl: mosquitto.wsUrl!,
    warnings,
    async stop() {
      await controller.stop();
      await mosquitto.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const BROKERS = { aedes: startAedes, mosquitto: startWithMosquitto };

describe.each(Object.keys(BROKERS) as (keyof typeof BROKERS)[])('roles on %s', (broker) => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await BROKERS[broker]();
    await setup.controller.sessions.get('board1')!.untilPlaying(10_000);
    await setup.controller.sessions.get('board2')!.untilPlaying(10_000);
  }, 30_000);
  afterAll(async () => {
    await setup?.stop();
  });

  it.each(['tcp', 'ws'] as const)(
    'each role, each request and each topic, over %s',
    async (transport) => {
      const url = transport === 'tcp' ? setup.url : setup.wsUrl;
      // The arbiter reads everything: what it never sees, nobody published.
      const watcher = await Recorder.connect(setup.url, ['#', '$SYS/#'], login('referee'));
      const clients = new Map<Who, Recorder>();
      for (const who of EVERYONE) {
        clients.set(
          who,
          await Recorder.connect(url, [`${BASE}/#`, '$SYS/#', 'wled/#'], {
            ...login(who),
            clientId: `acc-${broker}-${transport}-${who}`,
          }),
        );
      }
      // A client that connects now: aedes announces it on $SYS (Mosquitto keeps $SYS retained).
      await (await Recorder.connect(setup.url, [], { clientId: `acc-${transport}-late` })).end();
      const tag = (who: Who, i: number) => `${transport}-${who}-${i}`;
      for (const who of EVERYONE) {
        const client = clients.get(who)!.client;
        for (const [i, r] of REQUESTS.entries()) {
          const payload = JSON.stringify({ ...r.payload, transaction: tag(who, i) });
          await client.publishAsync(`${BASE}/bridge/request/${r.topic}`, payload, { qos: 1 });
        }
        for (const [i, w] of WRITES.entries()) {
          await client.publishAsync(w.topic, JSON.stringify({ spoof: tag(who, 100 + i) }), { qos: 1 });
        }
        // A spoofed retained position.
        await client.publishAsync(`${BASE}/board1/position`, JSON.stringify({ spoof: tag(who, 200) }), {
          qos: 1,
          retain: true,
        });
      }
      // The controller answers every request that got through (with a result or a game's error).
      const answered = (t: string) =>
        watcher.messages.some(
          (m) => m.topic.startsWith(`${BASE}/bridge/response/`) && m.text.includes(`"${t}"`),
        );
      for (const who of EVERYONE) {
        for (const [i, r] of REQUESTS.entries()) {
          if (r.may.includes(who))
            await watcher.until(`the answer to ${who}'s ${r.topic}`, () => answered(tag(who, i)));
        }
      }
      for (const who of EVERYONE) {
        for (const [i, w] of WRITES.entries()) {
          if (w.may.includes(who)) {
            await watcher.until(`${who}'s ${w.topic}`, () =>
              watcher.messages.some((m) => m.text.includes(tag(who, 100 + i))),
            );
          }
        }
      }
      // A last request by the arbiter, answered: everything published before it has been routed.
      const probe = await clients
        .get('referee')!
        .request(BASE, 'bridge/health', { transaction: `${transport}-probe` }, `${transport}-probe`);
      expect(probe).toMatchObject({ status: 'ok' });
      await new Promise((r) => setTimeout(r, 300));

      const seen = (t: string) => watcher.messages.some((m) => m.text.includes(`"${t}"`));
      for (const who of EVERYONE) {
        for (const [i, r] of REQUESTS.entries()) {
          expect(seen(tag(who, i)), `${who} publishes ${r.topic}`).toBe(r.may.includes(who));
          expect(answered(tag(who, i)), `${who}'s ${r.topic} answered`).toBe(r.may.includes(who));
        }
        for (const [i, w] of WRITES.entries()) {
          expect(seen(tag(who, 100 + i)), `${who} publishes ${w.topic}`).toBe(w.may.includes(who));
        }
        expect(seen(tag(who, 200)), `${who} spoofs the position`).toBe(false);
      }

      // What each role is given, whatever it subscribed to.
      const got = (who: Who, test: (topic: string) => boolean) =>
        clients.get(who)!.messages.some((m) => test(m.topic));
      const reads: { what: string; test: (topic: string) => boolean; may: readonly Who[] }[] = [
        {
          what: 'board1 position',
          test: (t) => t === `${BASE}/board1/position`,
          may: ['anonymous', 'fan', 'red1', 'referee'],
        },
        {
          what: 'bridge state',
          test: (t) => t === `${BASE}/bridge/state`,
          may: ['anonymous', 'fan', 'red1', 'referee'],
        },
        { what: 'requests', test: (t) => t.startsWith(`${BASE}/bridge/request/`), may: ['referee'] },
        {
          what: 'responses',
          test: (t) => t.startsWith(`${BASE}/bridge/response/`),
          may: ['red1', 'referee'],
        },
        { what: '$SYS', test: (t) => t.startsWith('$SYS/'), may: ['referee'] },
        { what: 'its WLED topic', test: (t) => t === 'wled/board1/api', may: ['wled1', 'referee'] },
      ];
      for (const r of reads) {
        for (const who of EVERYONE)
          expect(got(who, r.test), `${who} reads ${r.what}`).toBe(r.may.includes(who));
      }
      // No spoofed position reached anyone.
      for (const who of EVERYONE) {
        for (const m of clients.get(who)!.on(`${BASE}/board1/position`))
          expect(m.text).not.toContain('spoof');
      }
      for (const c of clients.values()) await c.end();
      await watcher.end();
    },
    60_000,
  );

  it('a retained request is refused with an error, never kept, never obeyed', async () => {
    const referee = await Recorder.connect(setup.url, [`${BASE}/bridge/response/#`], login('referee'));
    const topic = `${BASE}/bridge/request/game/resign`;
    await referee.client.publishAsync(topic, JSON.stringify({ board: 'board2', transaction: 'kept' }), {
      qos: 1,
      retain: true,
    });
    await referee.until('the refusal', () =>
      referee.json(`${BASE}/bridge/response/game/resign`).some((r) => r.transaction === 'kept'),
    );
    expect(
      referee.json(`${BASE}/bridge/response/game/resign`).find((r) => r.transaction === 'kept'),
    ).toMatchObject({
      status: 'error',
      code: 'retained',
    });
    // A client arriving later (a reconnecting controller) finds nothing retained there.
    const late = await Recorder.connect(setup.url, [`${BASE}/bridge/request/#`], login('referee'));
    await new Promise((r) => setTimeout(r, 300));
    expect(late.messages.filter((m) => m.text !== '')).toEqual([]);
    expect(setup.controller.sessions.get('board2')!.view().status).not.toBe('over');
    await late.end();
    await referee.end();
  });

  it("a player's request must agree with its topic's board and side", async () => {
    const red1 = await Recorder.connect(setup.url, [`${BASE}/bridge/response/#`], login('red1'));
    const ask = async (payload: object, transaction: string) => {
      await red1.client.publishAsync(
        `${BASE}/bridge/request/game/draw/board1/red`,
        JSON.stringify({ ...payload, transaction }),
        { qos: 1 },
      );
      await red1.until(transaction, () =>
        red1.json(`${BASE}/bridge/response/game/draw`).some((r) => r.transaction === transaction),
      );
      return red1.json(`${BASE}/bridge/response/game/draw`).find((r) => r.transaction === transaction)!;
    };
    expect(await ask({ action: 'offer', board: 'board2' }, 'other-board')).toMatchObject({
      status: 'error',
      code: 'bad_request',
    });
    expect(await ask({ action: 'accept', side: 'black' }, 'other-side')).toMatchObject({
      status: 'error',
      code: 'bad_request',
    });
    await red1.end();
  });

  it('a spoofed retained position never replaces the controller’s', async () => {
    for (const who of EVERYONE) {
      const c = await Recorder.connect(setup.url, [], login(who));
      await c.client.publishAsync(`${BASE}/board2/position`, '{"spoof":true}', { qos: 1, retain: true });
      await c.end();
    }
    const late = await Recorder.connect(setup.url, [`${BASE}/board2/position`]);
    await late.until('the retained position', () => late.on(`${BASE}/board2/position`).length > 0);
    await new Promise((r) => setTimeout(r, 200));
    for (const m of late.on(`${BASE}/board2/position`)) {
      expect(JSON.parse(m.text)).toMatchObject({ game: expect.any(String), startFen: expect.any(String) });
    }
    await late.end();
  });

  it('rate-limits requests (aedes: per client; Mosquitto: per request topic), with an error', async () => {
    const referee = await Recorder.connect(setup.url, [`${BASE}/bridge/response/#`], login('referee'));
    for (let i = 0; i < 40; i++) {
      await referee.client.publishAsync(
        `${BASE}/bridge/request/game/get`,
        JSON.stringify({ board: 'board1', transaction: `rl${i}` }),
        { qos: 1 },
      );
    }
    await referee.until('40 answers', () => referee.json(`${BASE}/bridge/response/game/get`).length >= 40);
    const answers = referee.json(`${BASE}/bridge/response/game/get`);
    const limited = answers.filter((a) => a.code === 'rate_limited');
    // 30 at once, then 2 a second: the earlier tests used a few of this topic's.
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(answers.filter((a) => a.status === 'ok').length).toBeGreaterThanOrEqual(20);
    await referee.end();
  });
});

describe('the embedded broker alone', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await startAedes();
  }, 30_000);
  afterAll(async () => {
    await setup?.stop();
  });

  it('refuses a client id that another client holds, and keeps the holder', async () => {
    const holder = await Recorder.connect(setup.url, [`${BASE}/bridge/state`], { clientId: 'taken-id' });
    const refused = await Recorder.connect(setup.url, [], { clientId: 'taken-id' }).then(
      () => 'connected',
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/Identifier rejected/i);
    const named = await Recorder.connect(setup.url, [], { clientId: 'taken-id', ...login('fan') }).then(
      () => 'connected',
      (e: Error) => e.message,
    );
    expect(named).toMatch(/Identifier rejected/i);
    expect(holder.client.connected).toBe(true);
    await holder.end();
  });

  it('logs failed logins and answers them later each time', async () => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      const r = await Recorder.connect(setup.url, [], { username: 'referee', password: 'guess' }).then(
        () => 'connected',
        (e: Error) => e.message,
      );
      times.push(Date.now() - t0);
      expect(r).toMatch(/Bad username or password/i);
    }
    expect(times[0]).toBeGreaterThanOrEqual(450);
    expect(times[2]).toBeGreaterThanOrEqual(1400);
    expect(setup.warnings.filter((w) => w.includes('failed login of "referee"')).length).toBe(3);
    // The right password still gets in without a wait: a fourth failure would be answered
    // 4 steps (2 s) later.
    const t0 = Date.now();
    const good = await Recorder.connect(setup.url, [], login('referee'));
    expect(Date.now() - t0).toBeLessThan(4 * LoginThrottle.STEP_MS);
    await good.end();
  }, 20_000);
});

describe('a guesser on the embedded broker', () => {
  it('is locked out: many wrong passwords at once, then even the right one is refused unchecked', async () => {
    const setup = await startAedes();
    try {
      // 12 guesses in parallel, not waited for (their answers are spread over half a minute).
      const guesses = Array.from({ length: 12 }, (_, i) =>
        connect(setup.url, {
          reconnectPeriod: 0,
          username: 'referee',
          password: `guess${i}`,
          clientId: `guess${i}`,
        }),
      );
      for (const g of guesses) g.on('error', () => {});
      await new Promise((r) => setTimeout(r, 500));
      for (const g of guesses) g.end(true);
      const t0 = Date.now();
      const right = await Recorder.connect(setup.url, [], login('referee')).then(
        () => 'connected',
        (e: Error) => e.message,
      );
      expect(right).toMatch(/Bad username or password/i);
      // Refused at once, not after a wait: the password was not checked (checked, it would be
      // answered when the answers owed are, more than 30 s from now).
      expect(Date.now() - t0).toBeLessThan(LoginThrottle.MAX_MS);
      expect(setup.warnings.some((w) => w.includes('refused unchecked'))).toBe(true);
      // Anonymous viewers from there still watch.
      const viewer = await Recorder.connect(setup.url, [`${BASE}/bridge/state`]);
      await viewer.until('bridge state', () => viewer.on(`${BASE}/bridge/state`).length > 0);
      await viewer.end();
    } finally {
      await setup.stop();
    }
  });

  it('with access.anonymous none, a client without a login is refused at once; a viewer logs in', async () => {
    const setup = await startAedes('none');
    try {
      const anonymous = await Recorder.connect(setup.url, []).then(
        () => 'connected',
        (e: Error) => e.message,
      );
      expect(anonymous).toMatch(/Not authorized/i);
      const fan = await Recorder.connect(setup.url, [`${BASE}/bridge/state`], login('fan'));
      await fan.until('bridge state', () => fan.on(`${BASE}/bridge/state`).length > 0);
      await fan.end();
    } finally {
      await setup.stop();
    }
  });
});
