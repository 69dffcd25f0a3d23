/** Zobrist keys (two 32-bit halves), fixed by a seeded generator so hashes are stable across runs. */
import { RED, ROLE_OF } from './geometry.js';

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) | 0;
  };
}

const next = splitmix32(0x58514244); // "XQBD"
/** 14 piece kinds × 256 mailbox indices. */
export const ZOBRIST_LO = new Int32Array(14 * 256);
export const ZOBRIST_HI = new Int32Array(14 * 256);
for (let k = 0; k < ZOBRIST_LO.length; k++) {
  ZOBRIST_LO[k] = next();
  ZOBRIST_HI[k] = next();
}
export const ZOBRIST_SIDE_LO = next();
export const ZOBRIST_SIDE_HI = next();

/** Key index of piece id `id` on mailbox index `i`. */
export const zobristIndex = (id: number, i: number): number =>
  ((id & RED ? 0 : 7) + ROLE_OF[id]! - 1) * 256 + i;
