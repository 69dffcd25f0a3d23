/**
 * The embedded broker in a worker thread of its own (`mqtt.brokerThread: true`): its fan-out to
 * many viewers then runs beside the controller's event loop instead of on it, so the move
 * reader's timers are not held up by it (`npm run bench -- fan-out` shows the loop delay both
 * ways). The controller's bridge then connects to it over TCP like any client. Same API as
 * EmbeddedBroker (start gives the ports or the coded error).
 */
import { isMainThread, parentPort, type Worker, workerData } from 'node:worker_threads';
import { workerOf } from '../controller/worker-script.js';
import type { Result } from '../util/result.js';
import { type BrokerAddress, type BrokerError, type BrokerOptions, EmbeddedBroker } from './broker.js';

const MARK = 'xqboardBrokerWorker';

type Started = { type: 'started'; result: Result<BrokerAddress, BrokerError> };

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true && parentPort) {
  const port = parentPort;
  const broker = new EmbeddedBroker((workerData as { options: BrokerOptions }).options);
  void broker.start().then((result) => port.postMessage({ type: 'started', result } satisfies Started));
  port.on('message', (m: { type: string }) => {
    if (m.type === 'stop') void broker.stop().then(() => port.postMessage({ type: 'stopped' }));
  });
}

export class ThreadedBroker {
  private worker: Worker | undefined;

  constructor(private readonly options: BrokerOptions) {}

  async start(): Promise<Result<BrokerAddress, BrokerError>> {
    const worker = workerOf(import.meta.url, 'broker-worker', { [MARK]: true, options: this.options });
    this.worker = worker;
    const started = await new Promise<Result<BrokerAddress, BrokerError>>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (m: Started) => {
        if (m.type === 'started') resolve(m.result);
      });
    });
    if (!started.ok) await this.stop();
    return started;
  }

  /** Not in this thread: the bridge connects over TCP. */
  get instance(): undefined {
    return undefined;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
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
