/**
 * The MQTT bridge: the bus out to MQTT topics, and requests from MQTT in to the board sessions,
 * exactly as `contract.ts` says. Connects with a last will so `bridge/state` turns offline when the
 * controller dies; on every (re)connect it publishes online and the boards' retained state again.
 * Every request payload is checked; a bad one is answered with an error naming what is wrong.
 */
import { connect, type MqttClient } from 'mqtt';
import type { BoardSession } from '../controller/board-session.js';
import type { ControllerContext, Extension, MqttPublisher } from '../controller/extension.js';
import {
  BOARD_TOPIC_SPECS,
  type BoardTopic,
  BRIDGE_INFO_SPEC,
  BRIDGE_STATE_SPEC,
  type BridgeInfoPayload,
  type BridgeStatePayload,
  boardTopics,
  bridgeTopics,
  isRequestName,
  parseRequest,
  REQUEST_NAMES,
  RESPONSE_SPEC,
  type RequestName,
  type RequestPayload,
  type ResponsePayload,
  type TopicSpec,
} from './contract.js';
import { followBus } from './payloads.js';

export interface BridgeOptions {
  /** Broker URL: `mqtt://host:port` or `ws://host:port`. */
  readonly url: string;
  readonly baseTopic: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  readonly version?: string;
  /** How long `start` waits for the first connection before going on (it keeps trying). */
  readonly connectTimeoutMs?: number;
}

export class MqttBridge implements Extension, MqttPublisher {
  readonly name = 'mqtt';
  private client: MqttClient | undefined;
  private readonly seq = new Map<string, number>();
  /** Last retained payload per topic, published again after a reconnect. */
  private readonly retained = new Map<string, { payload: string; spec: TopicSpec }>();
  private readonly unsubscribers: (() => void)[] = [];
  private readonly bridge: ReturnType<typeof bridgeTopics>;
  /** Topics other extensions listen to (`subscribe`). */
  private readonly listeners = new Map<string, Set<(payload: Buffer) => void>>();

  constructor(
    private readonly context: ControllerContext,
    private readonly options: BridgeOptions,
  ) {
    this.bridge = bridgeTopics(options.baseTopic);
  }

  async start(): Promise<void> {
    this.listen();
    const offline: BridgeStatePayload = { state: 'offline' };
    const client = connect(this.options.url, {
      clientId: this.options.clientId ?? `xqboard-${process.pid}-${Math.random().toString(16).slice(2, 8)}`,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      protocolVersion: 4,
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
    client.on('message', (topic, payload) => this.onMessage(topic, payload));
    client.on('error', (e) => this.context.logger.warn(`mqtt: ${e.message}`));
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

  // --- out: bus → topics ----------------------------------------------------------------------

  private listen(): void {
    this.unsubscribers.push(followBus(this.context.bus, (m) => this.boardPublish(m.board, m.topic, m.body)));
  }

  private boardPublish(board: string, topic: BoardTopic, payload: object | string): void {
    const seq = (this.seq.get(board) ?? 0) + 1;
    this.seq.set(board, seq);
    const text = typeof payload === 'string' ? payload : JSON.stringify({ ...payload, seq });
    const spec = BOARD_TOPIC_SPECS[topic];
    const name = boardTopics(this.options.baseTopic, board)[topic];
    if (spec.retain) this.retained.set(name, { payload: text, spec });
    this.publish(name, text, spec);
  }

  private onConnect(): void {
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
    for (const [topic, { payload, spec }] of this.retained) this.publish(topic, payload, spec);
    for (const topic of this.listeners.keys()) this.client?.subscribe(topic, { qos: 0 });
    this.client?.subscribe(this.bridge.requestWildcard, { qos: 1 }, (e) => {
      if (e) this.context.logger.error(`mqtt: cannot subscribe to requests: ${e.message}`);
    });
  }

  // --- in: requests → sessions ----------------------------------------------------------------

  private onMessage(topic: string, payload: Buffer): void {
    for (const handler of this.listeners.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (e) {
        this.context.logger.error(`mqtt: a listener of ${topic} failed: ${(e as Error).message}`);
      }
    }
    const prefix = this.bridge.request('');
    if (!topic.startsWith(prefix)) return;
    const name = topic.slice(prefix.length);
    if (!isRequestName(name)) {
      this.respond(name, {
        data: {},
        status: 'error',
        error: `unknown request "${name}"; known: ${REQUEST_NAMES.join(', ')}`,
        transaction: null,
      });
      return;
    }
    const parsed = parseRequest(name, payload);
    if (!parsed.ok) {
      this.respond(name, {
        data: {},
        status: 'error',
        error: parsed.message,
        transaction: parsed.transaction,
      });
      return;
    }
    const transaction = parsed.value.transaction ?? null;
    let answer: { ok: true; data: unknown } | { ok: false; error: string };
    try {
      answer = this.handle(name, parsed.value);
    } catch (e) {
      // A bug in a handler answers as an error; the controller goes on.
      this.context.logger.error(`mqtt: request ${name}: ${(e as Error).stack ?? e}`);
      answer = { ok: false, error: `internal error: ${(e as Error).message}` };
    }
    this.respond(
      name,
      answer.ok
        ? { data: answer.data, status: 'ok', transaction }
        : { data: {}, status: 'error', error: answer.error, transaction },
    );
  }

  private respond(name: string, response: ResponsePayload): void {
    this.publish(this.bridge.response(name), JSON.stringify(response), RESPONSE_SPEC);
  }

  private session(
    board: string | undefined,
  ): { ok: true; session: BoardSession } | { ok: false; error: string } {
    const sessions = this.context.sessions;
    const ids = [...sessions.keys()];
    if (board === undefined) {
      const only = sessions.size === 1 ? sessions.values().next().value : undefined;
      return only
        ? { ok: true, session: only }
        : { ok: false, error: `"board" is required: one of ${ids.map((i) => `"${i}"`).join(', ')}` };
    }
    const s = sessions.get(board);
    return s
      ? { ok: true, session: s }
      : { ok: false, error: `"board": no board "${board}"; boards: ${ids.map((i) => `"${i}"`).join(', ')}` };
  }

  private handle<N extends RequestName>(
    name: N,
    request: RequestPayload<N>,
  ): { ok: true; data: unknown } | { ok: false; error: string } {
    if (name === 'bridge/health') {
      return {
        ok: true,
        data: Object.fromEntries([...this.context.sessions].map(([id, s]) => [id, s.health()])),
      };
    }
    const r = request as { board?: string };
    const found = this.session(r.board);
    if (!found.ok) return found;
    const s = found.session;
    const answer = <T>(
      result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
    ) =>
      result.ok
        ? { ok: true as const, data: result.value }
        : { ok: false as const, error: `${result.error.code}: ${result.error.message}` };
    switch (name) {
      case 'game/new': {
        const q = request as RequestPayload<'game/new'>;
        return answer(s.newGame(q.fen));
      }
      case 'game/resign':
        return answer(s.resign((request as RequestPayload<'game/resign'>).side));
      case 'game/draw': {
        const q = request as RequestPayload<'game/draw'>;
        return answer(s.draw(q.action, q.side));
      }
      case 'game/options': {
        const q = request as RequestPayload<'game/options'>;
        return {
          ok: true,
          data: s.setOptions({
            ...(q.takebacks !== undefined ? { takebacks: q.takebacks } : {}),
            ...(q.illegalMovePolicy !== undefined ? { illegalMovePolicy: q.illegalMovePolicy } : {}),
          }),
        };
      }
      case 'game/hint':
        return answer(s.hint());
      case 'game/get': {
        const { pgn: _, ...view } = s.view();
        return { ok: true, data: view };
      }
      case 'board/simulate': {
        const q = request as RequestPayload<'board/simulate'>;
        return answer(
          s.simulate({
            ...(q.move !== undefined ? { move: q.move } : {}),
            ...(q.reset !== undefined ? { reset: q.reset } : {}),
            ...(q.fen !== undefined ? { fen: q.fen } : {}),
          }),
        );
      }
      default:
        return { ok: false, error: `request "${name}" is not handled` };
    }
  }
}
