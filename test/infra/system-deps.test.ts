/**
 * scripts/system-deps.mjs, which `npm test` runs first: its decision (missing packages × system ×
 * user → install plan or the command to run) as a pure function, and one real run on this machine.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  isDebianLike,
  missingFrom,
  missingPackages,
  PACKAGE_NAMES,
  parseOsRelease,
  planSystemDeps,
  SYSTEM_PACKAGES,
} from '../../scripts/system-deps.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

const DEBIAN = parseOsRelease(`PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
ID=debian
`);
const UBUNTU = parseOsRelease(`PRETTY_NAME="Ubuntu 24.04.1 LTS"
ID=ubuntu
ID_LIKE=debian
`);
const MINT = parseOsRelease(`NAME="Linux Mint"
ID=linuxmint
ID_LIKE="ubuntu debian"
`);
const FEDORA = parseOsRelease(`NAME="Fedora Linux"
PRETTY_NAME="Fedora Linux 40 (Workstation Edition)"
ID=fedora
`);

const INSTALL = ['apt-get', 'install', '-y', '--no-install-recommends'];

describe('os-release', () => {
  it('is read as keys and unquoted values', () => {
    expect(DEBIAN).toMatchObject({ ID: 'debian', PRETTY_NAME: 'Debian GNU/Linux 12 (bookworm)' });
    expect(MINT.ID_LIKE).toBe('ubuntu debian');
  });

  it('Debian, Ubuntu and systems made from them use apt; others do not', () => {
    expect([DEBIAN, UBUNTU, MINT].map(isDebianLike)).toEqual([true, true, true]);
    expect([FEDORA, null].map(isDebianLike)).toEqual([false, false]);
  });
});

describe('dpkg-query output', () => {
  it('only "install ok installed" counts', () => {
    const out = [
      'g++\tinstall ok installed',
      'make\tinstall ok installed',
      'fonts-liberation\tunknown ok not-installed',
      'mosquitto\tdeinstall ok config-files',
      'chromium\tinstall ok half-configured',
      '',
    ].join('\n');
    expect(missingFrom(out, ['g++', 'make', 'fonts-liberation', 'mosquitto', 'chromium', 'simavr'])).toEqual([
      'fonts-liberation',
      'mosquitto',
      'chromium',
      'simavr',
    ]);
  });
});

describe('the plan', () => {
  it('nothing missing: nothing to do, whoever runs it', () => {
    for (const uid of [0, 1000]) {
      for (const sudo of ['none', 'password'] as const) {
        expect(planSystemDeps({ missing: [], os: DEBIAN, uid, sudo })).toEqual({ kind: 'ready' });
      }
    }
  });

  it('root on Debian: apt-get update, then the missing packages without recommends, with why', () => {
    const plan = planSystemDeps({
      missing: ['mosquitto', 'gcc-avr', 'chromium'],
      os: DEBIAN,
      uid: 0,
      sudo: 'none',
    });
    expect(plan).toEqual({
      kind: 'install',
      sudo: false,
      steps: [
        ['apt-get', 'update'],
        [...INSTALL, 'mosquitto', 'gcc-avr', 'chromium'],
      ],
      groups: [
        { why: expect.stringContaining('ATmega2560'), packages: ['gcc-avr'] },
        { why: expect.stringContaining('Mosquitto'), packages: ['mosquitto'] },
        { why: expect.stringContaining('Chromium'), packages: ['chromium'] },
      ],
    });
  });

  it('a user with passwordless sudo on Ubuntu or Mint: the same steps through sudo', () => {
    for (const os of [UBUNTU, MINT]) {
      const plan = planSystemDeps({ missing: ['simavr'], os, uid: 1000, sudo: 'passwordless' });
      expect(plan).toMatchObject({
        kind: 'install',
        sudo: true,
        steps: [
          ['apt-get', 'update'],
          [...INSTALL, 'simavr'],
        ],
      });
    }
  });

  it('a user whose sudo asks for a password: stop, with the sudo command', () => {
    const plan = planSystemDeps({
      missing: ['mosquitto', 'chromium'],
      os: UBUNTU,
      uid: 1000,
      sudo: 'password',
    });
    expect(plan.kind).toBe('stop');
    if (plan.kind !== 'stop') return;
    expect(plan.command).toBe(
      'sudo apt-get update && sudo apt-get install -y --no-install-recommends mosquitto chromium',
    );
    expect(plan.message).toContain(`  ${plan.command}\n`);
    expect(plan.message).toContain('uid 1000');
    expect(plan.message).toContain('mosquitto: the MQTT bridge');
  });

  it('a user without sudo: stop, with the command for su', () => {
    const plan = planSystemDeps({ missing: ['mosquitto'], os: DEBIAN, uid: 1000, sudo: 'none' });
    expect(plan).toMatchObject({
      kind: 'stop',
      command: "su -c 'apt-get update && apt-get install -y --no-install-recommends mosquitto'",
    });
  });

  it('not Debian or Ubuntu: stop, whoever runs it, naming the system and the command', () => {
    for (const [os, platform, name] of [
      [FEDORA, 'linux', 'Fedora Linux 40'],
      [null, 'darwin', 'darwin'],
    ] as const) {
      for (const uid of [0, 501]) {
        const plan = planSystemDeps({ missing: null, os, platform, uid, sudo: 'passwordless' });
        expect(plan.kind).toBe('stop');
        if (plan.kind !== 'stop') continue;
        expect(plan.message).toContain(name);
        expect(plan.message).toContain(`  ${plan.command}\n`);
        expect(plan.command).toContain('node:20-bookworm');
        // The Debian command for reference, every package in it.
        expect(plan.message).toContain(
          `apt-get install -y --no-install-recommends ${PACKAGE_NAMES.join(' ')}`,
        );
      }
    }
  });
});

describe('one list', () => {
  it('each package once, each group saying why', () => {
    expect(new Set(PACKAGE_NAMES).size).toBe(PACKAGE_NAMES.length);
    for (const g of SYSTEM_PACKAGES) expect(g.why.length).toBeGreaterThan(10);
  });

  it('npm test runs the script first; .ci/run installs nothing itself', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toMatch(/^node scripts\/system-deps\.mjs && /);
    const ci = readFileSync(`${root}.ci/run`, 'utf8');
    expect(ci).not.toMatch(/apt-get|dpkg/);
    expect(ci).toMatch(/^npm test$/m);
  });
});

describe('on this machine', () => {
  it('with everything installed, it does nothing and says so in one line', () => {
    // A test must not install anything: the packages are there before (npm test saw to it).
    const missing = missingPackages();
    expect(missing, 'run `node scripts/system-deps.mjs` (npm test does) before this test').toEqual([]);
    const r = spawnSync(process.execPath, ['scripts/system-deps.mjs'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`system-deps: all ${PACKAGE_NAMES.length} system packages are installed\n`);
  });
});
