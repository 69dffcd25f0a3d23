/** Perft: leaf counts of the legal move tree, the standard proof of a move generator. */
import { FROM_MAILBOX } from './geometry.js';
import { makeIccs } from './iccs.js';
import { MAX_PLY, type Position } from './position.js';

const PLY_STRIDE = 256;

function count(pos: Position, depth: number, ply: number): number {
  const buf = pos.moveBuffer;
  const start = ply * PLY_STRIDE;
  const n = pos.generateLegal(buf, start);
  if (depth === 1) return n; // bulk counting at the frontier
  let nodes = 0;
  for (let k = start; k < start + n; k++) {
    pos.make(buf[k]!);
    nodes += count(pos, depth - 1, ply + 1);
    pos.unmake();
  }
  return nodes;
}

export function perft(pos: Position, depth: number): number {
  if (depth > MAX_PLY - 1) throw new RangeError(`perft depth ${depth} exceeds ${MAX_PLY - 1}`);
  if (depth <= 0) return 1;
  return count(pos, depth, 0);
}

/** Leaf counts per legal move of the root, in generation order. */
export function perftDivide(pos: Position, depth: number): { move: string; nodes: number }[] {
  const out: { move: string; nodes: number }[] = [];
  const buf = pos.moveBuffer;
  const n = pos.generateLegal(buf, 0);
  const root = Array.from(buf.subarray(0, n));
  for (const m of root) {
    const move = { from: FROM_MAILBOX[m & 255]!, to: FROM_MAILBOX[(m >> 8) & 255]! };
    pos.make(m);
    out.push({ move: makeIccs(move), nodes: depth <= 1 ? 1 : count(pos, depth - 1, 1) });
    pos.unmake();
  }
  return out;
}
