/** What the MQTT tests share: a recording client, a Mosquitto of their own. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { readJournal } from '../../src/record/journal.js';
import { type MosquittoOptions, runMosquitto } from '../helpers/mosquitto.js';

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

  /** Sends a request and waits for its response (by transaction), `ms` at most. */
  async request(
    base: string,
    name: string,
    payload: string | object,
    transaction?: string | number,
    ms?: number,
  ) {
    const topic = `${base}/bridge/response/${name}`;
    const before = this.on(topic).length;
    await this.client.publishAsync(
      `${base}/bridge/request/${name}`,
      typeof payload === 'string' ? payload : JSON.stringify(payload),
      { qos: 1 },
    );
    await this.until(
      `a response on ${topic}`,
      () =>
        this.json(topic)
          .slice(before)
          .some((r) => transaction === undefined || r.transaction === transaction),
      ms,
    );
    const responses = this.json(topic).slice(before);
    return (transaction === undefined ? responses[0] : responses.find((r) => r.transaction === transaction))!;
  }

  async end(): Promise<void> {
    await this.client.endAsync(true);
  }
}

/**
 * How long a hint request may take to be answered: the first one starts the engine, which a
 * search waits for up to 30 s (the embedded Fairy-Stockfish starts in about 1 s on an idle
 * machine, 10 s and more on a loaded 2-core one), then searches for 1 s.
 */
export const HINT_ANSWER_MS = 45_000;

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

/**
 * A Mosquitto of the test's own (anonymous clients allowed). Mosquitto cannot be told to take any
 * free port and say which, so it is given one at random and started again on another if that one
 * is taken: it binds the port itself, nothing is guessed free in between. Fails clearly without
 * the binary.
 */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<Mosquitto> {
  const m = await runMosquitto(options);
  return { port: m.port, url: m.url, ...(m.wsUrl ? { wsUrl: m.wsUrl } : {}), stop: () => m.stop() };
}
