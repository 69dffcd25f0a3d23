// Bundles the command line (and the benchmarks, and the real-play table) with esbuild: one file
// each, so `xqboard` starts fast and needs no TypeScript at run time. Runs on `npm install` (prepare).
import { cpSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: {
    xqboard: 'src/cli/main.ts',
    bench: 'bench/main.ts',
    'fanout-viewers': 'bench/fanout-viewers.ts',
    'real-play': 'scripts/real-play.ts',
    'real-play-show': 'scripts/real-play-show.ts',
    'engine-match': 'scripts/engine-match.ts',
    'broker-worker': 'src/mqtt/broker-worker.ts',
  },
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

// The web page (src/web/server.ts serves dist/web/): its script, with the rules and the notation
// it shares with the controller, bundled for the browser; the HTML and CSS as they are.
// The viewer page (viewer.html) takes mqtt.js's browser build (its package's `browser` export).
await build({
  entryPoints: { app: 'src/web/page/app.ts', viewer: 'src/web/page/viewer.ts' },
  outdir: 'dist/web',
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
});
mkdirSync('dist/web', { recursive: true });
for (const file of ['index.html', 'viewer.html', 'style.css'])
  cpSync(`src/web/page/${file}`, `dist/web/${file}`);
