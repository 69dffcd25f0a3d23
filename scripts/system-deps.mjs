// The system packages the tests need, and their installation: `npm test` runs this first.
// Where a package is missing and the machine can install it (Debian or Ubuntu, as root or with
// passwordless sudo) it installs it with apt and says what and why; elsewhere it stops at once with
// the command to run. When everything is there it costs one dpkg-query call.
// Plain Node, no dependencies: it runs before anything else is known to work.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The one list of system packages, by what needs them. */
export const SYSTEM_PACKAGES = [
  // g++ must be there before `npm install` already (node-gyp); the machine images have both.
  { why: 'native addons (node-gyp) and the firmware build', packages: ['g++', 'make'] },
  {
    why: "the firmware tests: the C core's host tests and the simavr harness",
    packages: ['gcc', 'pkg-config', 'simavr', 'libsimavr-dev', 'libsimavrparts1', 'libelf-dev'],
  },
  {
    why: 'the firmware tests: the sketch built for the ATmega2560',
    packages: ['gcc-avr', 'avr-libc', 'arduino-core-avr'],
  },
  {
    why: 'the MQTT bridge is tested against Mosquitto as well as the embedded broker',
    packages: ['mosquitto'],
  },
  {
    // Recommends are not installed: the fonts and Mesa drivers Chromium would pull in are named.
    why: 'the web page is tested in headless Chromium, Chinese text included',
    packages: ['chromium', 'fonts-liberation', 'libgl1-mesa-dri', 'fonts-arphic-ukai', 'fonts-wqy-microhei'],
  },
];

export const PACKAGE_NAMES = SYSTEM_PACKAGES.flatMap((g) => g.packages);

/** Set to 1 by whoever installed the equivalents by other means (another OS, a container image). */
export const SKIP_VARIABLE = 'XQBOARD_SKIP_SYSTEM_DEPS';

/** `/etc/os-release` as key → value (quotes removed). */
export function parseOsRelease(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (!m) continue;
    let value = m[2];
    if (/^(".*"|'.*')$/.test(value)) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    out[m[1]] = value;
  }
  return out;
}

/** Debian, Ubuntu, or a system made from them (ID_LIKE): dpkg and apt, the same package names. */
export function isDebianLike(os) {
  if (!os) return false;
  const ids = [os.ID ?? '', ...(os.ID_LIKE ?? '').split(/\s+/)];
  return ids.some((id) => id === 'debian' || id === 'ubuntu');
}

/** The packages of `wanted` that dpkg-query's `${Package}\t${Status}` lines do not show installed. */
export function missingFrom(dpkgOutput, wanted = PACKAGE_NAMES) {
  const installed = new Set();
  for (const line of dpkgOutput.split('\n')) {
    const [name, status] = line.split('\t');
    if (name && status === 'install ok installed') installed.add(name.split(':')[0]);
  }
  return wanted.filter((p) => !installed.has(p));
}

const shellWord = (w) => (/^[A-Za-z0-9._+:=/-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
const shellLine = (argv) => argv.map(shellWord).join(' ');

const aptSteps = (packages) => [
  ['apt-get', 'update'],
  ['apt-get', 'install', '-y', '--no-install-recommends', ...packages],
];

/** The groups of SYSTEM_PACKAGES that hold some of `packages`, with only those. */
export function groupsOf(packages) {
  return SYSTEM_PACKAGES.map((g) => ({
    why: g.why,
    packages: g.packages.filter((p) => packages.includes(p)),
  })).filter((g) => g.packages.length > 0);
}

/** The command a person runs to install `packages` on a Debian-like system. */
export function manualCommand(packages, sudo) {
  const [update, install] = aptSteps(packages);
  if (sudo === 'none') return `su -c ${shellWord(`${shellLine(update)} && ${shellLine(install)}`)}`;
  return `sudo ${shellLine(update)} && sudo ${shellLine(install)}`;
}

/**
 * What to do, from the facts of the machine; pure.
 * - `missing`: the packages not installed (null when they cannot be known: no dpkg);
 * - `os`: /etc/os-release parsed (null when there is none), `platform`: process.platform;
 * - `uid`: the user's id (null where there is none); `sudo`: 'passwordless', 'password' or 'none'.
 * Returns `{kind:'ready'}`, `{kind:'install', sudo, steps, groups}` (steps: argv lists, each run
 * with sudo when `sudo`), or `{kind:'stop', command, message}`.
 */
export function planSystemDeps({ missing, os, platform = 'linux', uid, sudo }) {
  if (!isDebianLike(os)) {
    const system = os?.PRETTY_NAME ?? os?.ID ?? platform;
    const command = manualCommand(PACKAGE_NAMES, 'password');
    // The reference data (../shared) comes along; node_modules stays the container's own.
    const container =
      'docker run --rm -v "$PWD":/w/xqboard -v "$PWD/../shared":/w/shared:ro -v /w/xqboard/node_modules ' +
      '-w /w/xqboard node:20-bookworm bash .ci/run';
    const message = [
      `system-deps: this machine is ${system}, not Debian or Ubuntu: the system packages the tests need`,
      '(firmware toolchain and simavr, Mosquitto, Chromium) are installed only with apt, and the tests',
      "expect Debian's paths (/usr/bin/chromium, /usr/share/arduino). On Debian or Ubuntu the command is:",
      `  ${command}`,
      'Here, run the whole suite in a Debian 12 container instead:',
      `  ${container}`,
      `or, with the equivalents installed at those paths, set ${SKIP_VARIABLE}=1.`,
    ].join('\n');
    return { kind: 'stop', command: container, message };
  }
  // Debian-like: dpkg is there, so `missing` is known.
  if (!missing || missing.length === 0) return { kind: 'ready' };
  const groups = groupsOf(missing);
  if (uid === 0 || sudo === 'passwordless') {
    return { kind: 'install', sudo: uid !== 0, steps: aptSteps(missing), groups };
  }
  const command = manualCommand(missing, sudo);
  const who = uid === null || uid === undefined ? 'this user' : `this user (uid ${uid})`;
  const how = sudo === 'none' ? 'is not root and has no sudo' : 'is not root and sudo asks for a password';
  const message = [
    'system-deps: the tests need these packages, which are not installed:',
    ...groups.map((g) => `  ${g.packages.join(' ')}: ${g.why}`),
    `${who} ${how}; run:`,
    `  ${command}`,
    'then run the tests again.',
  ].join('\n');
  return { kind: 'stop', command, message };
}

/** The installed state of PACKAGE_NAMES on this machine, or null without dpkg-query. */
export function missingPackages() {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package}\t${Status}\n', ...PACKAGE_NAMES], {
    encoding: 'utf8',
  });
  // Exit 1 only means some names are unknown to dpkg (never installed); stdout has the rest.
  if (r.error) return null;
  return missingFrom(r.stdout);
}

function sudoKind() {
  const r = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  if (r.error) return 'none';
  return r.status === 0 ? 'passwordless' : 'password';
}

function readOsRelease() {
  for (const path of ['/etc/os-release', '/usr/lib/os-release']) {
    try {
      return parseOsRelease(readFileSync(path, 'utf8'));
    } catch {
      // next
    }
  }
  return null;
}

function run(argv, sudo) {
  // The lock timeout waits for another apt or dpkg run instead of failing at once.
  const [cmd, ...args] = argv;
  const apt = [cmd, '-qq', '-o', 'DPkg::Lock::Timeout=600', ...args];
  const full = sudo ? ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive', ...apt] : apt;
  const r = spawnSync(full[0], full.slice(1), {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    // dpkg's progress lines are noise when it works and the context when it does not.
    process.stdout.write(r.stdout ?? '');
    throw new Error(`system-deps: \`${shellLine(full)}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
}

function main() {
  if (process.env[SKIP_VARIABLE] === '1') {
    console.log(`system-deps: not checked (${SKIP_VARIABLE}=1)`);
    return 0;
  }
  const os = readOsRelease();
  const missing = isDebianLike(os) ? missingPackages() : null;
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const needSudo = missing !== null && missing.length > 0 && uid !== 0;
  const plan = planSystemDeps({
    missing,
    os,
    platform: process.platform,
    uid,
    sudo: needSudo ? sudoKind() : 'none',
  });
  if (plan.kind === 'ready') {
    console.log(`system-deps: all ${PACKAGE_NAMES.length} system packages are installed`);
    return 0;
  }
  if (plan.kind === 'stop') {
    console.error(plan.message);
    return 1;
  }
  console.log('system-deps: installing the system packages the tests need:');
  for (const g of plan.groups) console.log(`  ${g.packages.join(' ')}: ${g.why}`);
  for (const step of plan.steps) {
    console.log(`system-deps: ${plan.sudo ? 'sudo ' : ''}${shellLine(step)}`);
    run(step, plan.sudo);
  }
  const still = missingPackages() ?? [];
  if (still.length > 0) {
    console.error(`system-deps: apt finished but these are still not installed: ${still.join(' ')}`);
    return 1;
  }
  console.log(`system-deps: installed ${plan.groups.flatMap((g) => g.packages).length} package(s)`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(e.message);
    process.exitCode = 1;
  }
}
