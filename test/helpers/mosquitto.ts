/**
 * A Mosquitto of the caller's own: TCP and, if asked, WebSocket listeners, extra configuration (a
 * bridge), persistence, and a restart on the same ports. Mosquitto cannot be told to take any
 * free port and say which, so it is given random ones and started again on others if one is
 * taken: it binds them itself, nothing is guessed free in between. Fails clearly without the
 * binary. Used by the tests and the benchmarks.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface MosquittoOptions {
  /** A WebSocket listener too. */
  readonly websockets?: boolean;
  /** Keeps retained messages across a restart (`persistence true` in its own folder). */
  readonly persistence?: boolean;
  /** More configuration lines (e.g. a bridge `connection`). */
  readonly extra?: string;
  /** Access lines (password_file, acl_file…) instead of `allow_anonymous true`. */
  readonly conf?: string;
  /** Lines for each listener (certfile, keyfile: TLS). */
  readonly listenerConf?: string;
}

export interface RunningMosquitto {
  readonly port: number;
  readonly url: string;
  readonly wsPort?: number;
  readonly wsUrl?: string;
  readonly pid: number | undefined;
  /** Stops it (SIGTERM) and starts it again on the same ports and configuration. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function mosquittoBinary(): string {
  const which = spawnSync('sh', ['-c', 'command -v mosquitto || ls /usr/sbin/mosquitto'], {
    encoding: 'utf8',
  });
  const binary = which.stdout.trim().split('\n')[0];
  if (which.status !== 0 || !binary) {
    throw new Error(
      'mosquitto is not installed: `apt-get install -y mosquitto` (SYSTEM_PACKAGES in scripts/system-deps.mjs, which npm test runs first)',
    );
  }
  return binary;
}

/**
 * A random port to listen on, for a program that cannot be told to take any free one: below
 * Linux's ephemeral range (32768–60999), where the client sockets of the tests and benchmarks
 * (thousands of viewers) never sit; a port taken anyway is tried again on another.
 */
export const randomListenPort = (): number => 20_000 + Math.floor(Math.random() * 12_000);

export async function runMosquitto(options: MosquittoOptions = {}): Promise<RunningMosquitto> {
  const binary = mosquittoBinary();
  const failures: string[] = [];
  for (let attempt = 0; attempt < 8; attempt++) {
    const port = randomListenPort();
    const wsPort = options.websockets ? randomListenPort() : undefined;
    const dir = mkdtempSync(join(tmpdir(), 'xqboard-mosquitto-'));
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(
      conf,
      [
        `listener ${port} 127.0.0.1`,
        ...(options.listenerConf ? [options.listenerConf] : []),
        ...(wsPort !== undefined
          ? [
              `listener ${wsPort} 127.0.0.1`,
              'protocol websockets',
              ...(options.listenerConf ? [options.listenerConf] : []),
            ]
          : []),
        options.conf ?? 'allow_anonymous true',
        options.persistence ? `persistence true\npersistence_location ${dir}/` : 'persistence false',
        'log_dest stderr',
        'log_type all',
        'max_queued_messages 100000',
        options.extra ?? '',
        '',
      ].join('\n'),
    );
    let child: ChildProcess | undefined;
    const launch = async (): Promise<string | undefined> => {
      const c = spawn(binary, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
      child = c;
      let stderr = '';
      c.stderr!.on('data', (d: Buffer) => {
        // Only the start matters; the log of a long run is dropped.
        if (stderr.length < 100_000) stderr += d.toString();
      });
      const deadline = Date.now() + 10_000;
      for (;;) {
        // Up when this Mosquitto (not another program on the port) says it listens and answers.
        const up =
          stderr.includes(`listen socket on port ${port}`) &&
          (wsPort === undefined || stderr.includes(`port ${wsPort}`)) &&
          c.exitCode === null &&
          (await answers(port));
        if (up) return undefined;
        if (c.exitCode !== null || Date.now() > deadline) {
          c.kill('SIGKILL');
          return `ports ${port}${wsPort ? `/${wsPort}` : ''}: ${stderr.trim() || 'no output'}`;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const stopChild = async (): Promise<void> => {
      const c = child;
      if (c && c.exitCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await exited;
      }
    };
    const failed = await launch();
    if (failed === undefined) {
      return {
        port,
        url: `mqtt://127.0.0.1:${port}`,
        ...(wsPort !== undefined ? { wsPort, wsUrl: `ws://127.0.0.1:${wsPort}` } : {}),
        get pid() {
          return child?.pid;
        },
        async restart() {
          await stopChild();
          const again = await launch();
          if (again !== undefined) throw new Error(`mosquitto did not start again: ${again}`);
        },
        async stop() {
          await stopChild();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
    rmSync(dir, { recursive: true, force: true });
    failures.push(failed);
    // A port taken meanwhile (libwebsockets says only that it could not create the listener): again.
    if (!/in use|unable to create websockets listener/i.test(failed)) break;
  }
  throw new Error(`mosquitto did not start:\n${failures.join('\n')}`);
}

function answers(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}
