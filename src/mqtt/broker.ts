/**
 * The MQTT broker inside the controller (aedes, MQTT 3.1.1): TCP for devices and tools, WebSocket
 * for browsers, and both over TLS when the configuration has a key and certificate. Who may do
 * what is guard.ts's (the roles of access.ts). Ports taken by something else are reported as coded
 * errors naming the port and the configuration key, so `xqboard start` can say how to change them.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes } from 'aedes';
import { WebSocketServer } from 'ws';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { type GuardOptions, guardBroker } from './guard.js';
import { type BridgeClient, InProcessClient } from './in-process.js';
import { WebSocketDuplex } from './ws-transport.js';

export type BrokerErrorCode = 'port_in_use' | 'listen_failed';
export interface BrokerError extends CodedError<BrokerErrorCode> {
  readonly port: number;
  /** The configuration key of the port: `mqtt.port` or `mqtt.wsPort`. */
  readonly key: 'mqtt.port' | 'mqtt.wsPort' | 'mqtt.tls.port' | 'mqtt.tls.wsPort';
}

export interface BrokerOptions {
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  /** WebSocket port; 0 picks a free one, undefined: no WebSocket listener. */
  readonly wsPort?: number;
  /** Interface to listen on (default: all, so LED controllers and tablets on the network reach it). */
  readonly host?: string;
  /** Roles (access.ts): who may log in, publish, subscribe and read what. */
  readonly guard?: GuardOptions;
  /** MQTT over TLS and secure WebSocket (PEM key and certificate). */
  readonly tls?: {
    readonly key: string;
    readonly cert: string;
    readonly port: number;
    readonly wsPort?: number;
  };
}

export interface BrokerAddress {
  readonly port: number;
  readonly wsPort?: number;
  readonly tlsPort?: number;
  readonly wssPort?: number;
}

export class EmbeddedBroker {
  private aedes: Aedes | undefined;
  private tcp: Server | undefined;
  private ws: WebSocketServer | undefined;
  private readonly secure: (Server | HttpsServer)[] = [];
  private wss: WebSocketServer | undefined;

  constructor(private readonly options: BrokerOptions) {}

  async start(): Promise<Result<BrokerAddress, BrokerError>> {
    const aedes = await Aedes.createBroker();
    this.aedes = aedes;
    if (this.options.guard) guardBroker(aedes, this.options.guard);
    // No Nagle delay: requests, answers and moves are small packets that must not wait for an ACK.
    const tcp = createServer((socket) => {
      socket.setNoDelay(true);
      aedes.handle(socket);
    });
    const port = await listen(tcp, this.options.port, this.options.host, 'mqtt.port');
    if (!port.ok) {
      await this.stop();
      return port;
    }
    this.tcp = tcp;
    let wsPort: number | undefined;
    if (this.options.wsPort !== undefined) {
      const ws = await listenWs(this.options.wsPort, this.options.host);
      if (!ws.ok) {
        await this.stop();
        return ws;
      }
      this.ws = ws.value.server;
      wsPort = ws.value.port;
      this.ws.on('connection', (socket, request) => {
        // One WebSocket frame per tick of writes, not one per write (ws-transport.ts).
        const stream = new WebSocketDuplex(socket);
        stream.on('error', () => socket.terminate());
        aedes.handle(stream, request);
      });
    }
    const secure = await this.listenTls(aedes);
    if (!secure.ok) {
      await this.stop();
      return secure;
    }
    return ok({ port: port.value, ...(wsPort !== undefined ? { wsPort } : {}), ...secure.value });
  }

  /** MQTT over TLS, and WebSocket over TLS, when the configuration has a key and certificate. */
  private async listenTls(
    aedes: Aedes,
  ): Promise<Result<{ tlsPort?: number; wssPort?: number }, BrokerError>> {
    const tls = this.options.tls;
    if (!tls) return ok({});
    const server = createTlsServer({ key: tls.key, cert: tls.cert }, (socket) => {
      socket.setNoDelay(true);
      aedes.handle(socket);
    });
    server.on('tlsClientError', () => {});
    const tlsPort = await listen(server, tls.port, this.options.host, 'mqtt.tls.port');
    if (!tlsPort.ok) return tlsPort;
    this.secure.push(server);
    if (tls.wsPort === undefined) return ok({ tlsPort: tlsPort.value });
    const https = createHttpsServer({ key: tls.key, cert: tls.cert });
    https.on('tlsClientError', () => {});
    const wssPort = await listen(
      https as unknown as Server,
      tls.wsPort,
      this.options.host,
      'mqtt.tls.wsPort',
    );
    if (!wssPort.ok) return wssPort;
    this.secure.push(https);
    this.wss = new WebSocketServer({ server: https });
    this.wss.on('connection', (socket, request) => {
      const stream = new WebSocketDuplex(socket);
      stream.on('error', () => socket.terminate());
      aedes.handle(stream, request);
    });
    return ok({ tlsPort: tlsPort.value, wssPort: wssPort.value });
  }

  /** The controller's own client of the broker, inside the process (in-process.ts), once started. */
  localClient(): BridgeClient | undefined {
    return this.aedes && new InProcessClient(this.aedes);
  }

  /** Clients connected now (the controller's bridge included). */
  get clients(): number {
    return this.aedes?.connectedClients ?? 0;
  }

  async stop(): Promise<void> {
    const ws = this.ws;
    const tcp = this.tcp;
    const aedes = this.aedes;
    // The last messages (the bridge's offline state) reach the subscribers before they are cut off.
    if (aedes) await drained(aedes, 1000);
    this.ws = undefined;
    this.tcp = undefined;
    this.aedes = undefined;
    for (const w of [ws, this.wss]) {
      if (!w) continue;
      for (const c of w.clients) c.terminate();
      await new Promise<void>((resolve) => w.close(() => resolve()));
    }
    this.wss = undefined;
    if (aedes) await new Promise<void>((resolve) => aedes.close(() => resolve()));
    if (tcp?.listening) await new Promise<void>((resolve) => tcp.close(() => resolve()));
    for (const server of this.secure.splice(0)) {
      if (!server.listening) continue;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as HttpsServer).closeAllConnections?.();
      await closed;
    }
  }
}

function listen(
  server: Server,
  port: number,
  host: string | undefined,
  key: BrokerError['key'],
): Promise<Result<number, BrokerError>> {
  return new Promise((resolve) => {
    const onError = (e: NodeJS.ErrnoException) => resolve(listenError(e, port, key));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(ok(typeof address === 'object' && address ? address.port : port));
    });
  });
}

function listenWs(
  port: number,
  host: string | undefined,
): Promise<Result<{ server: WebSocketServer; port: number }, BrokerError>> {
  return new Promise((resolve) => {
    const server = new WebSocketServer({ port, ...(host !== undefined ? { host } : {}) });
    const onError = (e: NodeJS.ErrnoException) => {
      server.close();
      resolve(listenError(e, port, 'mqtt.wsPort'));
    };
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      const address = server.address();
      resolve(ok({ server, port: typeof address === 'object' && address ? address.port : port }));
    });
  });
}

function listenError(e: NodeJS.ErrnoException, port: number, key: BrokerError['key']) {
  if (e.code === 'EADDRINUSE') {
    return err({
      code: 'port_in_use' as const,
      port,
      key,
      message: `port ${port} (${key}) is already in use by another program (another MQTT broker?)`,
    });
  }
  return err({
    code: 'listen_failed' as const,
    port,
    key,
    message: `cannot listen on port ${port} (${key}): ${e.message}`,
  });
}

/** Waits until every client's socket has written what is queued for it, or `ms` passed. */
async function drained(aedes: Aedes, ms: number): Promise<void> {
  const until = Date.now() + ms;
  const pending = (): boolean =>
    Object.values(
      (aedes as unknown as { clients: Record<string, { conn?: { writableLength?: number } }> }).clients,
    ).some((c) => (c.conn?.writableLength ?? 0) > 0);
  while (pending() && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
}
