// Bundles the command line (and the benchmarks) with esbuild: one file each, so `xqboard` starts
// fast and needs no TypeScript at run time. Runs on `npm install` (prepare).
import { build } from 'esbuild';

await build({
  entryPoints: { xqboard: 'src/cli/main.ts', bench: 'bench/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Commands load on demand (src/cli/main.ts): shared code goes into chunks.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
