/**
 * WLED's JSON API over MQTT (`<topic>/api`), as field-notes says: `{"on":true,"bri":…}` first,
 * then `{"seg":{"id":0,"i":[start,stop,"000000", index,"RRGGBB", …]}}` — the range clears the
 * board's LEDs, the pairs light the rest — at most 256 colours a call, calls in sequence.
 */
import { LED_COUNT } from './frame.js';

export interface WledLayout {
  /** LED index of intersection a0. */
  readonly offset: number;
  /** The strip snakes back on every other rank (odd ranks run from file i to file a). */
  readonly serpentine: boolean;
}

export const WLED_MAX_COLOURS = 256;

/** The LED index of a square (rank * 9 + file). */
export function ledIndex(square: number, layout: WledLayout): number {
  const rank = Math.floor(square / 9);
  const file = square % 9;
  const along = layout.serpentine && rank % 2 === 1 ? 8 - file : file;
  return layout.offset + rank * 9 + along;
}

export const wledPower = (brightness: number): { on: true; bri: number } => ({ on: true, bri: brightness });

/**
 * The segment commands that show a frame. The first clears the board's range, then lit LEDs as
 * `index, colour` pairs in index order; a frame needing more than 256 colours goes in several calls.
 */
export function wledSegmentCommands(
  frame: readonly string[],
  layout: WledLayout,
): { seg: { id: number; i: (number | string)[] } }[] {
  const lit: [number, string][] = [];
  frame.forEach((colour, sq) => {
    if (colour !== '000000') lit.push([ledIndex(sq, layout), colour.toUpperCase()]);
  });
  lit.sort((a, b) => a[0] - b[0]);
  const commands: { seg: { id: number; i: (number | string)[] } }[] = [];
  let current: (number | string)[] = [layout.offset, layout.offset + LED_COUNT, '000000'];
  let colours = 1;
  for (const [index, colour] of lit) {
    if (colours === WLED_MAX_COLOURS) {
      commands.push({ seg: { id: 0, i: current } });
      current = [];
      colours = 0;
    }
    current.push(index, colour);
    colours++;
  }
  commands.push({ seg: { id: 0, i: current } });
  return commands;
}
