/**
 * Runs the `xqboard` command: the real built one as a child process (built once for the run by
 * test/global-setup.ts), or its `main` in this process (`xqboardHere`), the same command functions
 * with the output collected, for tests about what a command does rather than how the process ends.
 * A child process costs a Node start and the bundle's load (~0.3 s of CPU); each command keeps
 * child-process tests for its real exit status and streams.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  lines: string[];
}

const run = (status: number | null, stdout: string, stderr: string): CliRun => ({
  status,
  stdout,
  stderr,
  lines: stdout.trimEnd().split('\n'),
});

export function xqboard(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, ['bin/xqboard.js', ...args], { cwd: ROOT, encoding: 'utf8' });
  return run(r.status, r.stdout, r.stderr);
}

/** `main(args)` in this process, each line it writes collected as the child's streams would hold it. */
export async function xqboardHere(...args: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const status = await main(args, {
    out: (text) => {
      stdout += `${text}\n`;
    },
    err: (text) => {
      stderr += `${text}\n`;
    },
  });
  return run(status, stdout, stderr);
}
