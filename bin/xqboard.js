#!/usr/bin/env node
// The `xqboard` command: the bundle that `npm install` builds (scripts/build.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/xqboard.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('xqboard: dist/xqboard.js is missing; run `npm run build` (npm install does it)\n');
  process.exit(2);
}
const { main } = await import(bundle);
process.exitCode = await main(process.argv.slice(2));
