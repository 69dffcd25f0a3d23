/**
 * How to put a board right: pieces that stand where none should are paired with the places that
 * miss one (same colour where the sensors read colour) by the least total distance — the Hungarian
 * assignment, as DGT Centaur's correction mode does — and the rest are to be removed or added.
 */

import { makeSquareName, type Square } from '../rules/index.js';
import type { Cells } from '../sensors/snapshot.js';

export type Correction =
  | { readonly kind: 'move'; readonly from: string; readonly to: string; readonly text: string }
  | { readonly kind: 'remove'; readonly at: string; readonly text: string }
  | { readonly kind: 'add'; readonly at: string; readonly piece: 'x' | 'r' | 'b'; readonly text: string };

const distance = (a: Square, b: Square): number =>
  Math.abs((a % 9) - (b % 9)) + Math.abs(Math.floor(a / 9) - Math.floor(b / 9));

export function pairCorrections(expected: Cells, observed: Cells): Correction[] {
  const out: Correction[] = [];
  for (const kind of ['x', 'r', 'b'] as const) {
    const extra: Square[] = [];
    const missing: Square[] = [];
    for (let sq = 0; sq < 90; sq++) {
      if (observed[sq] === kind && expected[sq] !== kind) extra.push(sq);
      if (expected[sq] === kind && observed[sq] !== kind) missing.push(sq);
    }
    if (extra.length === 0 && missing.length === 0) continue;
    const pairs = assign(extra, missing);
    const usedExtra = new Set<number>();
    const usedMissing = new Set<number>();
    for (const [i, j] of pairs) {
      usedExtra.add(i);
      usedMissing.add(j);
      const from = makeSquareName(extra[i]!);
      const to = makeSquareName(missing[j]!);
      out.push({ kind: 'move', from, to, text: `move ${from} to ${to}` });
    }
    extra.forEach((s, i) => {
      if (!usedExtra.has(i))
        out.push({ kind: 'remove', at: makeSquareName(s), text: `remove ${makeSquareName(s)}` });
    });
    missing.forEach((s, j) => {
      if (usedMissing.has(j)) return;
      const colour = kind === 'r' ? 'red ' : kind === 'b' ? 'black ' : '';
      out.push({
        kind: 'add',
        at: makeSquareName(s),
        piece: kind,
        text: `put a ${colour}piece on ${makeSquareName(s)}`,
      });
    });
  }
  return out;
}

/** Minimum-cost pairing of rows to columns (Hungarian algorithm, O(n³)); returns [row, column] pairs. */
function assign(rows: Square[], cols: Square[]): [number, number][] {
  const n = Math.max(rows.length, cols.length);
  if (n === 0 || rows.length === 0 || cols.length === 0) return [];
  const BIG = 1000;
  const cost = (i: number, j: number): number =>
    i < rows.length && j < cols.length ? distance(rows[i]!, cols[j]!) : BIG;
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const p = new Array<number>(n + 1).fill(0);
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!] = u[p[j]!]! + delta;
          v[j] = v[j]! - delta;
        } else {
          minv[j] = minv[j]! - delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  const pairs: [number, number][] = [];
  for (let j = 1; j <= n; j++) {
    const i = p[j]! - 1;
    if (i < rows.length && j - 1 < cols.length) pairs.push([i, j - 1]);
  }
  return pairs;
}
