/**
 * Packages loaded when first needed, not at start-up: pino-pretty only for a terminal, johnny-five
 * only for such a board, the engine's WebAssembly only for a hint. What `xqboard start` does not
 * load costs it no memory (a package is a few MB of resident memory once loaded).
 */
import { createRequire } from 'node:module';

let made: NodeJS.Require | undefined;

/** Node's `require`, resolving from this module (src/util/ or dist/chunks/); made on first use. */
function nodeRequire(): NodeJS.Require {
  made ??= createRequire(import.meta.url);
  return made;
}

/** A CommonJS package (or file of one), loaded now. */
export const requirePackage = (id: string): unknown => nodeRequire()(id);

/** The path of a package's file, resolved as `requirePackage` would. */
export const resolvePackage = (id: string): string => nodeRequire().resolve(id);
