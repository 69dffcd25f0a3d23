/**
 * The embedded broker in a worker thread of its own (`mqtt.brokerThread: true`): its fan-out to
 * many viewers then runs beside the controller's event loop instead of on it, so the move
 * reader's timers are not held up by it (`npm run bench -- fan-out` shows the loop delay both
 * ways). The controller's bridge reaches it over a MessagePort (port-client.ts). Same API as
 * EmbeddedBroker (start gives the ports or the coded error). The access roles go in as data and
 * the worker builds the same checks (functions do not cross into a thread); their log lines come
 * back to the controller's logger.
 */
import {
  isMainThread,
  MessageChannel,
  type MessagePort,
  parentPort,
  type Worker,
  workerData,
} from 'node:worker_threads';
import type { AccessConfig } from '../config/schema.js';
import { RateLimiter } from '../controller/limits.js';
import { workerOf } from '../controller/worker-script.js';
import type { Logger } from '../util/log.js';
import type { Result } from '../util/result.js';
import { AccessList } from './access.js';
import { type BrokerAddress, type BrokerError, type BrokerOptions, EmbeddedBroker } from './broker.js';
import type { BridgeClient } from './in-process.js';
import { PortClient, serveOverPort } from './port-client.js';

const MARK = 'xqboardBrokerWorker';

/** The roles as plain data: the configuration's, and the controller's own login. */
export interface GuardSpec {
  readonly access: AccessConfig;
  readonly controller?: { readonly username: string; readonly password: string } | undefined;
  readonly baseTopic: string;
  readonly homeAssistantStatus?: string | undefined;
}

export type ThreadedBrokerOptions = Omit<BrokerOptions, 'guard'> & { readonly guard?: GuardSpec };

type Started = { type: 'started'; result: Result<BrokerAddress, BrokerError> };
type LogLine = { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string };

/** The worker's log lines, sent to the controller's thread. */
function forwardingLogger(port: MessagePort): Logger {
  const line = (level: LogLine['level']) => (message: string) =>
    port.postMessage({ type: 'log', level, message } satisfies LogLine);
  const logger: Logger = {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: () => logger,
  };
  return logger;
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true && parentPort) {
  const port = parentPort;
  const data = workerData as { options: ThreadedBrokerOptions; bridge: MessagePort };
  const { guard, ...options } = data.options;
  const broker = new EmbeddedBroker({
    ...options,
    ...(guard
      ? {
          guard: {
            access: new AccessList(guard.access, guard.controller),
            baseTopic: guard.baseTopic,
            limiter: new RateLimiter(guard.access.rateLimit.burst, guard.access.rateLimit.perMinute),
            logger: forwardingLogger(port),
            homeAssistantStatus: guard.homeAssistantStatus,
          },
        }
      : {}),
  });
  void broker.start().then((result) => {
    // The controller's bridge, inside this thread's broker.
    const client = broker.localClient();
    if (result.ok && client) serveOverPort(client, data.bridge);
    port.postMessage({ type: 'started', result } satisfies Started);
  });
  port.on('message', (m: { type: string }) => {
    if (m.type === 'stop') void broker.stop().then(() => port.postMessage({ type: 'stopped' }));
  });
}

export class ThreadedBroker {
  private worker: Worker | undefined;
  private bridge: MessagePort | undefined;

  constructor(
    private readonly options: ThreadedBrokerOptions,
    private readonly logger?: Logger,
  ) {}

  async start(): Promise<Result<BrokerAddress, BrokerError>> {
    const channel = new MessageChannel();
    const worker = workerOf(
      import.meta.url,
      'broker-worker',
      { [MARK]: true, options: this.options, bridge: channel.port2 },
      [channel.port2],
    );
    this.worker = worker;
    this.bridge = channel.port1;
    const started = await new Promise<Result<BrokerAddress, BrokerError>>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: Started | LogLine) => {
        if (m.type === 'started') resolve(m.result);
        else if (m.type === 'log') this.logger?.[m.level](m.message);
      });
    });
    if (!started.ok) await this.stop();
    return started;
  }

  /** The controller's own client of the broker, over the thread's MessagePort (once started). */
  localClient(): BridgeClient | undefined {
    return this.bridge && new PortClient(this.bridge);
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.bridge?.close();
    this.bridge = undefined;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3000);
      worker.on('message', (m: { type: string }) => {
        if (m.type === 'stopped') {
          clearTimeout(timer);
          resolve();
        }
      });
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
  }
}
