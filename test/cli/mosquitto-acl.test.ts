/**
 * `xqboard mosquitto-acl` (the built command): the venue example's roles become Mosquitto's
 * password file and acl_file, which a real Mosquitto 2 accepts — the arbiter logs in with its
 * password, a wrong one is refused, the controller account writes and a viewer reads what the
 * table says. A bad configuration is exit status 2.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { AccessList } from '../../src/mqtt/access.js';
import { ROOT, xqboard } from '../helpers/cli.js';
import { Recorder, startMosquitto } from '../mqtt/support.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'xqboard-acl-'));
  chmodSync(dir, 0o755);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('xqboard mosquitto-acl', () => {
  it("writes the venue example's roles, and Mosquitto 2 takes them", async () => {
    const run = xqboard(
      'mosquitto-acl',
      '--config',
      join(ROOT, 'config/examples/venue-four-boards.yaml'),
      '--out',
      dir,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.lines).toEqual(['passwd', 'acl', 'conf'].map((f) => `wrote ${join(dir, `xqboard.${f}`)}`));
    const passwd = readFileSync(join(dir, 'xqboard.passwd'), 'utf8').trim().split('\n');
    expect(passwd.map((l) => l.split(':')[0])).toEqual([
      'controller',
      'arbiter',
      'table1-red',
      'table1-black',
      'wled-table1',
      'wled-table2',
      'wled-table3',
      'wled-table4',
    ]);
    for (const line of passwd)
      expect(line).toMatch(/^[^:]+:\$7\$101\$[A-Za-z0-9+/]{16}\$[A-Za-z0-9+/]{86}==$/);
    const acl = readFileSync(join(dir, 'xqboard.acl'), 'utf8');
    expect(acl).toContain('user table1-red\n');
    expect(acl).toContain('topic write venue/xqboard/bridge/request/game/resign/table1/red\n');
    const red = acl.slice(acl.indexOf('user table1-red\n'), acl.indexOf('user table1-black\n'));
    expect(red).not.toContain('/black');
    // Mosquitto started as root reads the files as the user it drops to.
    chmodSync(join(dir, 'xqboard.passwd'), 0o644);
    const conf = readFileSync(join(dir, 'xqboard.conf'), 'utf8');
    const mosquitto = await startMosquitto({ conf });
    try {
      const arbiter = await Recorder.connect(mosquitto.url, ['venue/xqboard/#'], {
        username: 'arbiter',
        password: 'change-me',
      });
      const wrong = await Recorder.connect(mosquitto.url, [], {
        username: 'arbiter',
        password: 'guess',
      }).then(
        () => 'connected',
        (e: Error) => e.message,
      );
      expect(wrong).toMatch(/Not authorized|Bad user/i);
      const viewer = await Recorder.connect(mosquitto.url, ['venue/xqboard/#']);
      const controller = await Recorder.connect(mosquitto.url, [], {
        username: 'controller',
        password: 'change-me',
      });
      await controller.client.publishAsync('venue/xqboard/table1/position', '{"ok":1}', {
        qos: 1,
        retain: true,
      });
      await viewer.until('the position', () => viewer.on('venue/xqboard/table1/position').length > 0);
      await arbiter.client.publishAsync('venue/xqboard/bridge/request/game/get', '{"board":"table1"}', {
        qos: 1,
      });
      await arbiter.until(
        'its request',
        () => arbiter.on('venue/xqboard/bridge/request/game/get').length > 0,
      );
      expect(viewer.on('venue/xqboard/bridge/request/game/get')).toEqual([]);
      for (const c of [arbiter, viewer, controller]) await c.end();
    } finally {
      await mosquitto.stop();
    }
  });

  it('prints the acl_file without --out, and refuses a bad configuration with status 2', () => {
    const printed = xqboard('mosquitto-acl');
    expect(printed.status).toBe(0);
    expect(printed.stdout).toContain('topic read xqboard/board1/#');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'access:\n  users:\n    - { name: p, password: x, role: player }\n');
    const refused = xqboard('mosquitto-acl', '--config', bad);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('board');
  });

  it("takes mosquitto_passwd's own hashes as passwordHash", () => {
    const file = join(dir, 'made-by-mosquitto');
    writeFileSync(file, '');
    execFileSync('mosquitto_passwd', ['-b', file, 'referee', 'pa:ss wörd']);
    const hash = readFileSync(file, 'utf8').trim().split(':').slice(1).join(':');
    expect(hash).toMatch(/^\$7\$/);
    const config = configSchema.parse({
      access: { users: [{ name: 'referee', passwordHash: hash, role: 'arbiter' }] },
    });
    const access = new AccessList(config.access);
    expect(access.login('referee', 'pa:ss wörd')).toMatchObject({ name: 'referee', role: 'arbiter' });
    expect(access.login('referee', 'pa:ss word')).toBeUndefined();
  });
});
