/**
 * A worker thread running a module of ours: built, the build's own entry for it (`dist/<entry>.js`,
 * scripts/build.mjs) or else the module's chunk; from TypeScript (tests), the module bundled now
 * with esbuild. The hint engine and the threaded broker start theirs this way.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type TransferListItem, Worker } from 'node:worker_threads';

const bundles = new Map<string, string>();

/**
 * `self` is the module's `import.meta.url`; `entry` the build's entry name for it; `transferList`
 * what `workerData` hands over (a MessagePort).
 */
export function workerOf(
  self: string,
  entry: string,
  workerData: unknown,
  transferList: readonly TransferListItem[] = [],
): Worker {
  const options = { workerData, transferList: [...transferList] };
  if (!self.endsWith('.ts')) {
    // dist/chunks/chunk-….js: the build's own worker entry when it has one.
    const built = new URL(`../${entry}.js`, self);
    return new Worker(existsSync(fileURLToPath(built)) ? built : new URL(self), options);
  }
  let bundled = bundles.get(self);
  if (bundled === undefined) {
    const { buildSync } = createRequire(self)('esbuild') as typeof import('esbuild');
    const out = buildSync({
      entryPoints: [fileURLToPath(self)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      write: false,
      logLevel: 'silent',
      // Packages are loaded from node_modules as they are.
      packages: 'external',
    });
    bundled = out.outputFiles[0]!.text;
    bundles.set(self, bundled);
  }
  return new Worker(bundled, { eval: true, ...options });
}
