// Bundles the command line (and the benchmarks, and the real-play table) with esbuild: one file
// each, so `xqboard` starts fast and needs no TypeScript at run time. Runs on `npm install` (prepare).
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { relative } from 'node:path';
import { build } from 'esbuild';

/**
 * The pure-JavaScript packages every `xqboard start` loads, bundled with what they import: one
 * script instead of dozens of module files each (zod alone is ~60 ESM files), which Node keeps
 * apart in memory. Resident memory of `xqboard start` (one simulated board, the broker, the page)
 * 2 s after start, eight starts each: 78–80 MB with every package external, 70–72 MB bundled
 * (pino-pretty loaded only for a terminal: src/util/require.ts). The others stay packages: native
 * addons (serialport; ws's optional bufferutil and utf-8-validate), files found at run time
 * (pino's transport worker, the engine's WebAssembly, johnny-five's), and what loads on demand
 * (mqtt, pino-pretty).
 */
const BUNDLED = ['aedes', 'ws', 'xstate', 'yaml', 'zod'];
/** Native addons that bundled code requires if they are there (ws). */
const NATIVE = ['bufferutil', 'utf-8-validate'];

const packageOf = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Bare imports are external, but for BUNDLED and what they import (an importer inside
 * node_modules is reached only through a bundled package).
 */
const bundleOnly = {
  name: 'bundle-only',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const pkg = packageOf(args.path);
      if (args.path.startsWith('node:') || builtinModules.includes(pkg)) return undefined;
      if (NATIVE.includes(pkg)) return { path: args.path, external: true };
      if (BUNDLED.includes(pkg) || args.importer.includes('/node_modules/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const commands = await build({
  entryPoints: {
    xqboard: 'src/cli/main.ts',
    bench: 'bench/main.ts',
    'fanout-viewers': 'bench/fanout-viewers.ts',
    'real-play': 'scripts/real-play.ts',
    'real-play-show': 'scripts/real-play-show.ts',
    'dead-ceiling': 'scripts/dead-ceiling.ts',
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
  plugins: [bundleOnly],
  // Bundled CommonJS (xstate, aedes's dependencies) requires Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
});

// Chunks of earlier builds (their names change with their contents) would pile up: only this
// build's stay.
const written = new Set(Object.keys(commands.metafile.outputs).map((file) => relative('dist/chunks', file)));
for (const file of readdirSync('dist/chunks')) if (!written.has(file)) rmSync(`dist/chunks/${file}`);

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
