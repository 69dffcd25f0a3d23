/**
 * The viewers of the fan-out benchmark, in a process of their own (so their MQTT parsing never
 * runs on the broker's event loop): `count` clients on `url` (mqtt:// or ws://) subscribed to
 * `topic`. Tells its parent (IPC) `ready` with the time it took to connect and subscribe them all,
 * then for each message its receipt times (monotonic.ts, sub-millisecond) when asked to `report`.
 * `unwatch` unsubscribes them all (connected, they get nothing while another group is measured on
 * the same broker); `watch` forgets the receipts so far and subscribes them again.
 */
import { connect, type MqttClient } from 'mqtt';
import { monotonicMs } from './monotonic.js';

const [url, topic, countText] = process.argv.slice(2);
const count = Number(countText);
const now = monotonicMs;
const receipts = new Map<number, number[]>();
const clients: MqttClient[] = [];

async function main(): Promise<void> {
  const t0 = performance.now();
  // In batches: a reconnect storm of 1,000 at once is a different benchmark.
  for (let i = 0; i < count; i += 50) {
    const batch: Promise<void>[] = [];
    for (let k = i; k < Math.min(count, i + 50); k++) {
      const client = connect(url!, {
        reconnectPeriod: 0,
        protocolVersion: 4,
        clientId: `viewer-${process.pid}-${k}`,
        connectTimeout: 60_000,
        keepalive: 600,
      });
      clients.push(client);
      client.on('message', (_t, payload) => {
        const at = now();
        let ply = -1;
        try {
          ply = (JSON.parse(payload.toString()) as { ply?: number }).ply ?? -1;
        } catch {}
        let list = receipts.get(ply);
        if (!list) {
          list = [];
          receipts.set(ply, list);
        }
        list.push(at);
      });
      batch.push(
        new Promise<void>((resolve, reject) => {
          client.once('connect', () => {
            client.subscribe(topic!, { qos: 0 }, (e) => (e ? reject(e) : resolve()));
          });
          client.once('error', reject);
        }),
      );
    }
    await Promise.all(batch);
  }
  process.send?.({ type: 'ready', connectMs: performance.now() - t0 });
}

process.on('message', (m: { type: string }) => {
  if (m.type === 'report') process.send?.({ type: 'report', receipts: Object.fromEntries(receipts) });
  else if (m.type === 'watch' || m.type === 'unwatch') {
    receipts.clear();
    const watch = m.type === 'watch';
    void Promise.all(
      clients.map((c) => (watch ? c.subscribeAsync(topic!, { qos: 0 }) : c.unsubscribeAsync(topic!))),
    ).then(
      () => process.send?.({ type: m.type }),
      (e) => process.send?.({ type: 'error', message: (e as Error).message }),
    );
  } else if (m.type === 'exit') {
    for (const c of clients) c.end(true);
    setTimeout(() => process.exit(0), 100);
  }
});

main().catch((e) => {
  process.send?.({ type: 'error', message: (e as Error).message });
  process.exit(1);
});
