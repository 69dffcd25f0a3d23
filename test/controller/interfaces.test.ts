/**
 * `web.host` and `mqtt.host` choose the interface: by default every interface (the tablet beside
 * the board, the WLED strip), with 127.0.0.1 only this computer. Checked on this machine's own
 * non-loopback address.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';

const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

const reaches = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host, port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

async function ports(hosts: { mqtt?: string; web?: string }) {
  const dir = mkdtempSync(join(tmpdir(), 'xqboard-hosts-'));
  const controller = new Controller({
    config: configSchema.parse({
      boards: [{ id: 'board1', source: { driver: 'simulator' } }],
      mqtt: { wsPort: 0, ...(hosts.mqtt ? { host: hosts.mqtt } : {}) },
      web: { enabled: true, ...(hosts.web ? { host: hosts.web } : {}) },
      archive: { dir },
    }),
    listen: { mqttPort: 0, webPort: 0 },
  });
  const started = await controller.start();
  if (!started.ok) throw new Error(started.error.message);
  const mqtt = started.value.broker!.port;
  const web = started.value.web!.port;
  const seen = {
    mqtt: { local: await reaches('127.0.0.1', mqtt), outside: await reaches(outside!, mqtt) },
    web: { local: await reaches('127.0.0.1', web), outside: await reaches(outside!, web) },
  };
  await controller.stop();
  rmSync(dir, { recursive: true, force: true });
  return seen;
}

it('listens on every interface by default, on 127.0.0.1 only when told', async () => {
  expect(outside, 'this machine has no non-loopback IPv4 address to test from').toBeDefined();
  expect(await ports({})).toEqual({
    mqtt: { local: true, outside: true },
    web: { local: true, outside: true },
  });
  expect(await ports({ mqtt: '127.0.0.1', web: '127.0.0.1' })).toEqual({
    mqtt: { local: true, outside: false },
    web: { local: true, outside: false },
  });
});
