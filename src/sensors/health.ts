/**
 * Sensor health, per intersection, for any source: feed it snapshots (or subscribe it to a source)
 * and it counts changes, flickers (a change that reverts within `flickerMs`: a loose magnet, a reed
 * switch at the edge of its range, a bad joint) and sensors that never changed during the session
 * (stuck, dead or never visited). The report renders as the 9×10 board.
 */

import { makeSquareName } from '../rules/index.js';
import type { Cells } from './snapshot.js';
import type { SensorEvent, SensorSource } from './source.js';

export interface HealthOptions {
  /** A change undone within this many ms is a flicker, not two moves. */
  flickerMs?: number;
}

export interface PointHealth {
  readonly square: number;
  readonly changes: number;
  readonly flickers: number;
}

export interface HealthReport {
  readonly snapshots: number;
  /** Time of the first and last snapshot (source clock, ms). */
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly flickerMs: number;
  /** All 90 intersections, by square. */
  readonly points: readonly PointHealth[];
  /** Squares with at least one flicker, most first. */
  readonly flickering: readonly number[];
  /** Squares that never changed (empty until there are two snapshots). */
  readonly neverChanged: readonly number[];
}

export class SensorHealth {
  readonly flickerMs: number;
  private cells: Cells | undefined;
  private snapshots = 0;
  private from: number | undefined;
  private to: number | undefined;
  private readonly changes = new Uint32Array(90);
  private readonly flickers = new Uint32Array(90);
  private readonly lastChangeAt = new Float64Array(90).fill(Number.NEGATIVE_INFINITY);
  /** The value a square had before its last change: a flicker returns to it. */
  private readonly before: string[] = new Array<string>(90).fill('');

  constructor(options: HealthOptions = {}) {
    this.flickerMs = options.flickerMs ?? 60;
  }

  /** Feeds every snapshot of a source; returns the unsubscribe function. */
  watch(source: SensorSource): () => void {
    return source.subscribe((e) => this.feed(e));
  }

  feed(event: SensorEvent): void {
    if (event.type === 'snapshot') this.snapshot(event.t, event.cells);
  }

  snapshot(t: number, cells: Cells): void {
    this.snapshots++;
    this.from ??= t;
    this.to = t;
    const prev = this.cells;
    this.cells = cells;
    if (prev === undefined || prev === cells) return;
    for (let sq = 0; sq < 90; sq++) {
      const was = prev[sq]!;
      const now = cells[sq]!;
      if (was === now) continue;
      this.changes[sq]!++;
      if (now === this.before[sq] && t - this.lastChangeAt[sq]! <= this.flickerMs) {
        this.flickers[sq]!++;
        // the revert closes this flicker: a third quick change starts a new one, not another
        this.lastChangeAt[sq] = Number.NEGATIVE_INFINITY;
      } else {
        this.lastChangeAt[sq] = t;
      }
      this.before[sq] = was;
    }
  }

  report(): HealthReport {
    const points = Array.from({ length: 90 }, (_, square) => ({
      square,
      changes: this.changes[square]!,
      flickers: this.flickers[square]!,
    }));
    return {
      snapshots: this.snapshots,
      from: this.from,
      to: this.to,
      flickerMs: this.flickerMs,
      points,
      flickering: points
        .filter((p) => p.flickers > 0)
        .sort((a, b) => b.flickers - a.flickers || a.square - b.square)
        .map((p) => p.square),
      neverChanged: this.snapshots < 2 ? [] : points.filter((p) => p.changes === 0).map((p) => p.square),
    };
  }
}

/**
 * The report as the board, Black's side (rank 9) at the top: `·` changed normally, `-` never
 * changed, a number = flickers there (`+` for ten or more).
 */
export function renderHealth(report: HealthReport, title = 'sensor health'): string {
  const span = report.from !== undefined && report.to !== undefined ? (report.to - report.from) / 1000 : 0;
  const never = new Set(report.neverChanged);
  const lines = [
    `${title}: ${report.snapshots} snapshots over ${span.toFixed(1)} s, flicker = change undone within ${report.flickerMs} ms`,
    '     a  b  c  d  e  f  g  h  i',
  ];
  for (let rank = 9; rank >= 0; rank--) {
    let row = `  ${rank}`;
    for (let file = 0; file < 9; file++) {
      const p = report.points[rank * 9 + file]!;
      const mark =
        p.flickers > 9 ? '+' : p.flickers > 0 ? String(p.flickers) : never.has(p.square) ? '-' : '·';
      row += `  ${mark}`;
    }
    lines.push(row);
    if (rank === 5) lines.push('    ~~~~~~~~~~~~~~~~~~~~~~~~~~~');
  }
  const flick = report.flickering.map((sq) => `${makeSquareName(sq)}×${report.points[sq]!.flickers}`);
  lines.push(`flickering: ${flick.length ? flick.join(' ') : 'none'}`);
  lines.push(
    `never changed: ${report.neverChanged.length ? `${report.neverChanged.length} (${report.neverChanged.map(makeSquareName).join(' ')})` : 'none'}`,
  );
  lines.push('legend: · changed normally   - never changed   N flickers (+ ten or more)');
  return lines.join('\n');
}
