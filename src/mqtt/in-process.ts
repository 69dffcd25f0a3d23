/**
 * The controller's own connection to its embedded broker, without a socket: publishes go straight
 * into aedes and subscriptions are aedes's own. It offers the part of mqtt.js's client the bridge
 * uses, so the bridge is the same code for both; mqtt.js is then never loaded (less memory) and a
 * move skips the loopback TCP hop. No last will is needed: the broker lives and dies with it.
 */
import { EventEmitter } from 'node:events';
import type { Aedes } from 'aedes';

type Deliver = Parameters<Aedes['subscribe']>[1];

/** What the MQTT bridge needs of a client (mqtt.js's MqttClient has it too). */
export interface BridgeClient {
  readonly connected: boolean;
  readonly stream?: unknown;
  on(event: 'connect', listener: () => void): this;
  on(
    event: 'message',
    listener: (topic: string, payload: Buffer, packet: { readonly retain?: boolean }) => void,
  ): this;
  on(event: 'error', listener: (e: Error) => void): this;
  once(event: 'connect', listener: () => void): this;
  publish(
    topic: string,
    payload: string,
    options: { qos: 0 | 1 | 2; retain: boolean },
    callback?: (e?: Error) => void,
  ): unknown;
  publishAsync(
    topic: string,
    payload: string,
    options: { qos: 0 | 1 | 2; retain: boolean },
  ): Promise<unknown>;
  /** `rap`: retain as published (MQTT 5), so a retained request is seen as one. */
  subscribe(
    topic: string,
    options: { qos: 0 | 1 | 2; rap?: boolean },
    callback?: (e: Error | null) => void,
  ): unknown;
  endAsync(force?: boolean): Promise<void>;
}

export class InProcessClient extends EventEmitter implements BridgeClient {
  connected = false;
  private readonly subscriptions = new Map<string, Deliver>();
  private readonly queue: {
    readonly topic: string;
    readonly payload: string;
    readonly options: { qos: 0 | 1 | 2; retain: boolean };
    readonly callback: ((e?: Error) => void) | undefined;
  }[] = [];

  constructor(private readonly aedes: Aedes) {
    super();
    // Connected at once, after the caller has set its listeners (as a socket would be).
    setImmediate(() => {
      if (this.aedes.closed) return;
      this.connected = true;
      this.emit('connect');
    });
  }

  publish(
    topic: string,
    payload: string,
    options: { qos: 0 | 1 | 2; retain: boolean },
    callback?: (e?: Error) => void,
  ): void {
    if (!this.connected) {
      callback?.(new Error('not connected'));
      return;
    }
    this.queue.push({ topic, payload, options, callback });
    if (this.queue.length === 1) this.next();
  }

  /**
   * One publish at a time, in order, as a socket client's are handled: aedes numbers each packet
   * and drops at a viewer any that arrives after a later one (its duplicate check), so a burst
   * published at once (a retained one waits for the store) would lose messages.
   */
  private next(): void {
    const head = this.queue[0];
    if (!head) return;
    const { topic, payload, options, callback } = head;
    const packet = { cmd: 'publish' as const, topic, payload: Buffer.from(payload), dup: false };
    this.aedes.publish({ ...packet, qos: options.qos, retain: options.retain }, (e) => {
      this.queue.shift();
      callback?.(e ?? undefined);
      this.next();
    });
  }

  publishAsync(topic: string, payload: string, options: { qos: 0 | 1 | 2; retain: boolean }): Promise<void> {
    return new Promise((resolve, reject) =>
      this.publish(topic, payload, options, (e) => (e ? reject(e) : resolve())),
    );
  }

  subscribe(
    topic: string,
    _options: { qos: 0 | 1 | 2; rap?: boolean },
    callback?: (e: Error | null) => void,
  ): void {
    if (this.subscriptions.has(topic)) {
      callback?.(null);
      return;
    }
    const deliver: Deliver = (packet, done) => {
      // Delivered after aedes is done with the packet, as a socket client would get it.
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      const retain = packet.retain === true;
      setImmediate(() => this.emit('message', packet.topic, payload, { retain }));
      done();
    };
    this.subscriptions.set(topic, deliver);
    this.aedes.subscribe(topic, deliver, () => callback?.(null));
  }

  async endAsync(): Promise<void> {
    this.connected = false;
    await Promise.all(
      [...this.subscriptions].map(
        ([topic, deliver]) => new Promise<void>((resolve) => this.aedes.unsubscribe(topic, deliver, resolve)),
      ),
    );
    this.subscriptions.clear();
  }
}
