/**
 * TLS with certificates made by openssl for the test (a CA, and a server certificate for
 * 127.0.0.1 it signed): the embedded broker serves MQTT over TLS and secure WebSocket from the
 * configuration's key and certificate, and the controller reaches an external Mosquitto over
 * mqtts:// and wss:// trusting the configuration's CA file. A client that does not trust the CA
 * is refused.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { Controller } from '../../src/controller/controller.js';
import { Recorder, startMosquitto } from './support.js';

let dir: string;
let ca: Buffer;
const file = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-tls-'));
  chmodSync(dir, 0o755);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=xqboard test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.pem',
  );
  // Mosquitto started as root reads its key as the user it drops to.
  chmodSync(file('server.key'), 0o644);
  ca = readFileSync(file('ca.pem'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const online = async (recorder: Recorder, base: string) => {
  await recorder.until('bridge online', () =>
    recorder.on(`${base}/bridge/state`).some((m) => m.text === '{"state":"online"}'),
  );
};

describe('TLS', () => {
  it('the embedded broker serves mqtts:// and wss:// with the configured key and certificate', async () => {
    const base = 'xqtls';
    const controller = new Controller({
      config: configSchema.parse({
        boards: [{ id: 'board1', source: { driver: 'simulator' } }],
        mqtt: { baseTopic: base, wsPort: 0, tls: { key: file('server.key'), cert: file('server.pem') } },
        archive: { dir: file('games-embedded') },
        web: { enabled: false },
      }),
      listen: { mqttPort: 0, tlsPort: 0, wssPort: 0 },
    });
    const started = await controller.start();
    if (!started.ok) throw new Error(started.error.message);
    const { tlsPort, wssPort } = started.value.broker!;
    try {
      expect(tlsPort).toBeGreaterThan(0);
      expect(wssPort).toBeGreaterThan(0);
      for (const url of [`mqtts://127.0.0.1:${tlsPort}`, `wss://127.0.0.1:${wssPort}`]) {
        const viewer = await Recorder.connect(url, [`${base}/bridge/state`], { ca });
        await online(viewer, base);
        await viewer.end();
        // Without the CA the server's certificate is not trusted.
        const refused = await Recorder.connect(url, [], { connectTimeout: 5000 }).then(
          async (r) => {
            await r.end();
            return 'connected';
          },
          (e: Error) => e.message,
        );
        expect(refused, url).toMatch(/self.signed|unable to verify|certificate/i);
      }
    } finally {
      await controller.stop();
    }
  });

  it('the controller reaches an external broker over mqtts:// and wss:// with the CA file', async () => {
    const mosquitto = await startMosquitto({
      websockets: true,
      listenerConf: `certfile ${file('server.pem')}\nkeyfile ${file('server.key')}`,
    });
    try {
      const tcp = mosquitto.url.replace('mqtt://', 'mqtts://');
      const ws = mosquitto.wsUrl!.replace('ws://', 'wss://');
      for (const [i, url] of [tcp, ws].entries()) {
        const base = `xqtlsext${i}`;
        const viewer = await Recorder.connect(tcp, [`${base}/bridge/state`], { ca });
        const controller = new Controller({
          config: configSchema.parse({
            boards: [{ id: 'board1', source: { driver: 'simulator' } }],
            mqtt: { embedded: false, url, ca: file('ca.pem'), baseTopic: base },
            archive: { dir: file(`games-${i}`) },
            web: { enabled: false },
          }),
        });
        const started = await controller.start();
        try {
          if (!started.ok) throw new Error(started.error.message);
          await online(viewer, base);
        } finally {
          await controller.stop();
          await viewer.end();
        }
      }
    } finally {
      await mosquitto.stop();
    }
  });
});
