/** What the MQTT tests share: a recording client, a Mosquitto of their own. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { readJournal } from '../../src/record/journal.js';

export interface Received {
  readonly topic: string;
  readonly text: string;
  readonly retain: boolean;
  readonly qos: number;
}

/** A client that keeps every message it receives, with the flags the broker delivered. */
export class Recorder {
  readonly messages: Received[] = [];
  private waiters: { check: () => boolean; resolve: () => void }[] = [];

  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload, packet) => {
      this.messages.push({ topic, text: payload.toString(), retain: packet.retain, qos: packet.qos });
      this.waiters = this.waiters.filter((w) => {
        if (!w.check()) return true;
        w.resolve();
        return false;
      });
    });
  }

  static async connect(url: string, topics: string[], options: IClientOptions = {}): Promise<Recorder> {
    const client = connect(url, { reconnectPeriod: 0, protocolVersion: 4, ...options });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
    const recorder = new Recorder(client);
    // QoS 2 subscriptions: messages arrive at the QoS they were published with.
    if (topics.length > 0) await client.subscribeAsync(topics, { qos: 2 });
    return recorder;
  }

  on(topic: string): Received[] {
    return this.messages.filter((m) => m.topic === topic);
  }

  json(topic: string): Record<string, unknown>[] {
    return this.on(topic).map((m) => JSON.parse(m.text) as Record<string, unknown>);
  }

  /** Resolves once `check` holds (checked on every message); rejects after `ms` with `what`. */
  until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(
            `timed out waiting for ${what}; got:\n${this.messages.map((m) => `${m.topic} ${m.text}`).join('\n')}`,
          ),
        );
      }, ms);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ check, resolve: done });
    });
  }

  /** Sends a request and waits for its response (by transaction). */
  async request(base: string, name: string, payload: string | object, transaction?: string | number) {
    const topic = `${base}/bridge/response/${name}`;
    const before = this.on(topic).length;
    await this.client.publishAsync(
      `${base}/bridge/request/${name}`,
      typeof payload === 'string' ? payload : JSON.stringify(payload),
      { qos: 1 },
    );
    await this.until(`a response on ${topic}`, () =>
      this.json(topic)
        .slice(before)
        .some((r) => transaction === undefined || r.transaction === transaction),
    );
    const responses = this.json(topic).slice(before);
    return (transaction === undefined ? responses[0] : responses.find((r) => r.transaction === transaction))!;
  }

  async end(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/** The moves in the journal(s) of an archive directory, as they are on disk now. */
export function journaledMoves(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.journal.jsonl'))
    .sort()) {
    const j = readJournal(join(dir, name));
    if (j.ok) out.push(...j.value.moves.map((m) => m.iccs));
  }
  return out;
}

export interface Mosquitto {
  readonly port: number;
  readonly url: string;
  /** The WebSocket listener's URL, when asked for. */
  readonly wsUrl?: string;
  stop(): Promise<void>;
}

export interface MosquittoOptions {
  /** More mosquitto.conf lines (password_file, acl_file…); default: anonymous clients allowed. */
  readonly conf?: string;
  /** A WebSocket listener too (on the next port). */
  readonly websockets?: boolean;
  /** Lines for each listener (certfile, keyfile: TLS). */
  readonly listenerConf?: string;
}

/**
 * A Mosquitto of the test's own (anonymous clients allowed). Mosquitto cannot be told to take any
 * free port and say which, so it is given one at random and started again on another if that one
 * is taken: it binds the port itself, nothing is guessed free in between. Fails clearly without
 * the binary.
 */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<Mosquitto> {
  const which = spawnSync('sh', ['-c', 'command -v mosquitto || ls /usr/sbin/mosquitto'], {
    encoding: 'utf8',
  });
  const binary = which.stdout.trim().split('\n')[0];
  if (which.status !== 0 || !binary) {
    throw new Error(
      'mosquitto is not installed: `apt-get install -y mosquitto` (it is in the APT_PACKAGES of .ci/run)',
    );
  }
  const failures: string[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const started = await tryMosquitto(binary, port, options);
    if (started.ok) return started.value;
    failures.push(started.error);
    if (!/in use/i.test(started.error)) break;
  }
  throw new Error(`mosquitto did not start:\n${failures.join('\n')}`);
}

async function tryMosquitto(
  binary: string,
  port: number,
  options: MosquittoOptions,
): Promise<{ ok: true; value: Mosquitto } | { ok: false; error: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      ...(options.listenerConf ? [options.listenerConf] : []),
      ...(options.websockets
        ? [
            `listener ${port + 1} 127.0.0.1`,
            'protocol websockets',
            ...(options.listenerConf ? [options.listenerConf] : []),
          ]
        : []),
      options.conf ?? 'allow_anonymous true',
      'persistence false',
      'log_dest stderr',
      'log_type all',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(binary, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Up when this Mosquitto (not some other program on the port) says it listens and answers.
    const listening =
      stderr.includes(`listen socket on port ${port}`) &&
      (!options.websockets || stderr.includes(`websockets listen socket on port ${port + 1}`));
    const up =
      listening &&
      child.exitCode === null &&
      (await new Promise<boolean>((resolve) => {
        const s = createConnection({ port, host: '127.0.0.1' }, () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }));
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      return { ok: false, error: `port ${port}: ${stderr.trim() || 'no output'}` };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    ok: true,
    value: {
      port,
      url: `mqtt://127.0.0.1:${port}`,
      ...(options.websockets ? { wsUrl: `ws://127.0.0.1:${port + 1}` } : {}),
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
