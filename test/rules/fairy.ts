/** Fairy-Stockfish's rules library (npm ffish, WebAssembly) as an independent oracle for the tests. */
import { createRequire } from 'node:module';
import type { Board, FairyStockfish } from 'ffish';
import { type Move, makeIccs, makeSquare } from '../../src/rules/index.js';

export type FairyBoard = Board;

/**
 * Loads ffish once. Its Emscripten loader takes Node's global `fetch` for a browser and fails, so
 * fetch is hidden until the WebAssembly module is running (field notes).
 */
export async function loadFairy(): Promise<FairyStockfish> {
  const g = globalThis as { fetch?: unknown };
  const savedFetch = g.fetch;
  delete g.fetch;
  try {
    const ffish = createRequire(import.meta.url)('ffish') as FairyStockfish;
    if (typeof (ffish as Partial<FairyStockfish>).Board !== 'function') {
      await new Promise<void>((resolve) => {
        (ffish as { onRuntimeInitialized?: () => void }).onRuntimeInitialized = resolve;
      });
    }
    return ffish;
  } finally {
    g.fetch = savedFetch;
  }
}

/** Fairy-Stockfish's UCI squares count ranks from 1 to 10: `h3e3` is ICCS `h2e2`. */
export function fairyToMove(uci: string): Move {
  const m = /^([a-i])(10|[1-9])([a-i])(10|[1-9])$/.exec(uci);
  if (!m) throw new Error(`not a Fairy-Stockfish xiangqi move: '${uci}'`);
  const square = (file: string, rank: string) => makeSquare(file.charCodeAt(0) - 97, Number(rank) - 1);
  return { from: square(m[1]!, m[2]!), to: square(m[3]!, m[4]!) };
}

export function moveToFairy(move: Move): string {
  const iccs = makeIccs(move);
  return `${iccs[0]}${Number(iccs[1]) + 1}${iccs[2]}${Number(iccs[3]) + 1}`;
}

/** Fairy-Stockfish's legal moves of its current position, as sorted ICCS. */
export const fairyLegalIccs = (board: Board): string[] =>
  board
    .legalMoves()
    .split(' ')
    .filter((m) => m !== '')
    .map((m) => makeIccs(fairyToMove(m)))
    .sort();
