/**
 * The stage in front of the move-reading machine, frame by frame (as zwave-js turns bytes into
 * frames before its state machines see a message): a frame the machine would only record is
 * recorded here, in place, with no event, no machine step and no allocation; every other frame
 * goes on to the machine. What the machine would do with a frame is the machine's to say
 * (`frameStage` in machine.ts, from its state): the stage never decides anything.
 *
 * Most frames are of this kind: a piece set down or lifted bounces for up to 30 ms, a slide
 * crosses points, and every one of those frames arrives while the bounce window is open.
 */
import type { Position } from '../rules/index.js';
import type { Cells } from '../sensors/snapshot.js';
import type { Readings } from './readings.js';

/** What the machine, in its present state, would do with a frame beyond recording it. */
export interface FrameStage {
  /** The bounce window is open: a change of the board is only recorded (the window runs on). */
  readonly recordsChanges: boolean;
  /** In play with no button waiting for a frame: an unchanged frame only says the board is current. */
  readonly notesHeartbeats: boolean;
}

/**
 * Records a frame at `t` (read at the clock's `now`) that the machine would only record, and says
 * so; false: the machine must see it. `confirmed` is the machine's confirmed position. A change
 * that a masked square takes part in goes to the machine (its fault alert ends).
 */
export function takeFrame(
  stage: FrameStage,
  readings: Readings,
  confirmed: Position,
  t: number,
  cells: Cells,
  now: number,
  since?: number,
): boolean {
  if (cells === readings.cells) {
    // (After lost frames the machine may judge again: see its `gapWhileWaiting`.)
    if (!stage.notesHeartbeats || since !== undefined) return false;
    readings.heartbeat(t);
    return true;
  }
  // (A change after lost frames goes to the machine: it may judge it at once.)
  if (!stage.recordsChanges || since !== undefined || readings.unmasks(cells)) return false;
  readings.record(t, cells, now, readings.cellsOf(confirmed));
  return true;
}
