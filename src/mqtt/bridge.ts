/**
 * The MQTT bridge: the controller's feed out to MQTT topics, and requests from MQTT in to the
 * controller's request API, exactly as `contract.ts` says. Connects with a last will so
 * `bridge/state` turns offline when the controller dies; on every (re)connect it publishes online
 * and the boards' retained state again (the feed's). Every request payload is checked; a bad one
 * is answered with an error naming what is wrong.
 */
import type { ControllerContext, Extension, MqttPublisher } from '../controller/extension.js';
import type { FeedMessage } from '../controller/feed.js';
import { RATE_LIMITED, type RateLimiter } from '../controller/limits.js';
import { performRequest, responseOf, transactionOf } from '../controller/requests.js';
import { parseRequestTopic } from './access.js';
import {
  BOARD_TOPIC_SPECS,
  BRIDGE_INFO_SPEC,
  BRIDGE_STATE_SPEC,
  type BridgeInfoPayload,
  type BridgeStatePayload,
  boardTopicOf,
  bridgeTopics,
  REQUEST_NAMES,
  RESPONSE_SPEC,
  type ResponsePayload,
  type TopicSpec,
} from './contract.js';
import type { BridgeClient } from './in-process.js';
export interface BridgeOptions {
  /** Broker URL: `mqtt://host:port` or `ws://host:port`. */
  readonly url: string;
  readonly baseTopic: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  /** The CA certificate(s) of a broker reached over mqtts:// or wss://. */
  readonly ca?: Buffer;
  readonly version?: string;
  /**
   * An external broker does not say who sent a request: requests are limited per topic (a
   * player's topics name its board and side). The embedded broker limits each client itself.
   */
  readonly limiter?: RateLimiter;
  /** 5 for an external broker: requests are subscribed with "retain as published". */
  readonly protocolVersion?: 4 | 5;
  /** How long `start` waits for the first connection before going on (it keeps trying). */
  readonly connectTimeoutMs?: number;
  /**
   * The embedded broker's own client for the bridge (inside the process, or over its thread's
   * port), not a socket: `url` is then only a name.
   */
  readonly local?: BridgeClient;
}

export class MqttBridge implements Extension, MqttPublisher {
  readonly name = 'mqtt';
  private client: BridgeClient | undefined;
  private readonly unsubscribers: (() => void)[] = [];
  private readonly bridge: ReturnType<typeof bridgeTopics>;
  /** Topics other extensions listen to (`subscribe`). */
  private readonly listeners = new Map<string, Set<(payload: Buffer) => void>>();
  /** Called on every (re)connect, after the retained state went out again. */
  private readonly connected = new Set<() => void>();

  constructor(
    private readonly context: ControllerContext,
    private readonly options: BridgeOptions,
  ) {
    this.bridge = bridgeTopics(options.baseTopic);
  }

  async start(): Promise<void> {
    this.listen();
    const offline: BridgeStatePayload = { state: 'offline' };
    // mqtt.js is loaded only for an external broker.
    const client: BridgeClient = this.options.local
      ? this.options.local
      : (await import('mqtt')).connect(this.options.url, {
          clientId:
            this.options.clientId ?? `xqboard-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
          clean: true,
          reconnectPeriod: 1000,
          connectTimeout: 10_000,
          // MQTT 5 where the broker has it (not aedes): a request's retain flag is then seen as sent.
          protocolVersion: this.options.protocolVersion ?? 4,
          ...(this.options.ca ? { ca: this.options.ca } : {}),
          will: {
            topic: this.bridge.state,
            payload: Buffer.from(JSON.stringify(offline)),
            qos: BRIDGE_STATE_SPEC.qos,
            retain: BRIDGE_STATE_SPEC.retain,
          },
          ...(this.options.username !== undefined ? { username: this.options.username } : {}),
          ...(this.options.password !== undefined ? { password: this.options.password } : {}),
        });
    this.client = client;
    client.on('connect', () => this.onConnect());
    client.on('message', (topic, payload, packet) => this.onMessage(topic, payload, packet.retain === true));
    client.on('error', (e) => this.context.logger.warn(`mqtt: ${e.message}`));
    // The broker's own client may have connected before it was handed over.
    if (client.connected) {
      this.onConnect();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.context.logger.warn(`mqtt: no connection to ${this.options.url} yet; still trying`);
        resolve();
      }, this.options.connectTimeoutMs ?? 10_000);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (client.connected) {
      const offline: BridgeStatePayload = { state: 'offline' };
      await client
        .publishAsync(this.bridge.state, JSON.stringify(offline), {
          qos: BRIDGE_STATE_SPEC.qos,
          retain: BRIDGE_STATE_SPEC.retain,
        })
        .catch(() => {});
    }
    await client.endAsync(false).catch(() => {});
  }

  /** For other extensions (WLED commands): published as is, outside the board sequences. */
  publish(topic: string, payload: string, spec: TopicSpec): void {
    this.client?.publish(topic, payload, { qos: spec.qos, retain: spec.retain }, (e) => {
      if (e) this.context.logger.warn(`mqtt: publishing to ${topic}: ${e.message}`);
    });
  }

  onConnected(listener: () => void): () => void {
    this.connected.add(listener);
    if (this.client?.connected) listener();
    return () => {
      this.connected.delete(listener);
    };
  }

  subscribe(topic: string, handler: (payload: Buffer) => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) {
      set = new Set();
      this.listeners.set(topic, set);
      this.client?.subscribe(topic, { qos: 0 });
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  // --- out: the controller's feed → topics ----------------------------------------------------

  private listen(): void {
    // A held message (the PGN after a move) is state, not news: it goes out on a reconnect only.
    this.unsubscribers.push(this.context.feed.subscribe((m) => !m.held && this.boardPublish(m)));
  }

  private boardPublish(m: FeedMessage): void {
    const text = typeof m.payload === 'string' ? m.payload : JSON.stringify(m.payload);
    const topic = boardTopicOf(this.options.baseTopic, m.board, m.topic, m.ply);
    this.publish(topic, text, BOARD_TOPIC_SPECS[m.topic]);
  }

  private onConnect(): void {
    (this.client?.stream as { setNoDelay?: (on: boolean) => void } | undefined)?.setNoDelay?.(true);
    const online: BridgeStatePayload = { state: 'online' };
    this.publish(this.bridge.state, JSON.stringify(online), BRIDGE_STATE_SPEC);
    const info: BridgeInfoPayload = {
      version: this.options.version ?? '0.0.0',
      baseTopic: this.options.baseTopic,
      boards: this.context.config.boards.map((b) => ({
        id: b.id,
        driver: b.source.driver,
        sensing: b.source.sensing ?? 'occupancy',
      })),
      requests: REQUEST_NAMES,
    };
    this.publish(this.bridge.info, JSON.stringify(info), BRIDGE_INFO_SPEC);
    // A broker that restarted lost the retained state: it is the feed's.
    for (const m of this.context.feed.retained()) this.boardPublish(m);
    for (const topic of this.listeners.keys()) this.client?.subscribe(topic, { qos: 0 });
    this.client?.subscribe(this.bridge.requestWildcard, { qos: 1, rap: true }, (e) => {
      if (e) this.context.logger.error(`mqtt: cannot subscribe to requests: ${e.message}`);
    });
    for (const l of [...this.connected]) l();
  }

  // --- in: requests → the controller's request API ---------------------------------------------

  private onMessage(topic: string, payload: Buffer, retained: boolean): void {
    for (const handler of this.listeners.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (e) {
        this.context.logger.error(`mqtt: a listener of ${topic} failed: ${(e as Error).message}`);
      }
    }
    const route = parseRequestTopic(this.options.baseTopic, topic);
    if (!route) return;
    const { name } = route;
    if (retained) {
      // Stored by the broker, it would be obeyed again at every reconnect: refused, and removed.
      if (payload.length === 0) return;
      this.client?.publish(topic, '', { qos: 1, retain: true });
      const error = {
        code: 'retained',
        message: 'a request must not be retained (it would be obeyed again at every reconnect)',
      };
      this.respond(name, responseOf({ ok: false, error }, transactionOf(payload)));
      return;
    }
    if (this.options.limiter && !this.options.limiter.take(`mqtt-topic:${topic}`)) {
      this.respond(name, responseOf({ ok: false, error: RATE_LIMITED }, transactionOf(payload)));
      return;
    }
    void performRequest(this.context, name, payload, route.board, route.side).then(
      ({ result, transaction }) => {
        if (!result.ok && result.error.code === 'internal') {
          this.context.logger.error(`mqtt: request ${name}: ${result.error.message}`);
        }
        this.respond(name, responseOf(result, transaction));
      },
    );
  }

  private respond(name: string, response: ResponsePayload): void {
    this.publish(this.bridge.response(name), JSON.stringify(response), RESPONSE_SPEC);
  }
}
