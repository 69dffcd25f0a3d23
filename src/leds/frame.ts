/**
 * What the board's LEDs show, as a pure function of what the move reader says: one colour per
 * intersection (Square order, `RRGGBB`, `000000` = off). Later layers win over earlier ones:
 *
 * 1. the last move: its origin dim amber, its target amber;
 * 2. a hint (its move, both ends violet), then a general in check: red;
 * 3. a lifted piece: its square white, its legal targets green;
 * 4. a capture not yet certain, or a move recorded in doubt (an `ambiguous` alert standing): the
 *    moves it may have been yellow; the points whose pieces would tell which sensor is dead if
 *    lifted: light pink; a sensor taken for dead: its point pink;
 * 5. an illegal placement: where it stands red, where it came from blue, where it may go green;
 *    then the engine's move in a game against it (both ends violet): shown over a piece lifted
 *    the wrong way, until the board matches;
 * 6. setup and out of sync: pieces to take away (or to move from) magenta, places to fill cyan.
 */
import type { Correction } from '../tracker/corrections.js';
import type { StateDetail, TrackerState } from '../tracker/machine.js';

export const LED_COUNT = 90;

export const COLOURS = {
  off: '000000',
  lastFrom: '402000',
  lastTo: 'FF8000',
  hint: '8000FF',
  check: 'FF0000',
  lifted: 'FFFFFF',
  target: '00FF00',
  candidate: 'FFFF00',
  suspect: 'FF80C0',
  fault: 'FF0080',
  illegalAt: 'FF0000',
  illegalFrom: '0000FF',
  takeFrom: 'FF00FF',
  putTo: '00FFFF',
} as const;

export interface LedState {
  readonly state?: TrackerState;
  readonly detail?: StateDetail;
  /** The last move in ICCS (`h2e2`). */
  readonly lastMove?: string;
  /** A suggested move (`game/hint`), shown until the next move. */
  readonly hint?: string;
  /** The engine's move that the player must carry out (play against the engine), until the next move. */
  readonly expected?: string;
  /** The square of a general in check (ICCS square, `e0`). */
  readonly check?: string;
  /** The moves an `ambiguous` alert says the board may show (ICCS lines), while it stands. */
  readonly doubt?: readonly (readonly string[])[];
  /** The points an `ambiguous` alert asks the players to lift and set back, while it stands. */
  readonly suspects?: readonly string[];
  /** Squares whose sensor a `sensor_fault` alert names, while it stands. */
  readonly faults?: readonly string[];
  /** The standing illegal placement, while its alert is raised. */
  readonly illegal?: {
    readonly from?: string;
    readonly to?: string;
    readonly legalTargets?: readonly string[];
  };
}

/** `e0` → 4; undefined for anything else. */
export function squareOf(name: string): number | undefined {
  if (!/^[a-i][0-9]$/.test(name)) return undefined;
  return (name.charCodeAt(1) - 48) * 9 + (name.charCodeAt(0) - 97);
}

export function ledFrame(input: LedState): string[] {
  const frame: string[] = new Array(LED_COUNT).fill(COLOURS.off);
  const paint = (square: string | undefined, colour: string): void => {
    const sq = square === undefined ? undefined : squareOf(square);
    if (sq !== undefined) frame[sq] = colour;
  };
  const detail = input.detail ?? {};
  if (input.lastMove && input.lastMove.length === 4) {
    paint(input.lastMove.slice(0, 2), COLOURS.lastFrom);
    paint(input.lastMove.slice(2, 4), COLOURS.lastTo);
  }
  if (input.hint && input.hint.length === 4) {
    paint(input.hint.slice(0, 2), COLOURS.hint);
    paint(input.hint.slice(2, 4), COLOURS.hint);
  }
  paint(input.check, COLOURS.check);
  if (input.state === 'piece_lifted') {
    for (const t of detail.targets ?? []) paint(t, COLOURS.target);
    for (const l of detail.lifted ?? []) paint(l, COLOURS.lifted);
  }
  const candidates = [
    ...(input.state === 'pending_capture' ? (detail.candidates ?? []) : []),
    ...(input.doubt ?? []),
  ];
  for (const line of candidates)
    for (const m of line) {
      paint(m.slice(0, 2), COLOURS.candidate);
      paint(m.slice(2, 4), COLOURS.candidate);
    }
  for (const sq of input.suspects ?? []) paint(sq, COLOURS.suspect);
  for (const sq of input.faults ?? []) paint(sq, COLOURS.fault);
  if (input.illegal) {
    for (const t of input.illegal.legalTargets ?? []) paint(t, COLOURS.target);
    paint(input.illegal.from, COLOURS.illegalFrom);
    paint(input.illegal.to, COLOURS.illegalAt);
  }
  if (input.expected && input.expected.length === 4) {
    paint(input.expected.slice(0, 2), COLOURS.hint);
    paint(input.expected.slice(2, 4), COLOURS.hint);
  }
  if (input.state === 'setup' || input.state === 'out_of_sync')
    paintCorrections(detail.corrections ?? [], paint);
  return frame;
}

function paintCorrections(
  corrections: readonly Correction[],
  paint: (square: string | undefined, colour: string) => void,
): void {
  for (const c of corrections) {
    if (c.kind === 'move') {
      paint(c.from, COLOURS.takeFrom);
      paint(c.to, COLOURS.putTo);
    } else if (c.kind === 'remove') paint(c.at, COLOURS.takeFrom);
    else paint(c.at, COLOURS.putTo);
  }
}

/** The frame as the firmware's LED_FRAME body: R, G, B per Square, scaled by brightness (0..255). */
export function rgbBytes(frame: readonly string[], brightness = 255): Uint8Array {
  const out = new Uint8Array(LED_COUNT * 3);
  frame.forEach((hex, i) => {
    for (let k = 0; k < 3; k++) {
      const v = Number.parseInt(hex.slice(k * 2, k * 2 + 2), 16) || 0;
      out[i * 3 + k] = Math.round((v * brightness) / 255);
    }
  });
  return out;
}
