/** Builds the command line once before any test spawns it. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the build failed:\n${build.stdout}\n${build.stderr}`);
}
