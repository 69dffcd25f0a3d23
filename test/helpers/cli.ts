/** Runs the real built `xqboard` command (built once for the run by test/global-setup.ts). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  lines: string[];
}

export function xqboard(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, ['bin/xqboard.js', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.trimEnd().split('\n') };
}
