/**
 * The controller's own connection to the embedded broker in its worker thread
 * (`mqtt.brokerThread`), over a MessagePort instead of a socket: in the worker an InProcessClient
 * on the broker (`serveOverPort`), in the controller's thread a PortClient that forwards to it.
 * A move then costs one message between the threads, not an MQTT packet written, sent over
 * loopback TCP and parsed on each side, and the controller's thread does not load mqtt.js at all.
 * Like the in-process client it needs no last will: the broker's thread lives and dies with it.
 */
import { EventEmitter } from 'node:events';
import type { MessagePort } from 'node:worker_threads';
import type { BridgeClient } from './in-process.js';

type Qos = 0 | 1 | 2;

/** Controller → broker thread. */
type Request =
  | { type: 'publish'; id: number; topic: string; payload: string; qos: Qos; retain: boolean }
  | { type: 'subscribe'; id: number; topic: string; qos: Qos }
  | { type: 'end'; id: number };

/** A request as sent, before it is numbered. */
type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;

/** Broker thread → controller. */
type Reply =
  | { type: 'connect' }
  | { type: 'message'; topic: string; payload: Uint8Array; retain: boolean }
  | { type: 'done'; id: number; error?: string };

/** The broker thread's end: requests from `port` go to `client`, its events go back. */
export function serveOverPort(client: BridgeClient, port: MessagePort): void {
  const reply = (m: Reply) => port.postMessage(m);
  const done = (id: number) => (e?: Error | null) =>
    reply(e ? { type: 'done', id, error: e.message } : { type: 'done', id });
  client.on('connect', () => reply({ type: 'connect' }));
  client.on('message', (topic, payload, packet) =>
    reply({ type: 'message', topic, payload, retain: packet.retain === true }),
  );
  port.on('message', (m: Request) => {
    if (m.type === 'publish')
      client.publish(m.topic, m.payload, { qos: m.qos, retain: m.retain }, done(m.id));
    else if (m.type === 'subscribe') client.subscribe(m.topic, { qos: m.qos }, done(m.id));
    else void client.endAsync().then(() => done(m.id)());
  });
}

/** The controller's end, for the MQTT bridge (the part of mqtt.js's client it uses). */
export class PortClient extends EventEmitter implements BridgeClient {
  connected = false;
  private next = 0;
  private readonly pending = new Map<number, (e?: Error) => void>();

  constructor(private readonly port: MessagePort) {
    super();
    port.on('message', (m: Reply) => {
      if (m.type === 'connect') {
        this.connected = true;
        this.emit('connect');
      } else if (m.type === 'message') {
        const payload = Buffer.from(m.payload.buffer, m.payload.byteOffset, m.payload.byteLength);
        this.emit('message', m.topic, payload, { retain: m.retain });
      } else {
        const callback = this.pending.get(m.id);
        this.pending.delete(m.id);
        callback?.(m.error === undefined ? undefined : new Error(m.error));
      }
    });
  }

  private request(m: Unnumbered<Request>): Promise<void> {
    const id = ++this.next;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, (e) => (e ? reject(e) : resolve()));
      this.port.postMessage({ ...m, id } as Request);
    });
  }

  publish(
    topic: string,
    payload: string,
    options: { qos: Qos; retain: boolean },
    callback?: (e?: Error) => void,
  ): void {
    if (!this.connected) {
      callback?.(new Error('not connected'));
      return;
    }
    this.request({ type: 'publish', topic, payload, ...options }).then(
      () => callback?.(),
      (e: Error) => callback?.(e),
    );
  }

  publishAsync(topic: string, payload: string, options: { qos: Qos; retain: boolean }): Promise<void> {
    return new Promise((resolve, reject) =>
      this.publish(topic, payload, options, (e) => (e ? reject(e) : resolve())),
    );
  }

  subscribe(topic: string, options: { qos: Qos; rap?: boolean }, callback?: (e: Error | null) => void): void {
    this.request({ type: 'subscribe', topic, qos: options.qos }).then(
      () => callback?.(null),
      (e: Error) => callback?.(e),
    );
  }

  /** Unsubscribes in the broker's thread; a thread that no longer answers is waited for 1 s. */
  async endAsync(): Promise<void> {
    this.connected = false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.request({ type: 'end' }),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 1000);
      }),
    ]);
    clearTimeout(timer);
    this.port.close();
  }
}
