/** The one interface every sensor driver implements: serial, johnny-five, simulator, replay. */
import type { Cells, Sensing } from './snapshot.js';

export type SensorEvent =
  /**
   * A complete reading of the 90 intersections at time `t` (ms, the source's clock). `since`:
   * frames were lost before this one (a sequence gap), so what changed may have changed at any
   * time after `since`, the last frame before them.
   */
  | { type: 'snapshot'; t: number; cells: Cells; since?: number }
  /** A clock button pressed by a player. */
  | { type: 'button'; t: number; side: 'red' | 'black' }
  /** The link to the board went up or down. */
  | { type: 'link'; t: number; up: boolean; reason?: string };

export interface SourceHealth {
  /** Frames that failed to decode (bad checksum, garbage, truncation). */
  readonly badFrames: number;
  readonly snapshots: number;
  readonly reconnects: number;
  readonly linkUp: boolean;
}

export type SensorListener = (event: SensorEvent) => void;

export interface SensorSource {
  readonly id: string;
  readonly sensing: Sensing;
  /** Opens the link; nothing happens before this (no work in constructors). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Subscribes; returns the unsubscribe function. */
  subscribe(listener: SensorListener): () => void;
  health(): SourceHealth;
}
