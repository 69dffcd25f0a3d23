/**
 * The move reader's judgement, pure: given the confirmed position, what the sensors show now and
 * the evidence gathered since, which continuations of the game explain the board?
 *
 * An explanation is a line of moves from the confirmed position (at most one completed move per
 * side, in order, or a longer line kept while an ambiguity lasts), plus pieces in the hand of
 * either side. Every explanation that fits is kept until the evidence leaves one: the reader
 * commits only the moves that every remaining explanation agrees on, and never guesses.
 *
 * - A move that changed what the sensors see beats pieces merely held in the hand and captures
 *   nobody saw; an occupancy capture whose target never read empty is *hidden* until later
 *   evidence (the opponent's reply, a clock button) leaves it alone.
 * - The last move may be revised by the same piece moving on before the opponent acts (a slide
 *   that rested on its way), or taken back.
 * - A piece in the hand that is not the next mover's (knocked, adjusted) is a *stray*: believed
 *   for a while, then it no longer explains the board.
 * - A square whose reading contradicts every explanation while the rest of the board fits, and
 *   has not changed for a while, is a suspected dead sensor: the caller masks it.
 */
import {
  between,
  type Color,
  type Move,
  type Position,
  type Square,
  squareAt,
  squareFile,
  squareRank,
} from '../rules/index.js';
import type { Cells, Sensing } from '../sensors/snapshot.js';
import { type Spell, soonestDeparture } from './lifts.js';
import { RETRACT_COST, type ResyncInput, type ResyncLine, type ResyncRoot, resyncLines } from './resync.js';

/** The cells a position shows to sensors of one kind. */
export function expectedCells(pos: Position, sensing: Sensing): Cells {
  let s = '';
  for (let sq = 0; sq < 90; sq++) {
    const c = pos.colorAt(sq);
    s += c === 0 ? '.' : sensing === 'occupancy' ? 'x' : c === 1 ? 'r' : 'b';
  }
  return s;
}

export interface Displacement {
  readonly from: Square;
  readonly to: Square;
  /** The moves of the line before it (it was judged against the position after them). */
  readonly after: readonly Move[];
}

export interface ReaderTiming {
  /** A piece in the hand that the next mover would not hold explains the board this long. */
  readonly strayMs: number;
  /** A square that contradicts the board this long without changing may be a dead sensor. */
  readonly maskAfterMs: number;
}

/** Pieces of both players set down this close together: no two hands do it, a sensor dying may. */
const COINCIDENT_MS = 20;
/** The board repeats its whole state at least this often (rule 13 of the sensor-log spec). */
const HEARTBEAT_MS = 1000;

// (A sensor that alone spoils the board is named after 2 s: one dying as a move lands is named
// before the record has stood two moves behind for a second. A stray is believed 2.5 s, and for as
// long a mover's piece held while the opponent holds one is only held (see unseenLanding), and a
// board read again from the record takes no point for dead sooner (see readAgain).)
export const DEFAULT_READER_TIMING: ReaderTiming = { strayMs: 2500, maskAfterMs: 2000 };

export interface Evidence {
  /** Squares that read empty longer than a bounce since the confirmed position, with when. */
  readonly lifted: ReadonlyMap<Square, number>;
  /** The first lift of each of those squares (the order in which pieces left). */
  readonly firstLifted?: ReadonlyMap<Square, number>;
  /** First lifts seen only after lost frames: the soonest each piece may have left. */
  readonly departedAfterGap?: ReadonlyMap<Square, number>;
  /** The latest change seen only after lost frames (what it showed may have happened sooner). */
  readonly gapFrameAt?: number;
  /** The latest frame, changed or not, that came after lost frames: what they hid came before it. */
  readonly lostUntil?: number;
  /** The side to move pressed its clock button, and a frame since shows the board after it. */
  readonly buttonBy?: Color | undefined;
  /** When that button was pressed. */
  readonly buttonAt?: number | undefined;
  /**
   * When the side to move pressed its clock button, whether or not a frame has shown the board
   * since: it says its piece is down, wherever that is.
   */
  readonly pressedAt?: number | undefined;
  /** When each square's reading last changed. */
  readonly changedAt: ArrayLike<number>;
  /** Empty points seen occupied since the confirmed position: where a sliding piece passed. */
  readonly visited?: ReadonlySet<Square>;
  /** When those points read occupied (./lifts.ts `spells`): a piece set down, then taken off. */
  readonly history?: {
    spells(sq: Square, all?: boolean): readonly Spell[];
    readingsOf(sq: Square): readonly number[] | undefined;
    firstVisit(sq: Square): number | undefined;
  };
}

/**
 * A move the record holds in doubt (recorded beside rivals that fit the board as well), and the
 * record from it on: a board that later fits a rival's line, not the record, is read so.
 */
export interface RecordDoubt {
  /** The position before the move in doubt. */
  readonly before: Position;
  /** What it may have been instead. */
  readonly rivals: readonly Move[];
  /** The record from it on: the move in doubt, then the moves after it. */
  readonly played: readonly Move[];
  /**
   * A capture nobody saw (`blind`), recorded `at`: where its piece could have gone instead, to an
   * empty point whose sensor would not have shown it (a dead sensor looks the same). Not read
   * again as rivals are: only a world of a dead-sensor doubt, when play shows that piece again.
   */
  readonly unseen?: { readonly moves: readonly Move[]; readonly at: number };
}

export interface ReaderInput {
  readonly base: Position;
  /** The position before the last confirmed move and that move: for revisions and takebacks. */
  readonly previous?: { readonly position: Position; readonly move: Move } | undefined;
  /** The last move may still be revised or taken back (the opponent has not acted since). */
  readonly revisable: boolean;
  /** When the last move's piece landed: a piece that left before then is no reply to it. */
  readonly landedAt?: number;
  /** When the last move's piece left (the soonest): lost frames since may have hidden its landing. */
  readonly leftAt?: number;
  readonly takebacks: boolean;
  /** Lines kept from earlier judgements while an ambiguity lasts. */
  readonly pending: readonly (readonly Move[])[];
  /** A capture held back in doubt of a knocked piece (the wait's `hold`), not recorded yet. */
  readonly held?: readonly Move[] | undefined;
  readonly observed: Cells;
  readonly sensing: Sensing;
  /** Squares whose sensor is known dead: their reading is ignored. */
  readonly mask: ReadonlySet<Square>;
  /**
   * Points where a confirmed capturer stands on its victim and the sensor still reads the victim
   * (rule 15): any piece read there fits while the position has one there.
   */
  readonly covered?: ReadonlySet<Square>;
  readonly evidence: Evidence;
  readonly now: number;
  /** The board has held still for the settle window: a slide is over. */
  readonly settled: boolean;
  /** When it will have, if nothing changes (a judgement is due then). */
  readonly settleAt?: number;
  readonly timing?: ReaderTiming;
  /** Judging with a square masked on trial: no further trials. */
  readonly probing?: boolean;
  /** The last move was recorded in doubt, and the doubt still stands (said as an ambiguity). */
  readonly lastInDoubt?: boolean;
  /** A board nothing fits may be read again from the record (./resync.ts); false: never. */
  readonly resync?: boolean;
  /** Moves of the record in doubt (newest last): a board read again may change one to a rival. */
  readonly doubts?: readonly RecordDoubt[];
}

export type Verdict =
  /** The board equals the confirmed position. */
  | { kind: 'idle' }
  /**
   * Every explanation agrees on these moves (after taking back the last move, for a revision).
   * Not `ready`: the last could still slide further; commit it once the board has settled.
   */
  | {
      kind: 'commit';
      moves: Move[];
      revision: boolean;
      ready: boolean;
      /**
       * Lines that fit the board too but were set aside as the weaker story (a reading left
       * unexplained, a piece astray): they part from `moves`.
       */
      rivals?: Move[][];
      /** A capture among them was never seen land: only the opponent or a button said it was over. */
      unseen?: boolean;
      /** The last move taken back because its piece is travelling on (no need to hold still). */
      movedOn?: boolean;
      /**
       * The capture's victim may only have been knocked and put back, its capturer still in the
       * hand: nothing has shown the move over since (see `knockDoubt`), so it is recorded in doubt.
       */
      knocked?: true;
      /**
       * Captures among them nobody saw land whose piece might as well stand on an empty point
       * whose sensor does not read it (a dead sensor looks the same): recorded, and said.
       */
      blind?: Move[];
      /** Where the first move's piece, of `blind`, could have gone instead unseen (`RecordDoubt.unseen`). */
      elsewhere?: Move[];
      /** Read again from the record after nothing fitted the board (./resync.ts): said. */
      resynced?: true;
      /** With `revision`: this many moves taken back first (one when absent). */
      retracts?: number;
    }
  /** Pieces in the hand, or lines that disagree: wait for more evidence. */
  | {
      kind: 'wait';
      lifted: Square[];
      candidates: Move[][];
      /** The lines disagree although the opponent has moved in every one. */
      ambiguous: boolean;
      /**
       * The last move taken back (an empty line) or changed to these explains the whole board, and
       * so does play going on with a piece in the hand: which, the board cannot tell yet.
       */
      revised?: Move[][];
      /**
       * A capture read, held back while its victim may only have been knocked and put back (see
       * `knockDoubt`): recorded at `recheckAt` unless the board shows otherwise first.
       */
      hold?: Move[];
      /**
       * The mover's piece has been off its point a while, the board still, and may stand on a point
       * whose sensor is known dead (these moves): nothing will show it but the opponent's reply or
       * the mover's clock, and at the end of a game nobody replies. `lost`: no such point; frames
       * were lost since the piece left, so a capture of the candidates may have been made unseen.
       * `answered`: with `lost`, the frames were lost while the last move's piece was on its way,
       * so it may have landed unseen and been taken already, by the piece whose landing was read
       * as its own.
       */
      held?: { readonly moves: Move[]; readonly lost?: true; readonly answered?: Move };
      keep: Move[][];
      recheckAt?: number | undefined;
    }
  /**
   * A piece stands where it may not legally go. `recheckAt`: when the board, still that long, may be
   * read again as legal moves after all (see `readAgain`).
   */
  | { kind: 'illegal'; displacement: Displacement; recheckAt?: number }
  /** The board is back before the last move, and takebacks are not allowed. */
  | { kind: 'takeback_refused' }
  /**
   * Everything fits but one square that has read the same for a while (a dead sensor?), or,
   * `phantom`, one square showing a piece the game does not have (a stray piece or a stuck sensor).
   */
  | { kind: 'suspect'; square: Square; reads: 'empty' | 'occupied'; phantom?: true }
  /**
   * One of several squares' sensors is dead, and the board cannot yet tell which: each, masked,
   * reads the board as its line (a piece gone from a point still reading it; a piece gone to a
   * point that never read it). Later play tells them apart.
   */
  | { kind: 'doubt'; worlds: DeadWorld[] }
  /** Nothing explains the board. */
  | { kind: 'unknown'; recheckAt?: number | undefined };

/** A dead sensor under `square` (reading always `reads`), and the line the board then shows. */
export interface DeadWorld {
  readonly square: Square;
  readonly reads: 'empty' | 'occupied';
  readonly moves: Move[];
  /**
   * The line is played after this many moves are taken back: the last one, its piece put back
   * where no sensor saw it; or back to a capture nobody saw, its piece gone elsewhere unseen.
   */
  readonly retract?: number;
}

interface Explanation {
  /** The whole line from the confirmed position (from the previous one, for a revision). */
  readonly line: Move[];
  readonly revision: boolean;
  /** Squares seen lifted and filled again since the confirmed position that the line leaves untouched. */
  readonly unexplained: number;
  readonly hand: Square[];
  /** Pieces in the hand the next mover would not be holding, and where they stood. */
  readonly strays: number;
  readonly strayAt: Square[];
  /** Moves of the line whose landing the sensors did not show (./isHidden). */
  readonly hidden: number;
  /** When a stray in the hand stops explaining the board. */
  readonly expires: number;
  /** Near fits: the one square this explanation cannot account for. */
  readonly bad: Square | undefined;
  /** Slide trails (`Ctx.trails`) no move of the line travels. */
  readonly offTrail: number;
  /** Near fits: `bad` is a piece off its point longer than a stray is believed. */
  readonly overdue: boolean;
  /**
   * Moves of the line that land on a masked point, or leave one to capture where no victim was
   * seen taken off (a dead sensor: nothing shows them).
   */
  readonly masked: number;
}

const MAX_LINES = 32;

// Observed cells as codes: 0 empty, 1 red, 2 black, 3 occupied (colour unknown).
// (By character code, every other character reading occupied.)
const OBS_CODE = new Uint8Array(128).fill(3);
OBS_CODE['.'.charCodeAt(0)] = 0;
OBS_CODE['r'.charCodeAt(0)] = 1;
OBS_CODE['b'.charCodeAt(0)] = 2;

interface Ctx {
  readonly obs: Uint8Array;
  readonly mask: ReadonlySet<Square>;
  /** `mask` by square (1: masked), for the loops over the board. */
  readonly masked: Uint8Array;
  /** `ReaderInput.covered`: covered before any move of the lines. */
  readonly covered: ReadonlySet<Square>;
  readonly evidence: Evidence;
  readonly now: number;
  readonly timing: ReaderTiming;
  readonly sensing: Sensing;
  /** Squares lifted since the confirmed position that read occupied again. */
  readonly refilled: Square[];
  /** The moves of the lines being judged that capture. */
  readonly captures: Set<Move>;
  /** Captures of those lines that nothing shows: from a masked point, their landing hidden. */
  readonly sightless: Set<Move>;
  /** When each lifted square's piece first left (the order pieces left in). */
  readonly first: ReadonlyMap<Square, number>;
  /** Slide trails: points passed over in a row from where a piece left (see `slideTrails`). */
  readonly trails: readonly Trail[];
  /** When the last confirmed move's piece landed (`ReaderInput.landedAt`). */
  readonly lastLanded: number;
  readonly previous: ReaderInput['previous'];
  /** The confirmed move took a piece (see `tookPiece`). */
  readonly lastCaptured: boolean;
  /** The board judged again with one more point masked on trial, by point (see `probe`). */
  readonly probes: Map<Square, Verdict>;
  /** A time a reading not yet due becomes due: a verdict to wait is asked again by then. */
  askAgainAt?: number;
}

/** A piece slid from `from` over the points up to `reach` (all empty now): it went at least there. */
interface Trail {
  readonly from: Square;
  readonly reach: Square;
  /** The step along the trail (one of ±1 file, ±1 rank). */
  readonly df: number;
  readonly dr: number;
}

const matches = (code: number, o: number): boolean => (o === 3 ? code !== 0 : code === o);

/** An empty set of moves, never added to. */
const NO_MOVES: Set<Move> = new Set();

/**
 * The cells as codes, read once per board: the machine judges one board several times (a bounce
 * window, a settle, a recheck), and a trial mask reads the same board again. Never written to.
 */
let obsFor: { cells: string; obs: Uint8Array } | undefined;
function observedCodes(cells: string): Uint8Array {
  if (obsFor?.cells === cells) return obsFor.obs;
  const obs = new Uint8Array(90);
  for (let sq = 0; sq < 90; sq++) obs[sq] = OBS_CODE[cells.charCodeAt(sq)] ?? 3;
  obsFor = { cells, obs };
  return obs;
}

/** A mask by square, made once per mask (a mask is replaced, never changed, once handed in). */
const maskedBy = new WeakMap<ReadonlySet<Square>, Uint8Array>();
function maskedSquares(mask: ReadonlySet<Square>): Uint8Array {
  let out = maskedBy.get(mask);
  if (out === undefined) {
    out = new Uint8Array(90);
    for (const sq of mask) out[sq] = 1;
    maskedBy.set(mask, out);
  }
  return out;
}

export function judge(input: ReaderInput): Verdict {
  const timing = input.timing ?? DEFAULT_READER_TIMING;
  const obs = observedCodes(input.observed);
  const ctx: Ctx = {
    obs,
    mask: input.mask,
    masked: maskedSquares(input.mask),
    covered: input.covered ?? NONE_COVERED,
    evidence: input.evidence,
    now: input.now,
    timing,
    sensing: input.sensing,
    refilled: [...input.evidence.lifted.keys()].filter((sq) => obs[sq] !== 0 && !input.mask.has(sq)),
    captures: new Set(),
    // (Only a masked point's moves are added: none without one, and no set made per judgement.)
    sightless: input.mask.size > 0 ? new Set() : NO_MOVES,
    first: input.evidence.firstLifted ?? input.evidence.lifted,
    trails: slideTrails(input, obs),
    lastLanded: input.landedAt ?? Number.NEGATIVE_INFINITY,
    previous: input.previous,
    lastCaptured: tookPiece(input.previous),
    probes: new Map(),
  };
  const v = judgeBoard(input, ctx);
  const due = ctx.askAgainAt;
  return v.kind === 'wait' && due !== undefined && due < (v.recheckAt ?? Number.POSITIVE_INFINITY)
    ? { ...v, recheckAt: due }
    : v;
}

function judgeBoard(input: ReaderInput, ctx: Ctx): Verdict {
  const { obs } = ctx;
  // The board as it was: nothing to explain.
  if (exactly(input.base, ctx)) return { kind: 'idle' };
  // A capture held back in doubt whose capturer is lifted off its victim's point again: no knocked
  // piece, a capture (the piece moves on, or is taken back). Record it before reading on.
  const held = input.held?.[0];
  if (held !== undefined && obs[held.to] === 0 && !input.mask.has(held.to))
    return { kind: 'commit', moves: [...input.held!], revision: false, ready: true };
  const vanished = vanishedAsLanded(input, ctx);
  if (vanished !== undefined) return { kind: 'suspect', square: vanished, reads: 'empty' };

  const found: Explanation[] = [];
  const roots = [[], ...input.pending.slice(0, MAX_LINES)].map((l) => {
    const line = [...l];
    const pos = input.base.clone();
    let hidden = 0;
    line.forEach((m, k) => {
      if (pos.colorAt(m.to) !== 0) ctx.captures.add(m);
      if (isHidden(pos, m, false, line[k - 1], ctx)) {
        hidden++;
        if (ctx.mask.has(m.from)) ctx.sightless.add(m);
      }
      pos.play(m);
    });
    return { line, pos, hidden };
  });
  // (The search plays and takes back moves on each root: it leaves them as they were.)
  for (const root of roots) explain(root.pos, root.line, root.hidden, false, undefined, ctx, found);
  // A piece of the side to move lifted and put back (knocked, straightened) is no reply: the last
  // move may still be revised.
  // (Nor after the side to move pressed its clock: it says it has moved.)
  const revisable =
    input.revisable &&
    input.previous !== undefined &&
    input.evidence.buttonBy !== input.base.turn &&
    !moverLifted(input.base, input.evidence.lifted, input.observed, input.landedAt);
  if (revisable) explain(input.previous!.position.clone(), [], 0, true, input.previous!.move, ctx, found);

  let fits = found.filter((e) => e.bad === undefined);
  const nearFits = found.filter((e) => e.bad !== undefined);

  const wentOn = slideWentOn(input, fits, ctx);
  if (wentOn) return wentOn;

  // A fresh clock button by the side to move: its move is complete.
  const button = input.evidence.buttonBy;
  if (button !== undefined && button === input.base.turn) {
    // (Its piece left before the button was pressed: a piece lifted since is the opponent's doing.)
    const buttonAt = input.evidence.buttonAt ?? Number.POSITIVE_INFINITY;
    fits = fits.filter(
      (e) => e.revision || (e.line.length > 0 && !(departure(e.line[0]!.from, ctx) > buttonAt)),
    );
  }
  // The side to move pressed its clock after its piece was seen set down on an empty point where a
  // line sets it, and taken off again: that piece is down somewhere, not in the hand (a nudge lifts
  // it after the press, not before; a piece taken off after it is the opponent's doing). Once a
  // frame since shows the board (a lost one may have hidden it set down there again), a slide's
  // piece gone past its trail landed where no sensor read it. So too for a line that takes the
  // piece on from that point in its next turn: it went before the reply's piece left, not after.
  const pressedAt = input.evidence.pressedAt;
  if (pressedAt !== undefined) {
    const offWhenPressed = (e: Explanation): boolean => {
      const m = e.line[0];
      if (e.revision || m === undefined || input.base.colorAt(m.to) !== 0) return false;
      const reply = e.line[1];
      const goesOn = reply !== undefined && e.line.slice(2).some((n) => n.from === m.to);
      if (!goesOn && !e.hand.includes(m.to)) return false;
      const spell = ctx.evidence.history?.spells(m.to).at(-1);
      if (spell === undefined || spell.from < departure(m.from, ctx) || spell.to >= pressedAt) return false;
      return !goesOn || spell.to < departure(reply.from, ctx);
    };
    const kept = fits.filter((e) => !offWhenPressed(e));
    if (kept.length < fits.length && button === input.base.turn) {
      const dead = trailEnd(input, ctx);
      if (dead !== undefined) return { kind: 'suspect', square: dead, reads: 'empty' };
    }
    fits = kept;
  }
  // A story of two pieces set down at once far apart (a landing of its line, and a point lifted and
  // set down again that it leaves alone) gives way to a sensor that started reading a piece then:
  // no hand, nor two hands, sets two pieces down so close together; a sensor dying may.
  if (
    fits.length > 0 &&
    fits.every((e) => setDownTwice(input, e, ctx)) &&
    phantomSquares(input, nearFits, ctx).length > 0
  )
    fits = [];
  const considered = fits;
  // A capture whose target was seen lifted and filled again beats a piece held in the hand: the
  // fewer such readings left unexplained, the better.
  const best = Math.min(...fits.map((e) => e.unexplained));
  fits = fits.filter((e) => e.unexplained === best);
  // A line that travels every slide's trail beats one that leaves a trail unexplained.
  const trailed = Math.min(...fits.map((e) => e.offTrail));
  fits = fits.filter((e) => e.offTrail === trailed);
  // Pieces off the board that the next mover would not hold (knocked, nudged) are a story of
  // last resort: believed only when no explanation without them fits. But a capture nobody saw
  // land is no better a story than a piece knocked by a hand at work (next to the last move, or to
  // a piece the side to move holds): a knocked piece does not become a capture by being near one.
  const fewest = Math.min(...fits.map((e) => e.strays));
  const least = fits.filter((e) => e.strays === fewest);
  // (Only when the capture's own piece may be one the last move knocked: one that left next to it
  // as it landed. A capture made in its turn stays the better story.)
  const knocked = (e: Explanation): boolean =>
    e.strays === fewest + 1 && e.hidden === 0 && e.strayAt.every((sq) => byHand(input, e, sq, ctx));
  const doubtful = (e: Explanation): boolean =>
    e.hidden > 0 &&
    e.line.length > 0 &&
    (knockedByLast(e.line[0]!.from, ctx) || replyMayBeKnock(input, e, ctx));
  fits = least.every(doubtful) ? [...least, ...fits.filter(knocked)] : least;
  // A move onto a point whose sensor is known dead is read from nothing at all: the last story
  // left, below a capture nobody saw (which says so when it is committed).
  const blindest = Math.min(...fits.map((e) => e.masked));
  fits = fits.filter((e) => e.masked === blindest);
  // A reply from a point whose sensor is dead, after a move nobody saw land, is two moves nothing
  // showed; the mover's piece set down where it may not go (rule 6) shows the same board. Read the
  // placement, which says so; the reply is read once play goes on without it being put right
  // (masters 431, 834: a chariot set down out of place beside a dead soldier's point).
  // (Not for a point masked on trial: that is a world of its own to weigh, not a sensor known dead.)
  const placed = fits.length > 0 && !input.probing ? placedNotReplied(roots, fits, ctx) : undefined;
  if (placed !== undefined) {
    const verdict: Verdict = { kind: 'illegal', displacement: placed };
    return readAgain(input, ctx, verdict) ?? verdict;
  }

  // Every story has a piece off its point, and another's has been off longer than any knocked or
  // straightened piece stays off: which one went first tells nothing. A point reading so that long,
  // that when masked leaves a line without a stray, is a dead sensor.
  if (fits.length > 0 && fewest > 0) {
    const dead = overdueSensor(input, nearFits, ctx);
    if (dead !== undefined)
      return { kind: 'suspect', square: dead, reads: obs[dead] === 0 ? 'empty' : 'occupied' };
  }

  // The side to move has held its piece long while the opponent holds one its piece cannot take:
  // no move in progress explains that; its move may have landed where no sensor read it.
  const heldDue = fits.length > 0 && !input.probing ? heldLandingDue(input, ctx) : undefined;
  if (heldDue !== undefined && input.now >= heldDue) {
    const unseen = landingVerdict(unseenLanding(input, ctx));
    if (unseen !== undefined) return unseen;
  }

  if (fits.length > 0) {
    const decided = decide(input, fits);
    // (Asked again once the piece has been held that long.)
    const verdict =
      decided.kind === 'wait' && heldDue !== undefined && input.now < heldDue
        ? { ...decided, recheckAt: Math.min(decided.recheckAt ?? Number.POSITIVE_INFINITY, heldDue) }
        : decided;
    // About to conclude against a slide's trail (the piece went on past where any fit puts it):
    // its last point may be one whose dead sensor read nothing land.
    if (trailed > 0 && (verdict.kind === 'commit' || button === input.base.turn)) {
      const dead = trailEnd(input, ctx);
      if (dead !== undefined) return { kind: 'suspect', square: dead, reads: 'empty' };
    }
    // A story with a piece off the board (knocked) against one of a piece set down where it may not
    // go: the first would commit a move that may not have been played. Wait until the stray comes
    // back, or is gone too long to be believed.
    // (A takeback whose strays the last move's own hand knocked is no such story: it is read. Another
    // takeback or changed move so held is said if it lasts: the record may be wrong meanwhile. Nor is
    // a placement that leaves a slide's trail the story travels: the slide set its piece down there.)
    const knockedByLastMove =
      verdict.kind === 'commit' &&
      verdict.revision &&
      verdict.moves.length === 0 &&
      fits.every((e) => e.strayAt.every((sq) => knockedByLast(sq, ctx)));
    if (
      verdict.kind === 'commit' &&
      fewest > 0 &&
      !knockedByLastMove &&
      nearFits.some((e) => strayless(e, obs) && e.offTrail <= trailed)
    ) {
      return waitVerdict(input, soonest(fits.map((e) => e.expires)), verdict.revision ? [verdict.moves] : []);
    }
    // The last move changed to a capture nobody saw land, against play going on with a piece in
    // the hand: the board cannot tell them apart (a takeback half done reads so too). Wait, and say
    // so if it lasts.
    if (
      verdict.kind === 'commit' &&
      verdict.revision &&
      fits.some((e) => e.hidden > 0) &&
      considered.some((e) => !e.revision)
    ) {
      return waitVerdict(input, soonest(considered.map((e) => e.expires)), [verdict.moves]);
    }
    // Takebacks forbidden: the position before the last move is read, but not taken back to.
    if (verdict.kind === 'commit' && verdict.revision && verdict.moves.length === 0 && !input.takebacks) {
      if (fits.some((e) => e.hand.length === 0)) return { kind: 'takeback_refused' };
      return waitVerdict(input, undefined);
    }
    if (verdict.kind === 'commit' && !verdict.revision && verdict.moves.length > 0) {
      const rivals = dedupe(
        [...considered, ...coincidentRivals(verdict.moves, nearFits, best, ctx)]
          .filter((e) => !e.revision && parts(e.line, verdict.moves))
          .map((e) => e.line.slice(0, verdict.moves.length)),
      );
      const unseen = fits.some((e) => e.hidden > 0);
      const knock = knockDoubt(input, verdict.moves, considered, fits, ctx);
      // A hand that put a knocked piece back still holds its own a while: wait that long before
      // recording the capture in doubt (its landing elsewhere, or the opponent's hand, settles it).
      if (knock) {
        const until = (ctx.evidence.changedAt[verdict.moves[0]!.to] ?? input.now) + KNOCK_HOLD_MS;
        if (input.now < until) return waitVerdict(input, until, [], verdict.moves);
      }
      const { blind, elsewhere } = blindCaptures(input, verdict.moves, ctx);
      // (Once the move is to be recorded: a fork is acted on at once.)
      const told = verdict.ready ? toldElsewhere(input, verdict.moves, elsewhere, ctx) : undefined;
      if (told !== undefined) return told;
      if (rivals.length > 0 || unseen || knock || blind.length > 0)
        return {
          ...verdict,
          ...(rivals.length > 0 ? { rivals } : {}),
          ...(unseen ? { unseen } : {}),
          ...(knock ? { knocked: true as const } : {}),
          ...(blind.length > 0 ? { blind } : {}),
          ...(elsewhere.length > 0 ? { elsewhere } : {}),
        };
    }
    if (verdict.kind === 'wait') return withLostLandings(input, ctx, withMaskedLandings(input, ctx, verdict));
    return verdict;
  }

  // A piece from nowhere: nobody adds pieces in play, so a square that alone keeps the board from
  // fitting while the board shows more pieces than the game has is a sensor reading a piece that
  // is not there (it is masked at once; it is unmasked when its reading changes).
  const phantoms = phantomSquares(input, nearFits, ctx);
  // Several points that could each be it, every one read so leaving a line: play tells which. But
  // not before the board has repeated itself: a frame lost as a slide went on shows its piece on
  // two points at once, until the next frame.
  // (A later change seen with no frame lost since shows it as well: nothing was lost.)
  let phantom = phantoms[0]?.square;
  if (phantoms.length > 1) {
    const since = Math.max(...phantoms.map((w) => ctx.evidence.changedAt[w.square] ?? 0));
    const repeated = lastChange(ctx) > since && (ctx.evidence.lostUntil ?? Number.NEGATIVE_INFINITY) < since;
    if (input.now - since < HEARTBEAT_MS && !repeated) return waitVerdict(input, since + HEARTBEAT_MS);
    // A point a slide came to, step after step, is where its piece stopped, not a sensor dying.
    const arrived = phantoms.filter((w) => !slidOnto(input, ctx, w.square));
    if (arrived.length !== 1) return withUnseenLandings(input, ctx, { kind: 'doubt', worlds: phantoms });
    phantom = arrived[0]!.square;
  }
  if (phantom !== undefined) {
    // A piece of the side to move that the new one could be, its own point still reading it: that
    // point's sensor may be stuck, and the move made.
    // (Or the new reading is the fault: the world of no move stays one of them.)
    const origins = stuckOrigins(input, phantom, ctx);
    if (origins.length > 0)
      return withUnseenLandings(input, ctx, {
        kind: 'doubt',
        worlds: [...origins, { square: phantom, reads: 'occupied', moves: [] }],
      });
    return withUnseenLandings(input, ctx, {
      kind: 'suspect',
      square: phantom,
      reads: 'occupied',
      phantom: true,
    });
  }

  // A move whose piece's point still reads it (its sensor stuck), the board showing all the rest
  // (a capture, its victim seen lifted; a move the opponent has answered), once the mover's clock
  // says its move is over, the opponent has taken a piece in hand since it showed, or the board
  // has stood unexplained a while; and a move whose landing
  // no sensor read. Each is a world; play tells them apart.
  // (Not while a piece of the mover's is off its point: that piece is the move.)
  if (
    !input.probing &&
    !moverLifted(input.base, input.evidence.lifted, input.observed) &&
    (button === input.base.turn ||
      replyBegun(input, ctx) ||
      input.now - lastChange(ctx) >= ctx.timing.maskAfterMs)
  ) {
    const stuck = stuckOrigins(input, undefined, ctx);
    if (stuck.length > 0)
      return withUnseenLandings(input, ctx, {
        kind: 'doubt',
        worlds: [...stuck, ...unseenLanding(input, ctx)],
      });
  }

  // The opponent's reply already set down while the mover's piece was never seen landing: no
  // piece set where it may not go (the opponent does not finish a move before the mover has), but
  // a landing no sensor read. Said at once, not after the mover's piece has been off a while.
  // (Said once the board is still: a piece sliding on, the mover's or the reply's, is no reply set
  // down, and a piece knocked on the way is no move.)
  const answered = unseenLanding(input, ctx, true);
  if (answered.length > 0 && !input.settled) return waitVerdict(input, input.settleAt);
  const landed = landingVerdict(answered);
  if (landed) return landed;

  const illegal = findIllegal(roots, ctx) ?? displaced(input, nearFits, ctx);
  if (illegal) {
    const phantom = phantomNotPlaced(input, ctx, illegal) ?? stuckReplyOrigin(input, ctx, illegal);
    if (phantom) return phantom;
    const verdict: Verdict = { kind: 'illegal', displacement: illegal };
    return readAgain(input, ctx, verdict) ?? verdict;
  }

  const unseen = landingVerdict(unseenLanding(input, ctx));
  if (unseen) return unseen;
  const last = suspectDeadSquare(input, nearFits, ctx);
  return readAgain(input, ctx, last) ?? withUnseenLandings(input, ctx, last);
}

/**
 * A wait with a piece of the mover's off its point for `maskAfterMs`, the board still as long, that
 * could stand on a masked point (its sensor dead): those moves, to be said with the captures
 * nobody saw that may be the move as well (the player may be done, the game over, with nobody to
 * reply). (Not for any point that has not changed since: a piece held that long in thought is
 * common, and would be said every time.)
 */
function withMaskedLandings(
  input: ReaderInput,
  ctx: Ctx,
  verdict: Extract<Verdict, { kind: 'wait' }>,
): Extract<Verdict, { kind: 'wait' }> {
  if (ctx.mask.size === 0 || verdict.ambiguous) return verdict;
  // (Beside captures nobody saw land, if any: the mover's own one-move lines.)
  if (verdict.candidates.some((l) => l.length > 1)) return verdict;
  const from = moverHolds(input, verdict);
  if (from === undefined) return verdict;
  const since = Math.max(ctx.first.get(from) ?? ctx.now, lastChange(ctx));
  const moves = input.base.legalMovesFrom((sq) => sq === from).filter((m) => ctx.mask.has(m.to));
  if (moves.length === 0) return verdict;
  return heldAt(verdict, ctx.now, since + ctx.timing.maskAfterMs, { moves });
}

/**
 * A wait with a piece of the mover's off its point and captures nobody saw land from there, when
 * frames were lost since it left and the board has stood still `LOST_HELD_MS` since: the capture may
 * have been made in the gap (its victim's removal lost with the frames), or the piece is still in
 * the hand. Only the opponent's reply or the mover's clock would tell, and at the end of a game
 * nobody replies: said. (Not without lost frames: a capture swapped within a scan waits for the
 * reply as the spec's model has it, and a piece held in thought is common.)
 *
 * So too when frames were lost after the last move's piece left and before its landing was seen,
 * and the held piece can take it: it may have landed in the gap and been taken off there, and the
 * landing seen was this piece's, taking it (`answered`).
 */
function withLostLandings(
  input: ReaderInput,
  ctx: Ctx,
  verdict: Extract<Verdict, { kind: 'wait' }>,
): Verdict {
  const lostUntil = input.evidence.lostUntil ?? Number.NEGATIVE_INFINITY;
  // (No frames lost: nothing to look at, and nothing allocated.)
  if (lostUntil === Number.NEGATIVE_INFINITY || verdict.held !== undefined || verdict.ambiguous)
    return verdict;
  const from = moverHolds(input, verdict);
  if (from === undefined) return verdict;
  const at = Math.max(lostUntil, lastChange(ctx)) + LOST_HELD_MS;
  const last = input.previous?.move;
  if (
    last !== undefined &&
    (input.leftAt ?? Number.POSITIVE_INFINITY) < lostUntil &&
    lostUntil < (input.landedAt ?? Number.NEGATIVE_INFINITY)
  ) {
    // (It left before that landing was seen: no reply the explanations have, so no candidate yet.)
    const taking = input.base.legalMovesFrom((sq) => sq === from).find((m) => m.to === last.to);
    if (taking !== undefined) {
      const held = heldAt(verdict, ctx.now, at, { moves: [], lost: true, answered: last });
      return held.held ? { ...held, candidates: [[taking]] } : held;
    }
  }
  if (verdict.candidates.length === 0) return verdict;
  if (!verdict.candidates.every((l) => l.length === 1 && l[0]!.from === from)) return verdict;
  if (lostUntil <= departure(from, ctx)) return verdict;
  return heldAt(verdict, ctx.now, at, { moves: [], lost: true });
}

/** The one piece of the side to move's in the hand in a wait, if it holds just one. */
function moverHolds(input: ReaderInput, verdict: Extract<Verdict, { kind: 'wait' }>): Square | undefined {
  const side = input.base.turnCode;
  let from: Square | undefined;
  for (const sq of verdict.lifted) {
    if (input.base.colorAt(sq) !== side) continue;
    if (from !== undefined) return undefined;
    from = sq;
  }
  return from;
}

/** A held piece said once the board has stood still until `at`; until then, judged again then. */
function heldAt(
  verdict: Extract<Verdict, { kind: 'wait' }>,
  now: number,
  at: number,
  held: NonNullable<Extract<Verdict, { kind: 'wait' }>['held']>,
): Extract<Verdict, { kind: 'wait' }> {
  if (now < at) return { ...verdict, recheckAt: Math.min(verdict.recheckAt ?? at, at) };
  return { ...verdict, held };
}

/** The board still this long after lost frames, a capture from a held piece's point possible: said. */
const LOST_HELD_MS = 1000;

/** Moves of every line after which an ambiguity play goes on past is recorded (see `decide`). */
const DOUBT_RECORDED_AFTER = 4;

/** The board still this long with nothing fitting it: it is read again from the record. */
const RESYNC_STILL_MS = 500;
/** A piece standing where it may not go this long, the board still, may be read again (above). */
const ILLEGAL_RESYNC_STILL_MS = 4000;
/** The longest line a board is read again as. */
const RESYNC_PLIES = 4;
/** The most worlds (each a dead sensor and its line) a board read again may leave open. */
const RESYNC_WORLDS = 6;

/**
 * The reader has lost the board (nothing fits, only a dead sensor under the record would, or an
 * illegal move has stood 4 s): the board read again as a short line from the confirmed position,
 * the one before it, or the record with a move it holds in doubt changed to a rival (./resync.ts).
 * A line the board shows exactly beats a dead sensor under the record; a dead sensor is only one
 * whose reading has held a while. Said when committed (`resynced`).
 */
function readAgain(input: ReaderInput, ctx: Ctx, verdict: Verdict): Verdict | undefined {
  if (input.probing || input.resync === false) return undefined;
  if (verdict.kind !== 'unknown' && verdict.kind !== 'suspect' && verdict.kind !== 'illegal')
    return undefined;
  // A piece set down where it may not go stands a while before it is put right (rule 6), and
  // occupancy reads many a shuffle of pieces as one: only a move held in doubt changed to a rival
  // reads it again, once it has stood longer than a placement is left to be put right.
  const illegal = verdict.kind === 'illegal';
  if (illegal && (input.doubts ?? []).length === 0) return undefined;
  const still = lastChange(ctx) + (illegal ? ILLEGAL_RESYNC_STILL_MS : RESYNC_STILL_MS);
  if (ctx.now < still) {
    if (verdict.kind === 'suspect') return undefined;
    return { ...verdict, recheckAt: Math.min(verdict.recheckAt ?? still, still) };
  }
  const previous = input.previous;
  const lines = resyncLines({
    roots: [
      ...(illegal ? [] : [{ position: input.base, retract: 0 }]),
      ...(previous && !illegal ? [{ position: previous.position, retract: 1, played: previous.move }] : []),
      ...rivalRoots(input.doubts ?? []),
    ],
    obs: ctx.obs,
    mask: ctx.mask,
    deadFrom: (sq) => (ctx.evidence.changedAt[sq] ?? Number.NEGATIVE_INFINITY) + ctx.timing.strayMs,
    ...shownOnSensors(ctx, ctx.mask),
    maxPlies: RESYNC_PLIES,
  });
  if (lines.length === 0) return undefined;
  // A dead sensor is one whose reading has held a while: until it has, the best reading may be
  // another (a piece merely held that long), so wait for it.
  const unsteady = lines.filter((l) => l.dead !== undefined && l.dead.from > ctx.now);
  if (unsteady.length > 0) {
    if (verdict.kind !== 'unknown') return undefined;
    const at = Math.min(...unsteady.map((l) => l.dead!.from));
    return { kind: 'unknown', recheckAt: Math.min(verdict.recheckAt ?? at, at) };
  }
  const dead = lines.filter((l) => l.dead !== undefined);
  // A piece set down where it may not go, read as legal moves only if the board shows them exactly
  // (an illegal placement stands until corrected: it is alerted, never read as a dead sensor).
  if (verdict.kind === 'illegal' && dead.length > 0) return undefined;
  // A dead sensor either way, or under the record as it stands: the reader's own reading of it.
  if (lines.some((l) => l.moves.length === 0)) return undefined;
  if (verdict.kind === 'suspect' && dead.length > 0) return undefined;
  if (dead.length === lines.length) {
    // (Each world is a reader of its own: more than a few is no reading, the board is out of sync.
    // A world takes back one move at most.)
    if (lines.length > RESYNC_WORLDS || lines.some((l) => l.retract > 1)) return undefined;
    return {
      kind: 'doubt',
      worlds: lines.map((l) => ({
        square: l.dead!.square,
        reads: l.dead!.reads,
        moves: l.moves,
        ...(l.retract === 1 ? { retract: 1 } : {}),
      })),
    };
  }
  return agreedLines(lines);
}

/** The record as lines read again agree on it: the same moves taken back, then what they share. */
function agreedLines(lines: readonly ResyncLine[]): Verdict | undefined {
  const retract = lines[0]?.retract;
  if (retract === undefined || lines.some((l) => l.retract !== retract)) return undefined;
  const agreed = commonPrefix(lines.map((l) => l.moves));
  if (agreed.length === 0) return undefined;
  return {
    kind: 'commit',
    moves: agreed,
    revision: retract > 0,
    ready: true,
    resynced: true,
    ...(retract > 1 ? { retracts: retract } : {}),
  };
}

/** What a line read again must have shown (`ResyncInput`): a point set down on, a point taken off. */
function shownOnSensors(ctx: Ctx, mask: ReadonlySet<Square>): Pick<ResyncInput, 'setDown' | 'takenOff'> {
  return {
    setDown: (sq) =>
      mask.has(sq) ||
      ctx.obs[sq] !== 0 ||
      ctx.evidence.visited?.has(sq) === true ||
      ctx.refilled.includes(sq),
    takenOff: (sq) => mask.has(sq) || ctx.obs[sq] === 0 || ctx.evidence.lifted.has(sq),
  };
}

/**
 * For each move of the record in doubt, each rival: the record with that move changed to it (the
 * moves after it kept, while they stay legal), as a root to read the board again from.
 */
function rivalRoots(doubts: readonly RecordDoubt[]): ResyncRoot[] {
  return doubts.flatMap((d) => d.rivals.flatMap((rival) => rivalRoot(d, rival) ?? []));
}

/** The record with the move in doubt changed to `rival`, the moves after it kept (if all still legal). */
function rivalRoot(d: RecordDoubt, rival: Move): ResyncRoot | undefined {
  const pos = d.before.clone();
  if (!pos.isLegal(rival)) return undefined;
  pos.play(rival);
  const kept = d.played.slice(1);
  for (const m of kept) {
    if (!pos.isLegal(m)) return undefined;
    pos.play(m);
  }
  return { position: pos, retract: d.played.length, prefix: [rival, ...kept], cost: RETRACT_COST };
}

/**
 * A capture nobody saw, recorded a few moves back, may have been its piece gone to an empty point
 * whose sensor is dead: nothing showed it land, nor leave when it moved on, and the board then
 * shows a piece from nowhere (master 123: a chariot f1h1 read as f1xf5, seen again only as it
 * slid h1f1 eight plies later). The worlds where it was: the record taken back to that move, the
 * move changed, the moves since kept while legal, then the shortest line that reads the board
 * as it stands with no other sensor wrong; that point masked.
 */
function unseenLandingWorlds(input: ReaderInput, ctx: Ctx): { world: DeadWorld; off: number }[] {
  const worlds: { world: DeadWorld; off: number }[] = [];
  for (const d of input.doubts ?? []) {
    const played = d.played[0];
    if (d.unseen === undefined || played === undefined) continue;
    for (const rival of d.unseen.moves) {
      const z = rival.to;
      // (Its sensor read empty all along: no change since the move, none now.)
      const still = (ctx.evidence.changedAt[z] ?? Number.NEGATIVE_INFINITY) <= d.unseen.at;
      if (rival.from !== played.from || ctx.mask.has(z) || ctx.obs[z] !== 0 || !still) continue;
      const mask = new Set([...ctx.mask, z]);
      for (const l of seenAgainFrom(d, rival, mask, ctx))
        worlds.push({
          world: { square: z, reads: 'empty', moves: l.moves, retract: l.retract },
          off: offTheWay(l.moves.slice(d.played.length), mask, ctx),
        });
    }
  }
  // (The ones whose way the lit points tell best: a piece that came back from afar unseen is
  // known by where it slid.)
  const best = Math.min(...worlds.map((w) => w.off));
  const kept = worlds.filter((w) => w.off === best);
  return kept.length <= RESYNC_WORLDS ? kept : [];
}

/**
 * The record read again with `rival` in place of the move in doubt (`rivalRoot`), `mask` read as
 * dead, in lines whose piece leaves the rival's point: the piece seen again is the news.
 */
function seenAgainFrom(d: RecordDoubt, rival: Move, mask: ReadonlySet<Square>, ctx: Ctx): ResyncLine[] {
  const root = rivalRoot(d, rival);
  if (root === undefined) return [];
  return resyncLines({
    roots: [root],
    obs: ctx.obs,
    mask,
    deadFrom: () => Number.POSITIVE_INFINITY,
    ...shownOnSensors(ctx, mask),
    maxPlies: UNSEEN_LANDING_PLIES,
  }).filter((l) => l.dead === undefined && l.moves.slice(d.played.length).some((m) => m.from === rival.to));
}

/**
 * How far the points lit since the confirmed position (`visited`) are from the way of `line`:
 * each lit point, now empty, that no move of it passes or reaches, and each move whose way has
 * points lit and points not (a slide lights every point it passes, a piece carried none).
 */
function offTheWay(line: readonly Move[], mask: ReadonlySet<Square>, ctx: Ctx, slide?: SlideWindow): number {
  const visited = ctx.evidence.visited;
  if (visited === undefined) return 0;
  // (Within `slide` only, when given: the points a sliding piece could have lit while no other
  // hand was at work, each passed or rested on (longer than a bounce: a flicker anywhere is no
  // piece passing, master 782; no longer than a rest, rule 11: a piece set down is no slide).
  // `all`: every point lit in that while, however briefly, a point read resting and the move
  // taken back at once too, master 162.)
  const history = ctx.evidence.history;
  const lit = (sq: Square): boolean =>
    visited.has(sq) &&
    (slide === undefined ||
      history === undefined ||
      history
        .spells(sq, slide.all)
        .some(
          (sp) =>
            sp.from >= slide.from &&
            sp.from < slide.to &&
            (slide.all || sp.to - sp.from <= SLIDE_REST_MAX_MS),
        ));
  const live = (sq: Square) => !mask.has(sq);
  // (A lit point two moves of the line pass or land on is lit by one of them, the one that tells
  // the line best: a reply's landing on a slide's way, master 756; a slide's point the next move of
  // its piece passes again, random 1/88. Past a few such points, by neither.)
  const reached = line.map((m) => [...between(m.from, m.to), m.to]);
  const shared = [...new Set(reached.flat())].filter(
    (sq) => live(sq) && lit(sq) && reached.filter((r) => r.includes(sq)).length > 1,
  );
  const owners = shared.map((sq) => reached.flatMap((r, k) => (r.includes(sq) ? [k] : [])));
  const ways = (owner: ReadonlyMap<Square, number>): number => {
    let n = 0;
    for (const [k, r] of reached.entries()) {
      const way = r.slice(0, -1).filter((sq) => live(sq) && (owner.get(sq) ?? k) === k);
      const seen = way.filter(lit).length;
      if (seen > 0 && seen < way.length) n++;
    }
    return n;
  };
  const best = (i: number, owner: Map<Square, number>): number => {
    if (i === shared.length) return ways(owner);
    let min = Number.POSITIVE_INFINITY;
    for (const k of owners[i]!) min = Math.min(min, best(i + 1, new Map(owner).set(shared[i]!, k)));
    return min;
  };
  let off =
    owners.reduce((n, o) => n * o.length, 1) <= ATTRIBUTIONS_MAX
      ? best(0, new Map())
      : ways(new Map(shared.map((sq) => [sq, -1])));
  const passed = new Set(reached.flat());
  for (const sq of visited) if (live(sq) && lit(sq) && ctx.obs[sq] === 0 && !passed.has(sq)) off++;
  return off;
}

/** How far the lit points (of a `slide`, when given) are from a world's line, its point masked. */
const worldOff = (w: DeadWorld, ctx: Ctx, slide?: SlideWindow): number =>
  offTheWay(w.moves, new Set([...ctx.mask, w.square]), ctx, slide);

/** The most ways of sharing lit points among a line's moves tried (`offTheWay`). */
const ATTRIBUTIONS_MAX = 64;

/** When a sliding piece may have lit points: from its leaving to the opponent's hand at work. */
type SlideWindow = { from: number; to: number; all?: boolean };

/** The longest a slid piece rests on a point on its way (rule 11: 150–600 ms). */
const SLIDE_REST_MAX_MS = 600;

/**
 * A verdict of a dead sensor (or of none that fits) with the worlds of a capture nobody saw whose
 * piece went elsewhere unseen beside it, when there are any: play tells which.
 */
function withUnseenLandings(input: ReaderInput, ctx: Ctx, v: Verdict): Verdict {
  if (input.probing || (v.kind !== 'doubt' && v.kind !== 'suspect' && v.kind !== 'unknown')) return v;
  const back = backFromDeadPoint(input, ctx);
  const unseen = back === undefined ? unseenLandingWorlds(input, ctx) : [];
  if (back === undefined && unseen.length === 0) return v;
  // (Not before the board is still: such a piece may be sliding on, its way not all lit yet.)
  if (!input.settled) return waitVerdict(input, input.settleAt);
  if (back !== undefined) return back;
  const own: DeadWorld[] =
    v.kind === 'doubt'
      ? v.worlds
      : v.kind === 'suspect'
        ? [{ square: v.square, reads: v.reads, moves: [] }]
        : [];
  // The world the lit points tell best first: it is the one recorded if play never tells. Such a
  // piece's line that the lit points tell worse than a reading of the reader's own is no news; as
  // well only, it is when one point alone could have hidden the piece: a capture nobody saw is
  // common (swapped within a scan), and a piece back from any of several points says nothing of it.
  const mine = own.map((world) => ({
    world,
    off: worldOff(world, ctx),
  }));
  const best = Math.min(...mine.map((w) => w.off));
  const news = unseen.filter((w) => w.off <= best);
  const points = new Set(news.map((w) => w.world.square));
  if (news.length === 0 || (points.size > 1 && news.some((w) => w.off === best))) return v;
  const all = [...mine, ...news].sort((a, b) => a.off - b.off);
  return { kind: 'doubt', worlds: all.map((w) => w.world) };
}

/**
 * A move recorded in doubt whose rival went to a point whose sensor is known dead (a capture
 * there, or a move onto it, nothing shows), that piece now seen leaving that point: the rival is
 * what was played. The record is read again from it, the moves since kept while legal (master 14:
 * a chariot d8 took a horse on the dead a8, recorded as a capture nobody saw on e8; four plies
 * later it slid a8 to a5, read as a piece from nowhere, and the doubt the dead point was in lost).
 * Only a line that every point lit since fits, and that lights all of its way: a piece back from
 * another point is no such sign.
 */
function backFromDeadPoint(input: ReaderInput, ctx: Ctx): Verdict | undefined {
  if (ctx.mask.size === 0) return undefined;
  const lines: ResyncLine[] = [];
  for (const d of input.doubts ?? []) {
    const played = d.played[0];
    if (played === undefined) continue;
    for (const rival of d.rivals) {
      const z = rival.to;
      if (rival.from !== played.from || !ctx.mask.has(z)) continue;
      for (const l of seenAgainFrom(d, rival, ctx.mask, ctx))
        if (offTheWay(l.moves.slice(d.played.length), ctx.mask, ctx) === 0) lines.push(l);
    }
  }
  return agreedLines(lines);
}

/** The most moves since a capture nobody saw that its piece, unseen elsewhere, explains at once. */
const UNSEEN_LANDING_PLIES = 2;

/**
 * Nothing fits. Is one square's sensor dead? A candidate has read the same for a while and is
 * the one square that spoils a near fit; it is suspected when masking it, and no other candidate,
 * lets the board fit.
 */
function suspectDeadSquare(input: ReaderInput, nearFits: readonly Explanation[], ctx: Ctx): Verdict {
  if (input.probing) return { kind: 'unknown' };
  const { obs } = ctx;
  // Only a square that alone spoils a near fit: an empty square a lifted piece might have gone to
  // reads as it should, and masking any of them would explain the piece away.
  const candidates = new Set<Square>(nearFits.map((e) => e.bad!));
  let recheckAt: number | undefined;
  const found: { sq: Square; v: Verdict }[] = [];
  for (const sq of candidates) {
    if (input.mask.has(sq)) continue;
    const at = maskableAt(sq, ctx);
    if (input.now < at) {
      recheckAt = Math.min(recheckAt ?? Number.POSITIVE_INFINITY, at);
      continue;
    }
    const v = probe(input, ctx, sq);
    if (v.kind !== 'unknown' && v.kind !== 'suspect' && v.kind !== 'illegal') found.push({ sq, v });
    if (found.length > 1) return { kind: 'unknown', recheckAt };
  }
  if (found.length === 0) return { kind: 'unknown', recheckAt };
  const { sq, v } = found[0]!;
  const reads = obs[sq] === 0 ? 'empty' : 'occupied';
  // The last move taken back, its piece put back on a point that never read it, reads the same as
  // that move answered by a capture whose piece's point still reads it (a recapture on the spot).
  if (v.kind === 'commit' && v.revision && v.moves.length === 0) {
    const stuck = stuckOrigins(input, undefined, ctx);
    if (stuck.length > 0)
      return { kind: 'doubt', worlds: [{ square: sq, reads, moves: [], retract: 1 }, ...stuck] };
  }
  const mover = reads === 'empty' ? rivalMover(input, ctx, sq) : undefined;
  if (mover) return { kind: 'doubt', worlds: [{ square: sq, reads, moves: [] }, mover] };
  return { kind: 'suspect', square: sq, reads };
}

/**
 * A piece of the last mover's read off its point since that move was under way (after the moved
 * piece's point emptied, before it landed), never back: the sensor under it may be dead,
 * or it may have made the move itself, and the point the recorded move left be the dead one (it
 * read empty as the mover reached out, and that piece never left). Which point emptied first tells
 * nothing then. The world where it did, when it could legally have gone where the move landed: the
 * move taken back, that piece's move played, the other point masked (master 77, a cannon slid
 * b2a2 read as the elephant c0a2 whose sensor had died as Red reached for the cannon).
 */
function rivalMover(input: ReaderInput, ctx: Ctx, sq: Square): DeadWorld | undefined {
  const previous = input.previous;
  // (Its piece the last mover's: the side that moves in the position before the move.)
  if (previous === undefined || input.base.colorAt(sq) !== previous.position.turnCode) return undefined;
  const m = previous.move;
  const { changedAt } = ctx.evidence;
  // (The move's point left reads as it did then; its landing is the last move's, not its point's
  // last change: a capture there since changed it again.)
  const left = changedAt[m.from] ?? Number.POSITIVE_INFINITY;
  const off = changedAt[sq] ?? Number.NEGATIVE_INFINITY;
  const landed = input.landedAt ?? Number.NEGATIVE_INFINITY;
  if (ctx.obs[m.from] !== 0 || ctx.mask.has(m.from) || !(left < off && off < landed)) return undefined;
  if (!previous.position.legalDestinations(sq).includes(m.to)) return undefined;
  return { square: m.from, reads: 'empty', moves: [{ from: sq, to: m.to }], retract: 1 };
}

/** When a point reading the same since its last change has read so long it may be a dead sensor. */
const maskableAt = (sq: Square, ctx: Ctx): number =>
  (ctx.evidence.changedAt[sq] ?? 0) + ctx.timing.maskAfterMs;

function overdueSensor(input: ReaderInput, nearFits: readonly Explanation[], ctx: Ctx): Square | undefined {
  if (input.probing) return undefined;
  const unseen = unseenLanding(input, ctx);
  if (unseen.length === 1) return unseen[0]!.square;
  if (unseen.length > 1) return undefined;
  const candidates = new Set<Square>();
  for (const e of nearFits) {
    const sq = e.bad!;
    if (!e.overdue || input.mask.has(sq)) continue;
    if (ctx.now >= maskableAt(sq, ctx)) candidates.add(sq);
  }
  if (candidates.size !== 1) return undefined;
  const [sq] = candidates as unknown as [Square];
  const v = probe(input, ctx, sq);
  return v.kind === 'commit' && !v.revision ? sq : undefined;
}

/**
 * The side to move has held a piece off its point for long while the opponent has taken pieces in
 * hand: its move may be over, landed on a point whose sensor never read it. Such points: empty,
 * unread since the piece left, and reached by a legal move of it; each is probed masked, and is one
 * when that reads the move and the rest of the board as a line. (A piece held so long names no
 * stray overdue: which went first is no evidence then.) `replyLanded`: however short a while,
 * when the line read so has the opponent's reply set down too.
 */
function unseenLanding(input: ReaderInput, ctx: Ctx, replyLanded = false): DeadWorld[] {
  if (input.probing) return [];
  const base = input.base;
  const side = base.turnCode;
  const found: DeadWorld[] = [];
  for (const [from, at] of ctx.first) {
    if (base.colorAt(from) !== side || ctx.obs[from] !== 0 || ctx.mask.has(from)) continue;
    // (Held as long as a stray is believed: until then the opponent's piece off may be one the
    // hand knocked, and the mover's piece merely held.)
    if (!replyLanded && ctx.now - at < ctx.timing.strayMs) continue;
    const replyAt = replyStart(base, at, ctx);
    if (replyAt === Number.POSITIVE_INFINITY) continue;
    for (const m of base.legalMovesFrom((sq) => sq === from)) {
      const to = m.to;
      if (ctx.mask.has(to) || ctx.obs[to] !== 0 || base.colorAt(to) !== 0) continue;
      if ((ctx.evidence.changedAt[to] ?? Number.NEGATIVE_INFINITY) >= at) continue;
      const v = probe(input, ctx, to);
      if (v.kind !== 'commit' || v.revision || v.moves[0]?.from !== from || v.moves[0].to !== to) continue;
      // (At once only for a line of that move and a reply: a longer one, or a "reply" moving the
      // piece the last move set down, reads a knocked or nudged piece or a takeback as well.)
      if (replyLanded && (v.moves.length !== 2 || v.moves[1]!.from === input.previous?.move.to)) continue;
      // (A later move of the mover's whose piece was off its point before the reply began: that
      // piece was the move, and `from` reads empty under a piece standing there. A piece going on
      // from where the line set it down was not there to be lifted.)
      const early = v.moves.some(
        (m, k) =>
          k % 2 === 0 &&
          k > 0 &&
          !v.moves.slice(0, k).some((p) => p.to === m.from) &&
          (ctx.evidence.changedAt[m.from] ?? Number.NEGATIVE_INFINITY) < replyAt,
      );
      if (!early) found.push({ square: to, reads: 'empty', moves: v.moves });
    }
  }
  // (Only those whose way the lit points tell best: a slide lights every point it passes, so a
  // trail run out short of an empty point says the piece went on to it, not off elsewhere. Not
  // the points lit before its piece left: random 1/217, a flicker there. Each lit since, however
  // briefly: a fast slide passes a point in less than a bounce, random 1/48; and those the later
  // moves of its line lit, random 1/88.)
  return bestTold(found, ctx);
}

/**
 * The worlds whose lines the points lit since each one's piece left (any, however briefly) tell
 * best (`offTheWay`).
 */
function bestTold(worlds: DeadWorld[], ctx: Ctx): DeadWorld[] {
  if (worlds.length < 2) return worlds;
  const since = (w: DeadWorld) => ctx.first.get(w.moves[0]!.from) ?? Number.NEGATIVE_INFINITY;
  const off = worlds.map((w) =>
    worldOff(w, ctx, { from: since(w), to: Number.POSITIVE_INFINITY, all: true }),
  );
  const best = Math.min(...off);
  return worlds.filter((_, k) => off[k] === best);
}

/**
 * When a piece of the side to move, off its point, will have been held long enough to look for
 * where it may have landed unseen (see `unseenLanding`): only while the opponent holds a piece,
 * lifted after it, that it cannot take (no capture in progress explains the two).
 */
function heldLandingDue(input: ReaderInput, ctx: Ctx): number | undefined {
  const base = input.base;
  const side = base.turnCode;
  let due: number | undefined;
  for (const [from, at] of ctx.first) {
    if (base.colorAt(from) !== side || ctx.obs[from] !== 0 || ctx.mask.has(from)) continue;
    let takes: Square[] | undefined;
    for (const [sq, t] of ctx.first) {
      if (t <= at || base.colorAt(sq) !== 3 - side || ctx.obs[sq] !== 0) continue;
      takes ??= base.legalDestinations(from);
      if (!takes.includes(sq)) {
        due = Math.min(due ?? Number.POSITIVE_INFINITY, at + ctx.timing.strayMs);
        break;
      }
    }
  }
  return due;
}

/**
 * Near fits that are rivals of a line committed with a piece seen lifted and filled again left
 * unexplained: the same piece's move landing on that point instead, the committed landing read by
 * a sensor that began reading a piece within a few ms of that landing. A sensor dying as a piece
 * lands elsewhere reads just like the move onto it with an opponent's piece put back at once: the
 * record says it may be the other.
 */
function coincidentRivals(
  moves: readonly Move[],
  nearFits: readonly Explanation[],
  unexplained: number,
  ctx: Ctx,
): Explanation[] {
  const first = moves[0]!;
  const { changedAt } = ctx.evidence;
  if (unexplained === 0 || ctx.obs[first.to] === 0) return [];
  return nearFits.filter((e) => {
    const m = e.line[0];
    if (e.revision || e.unexplained >= unexplained || e.bad !== first.to || !m) return false;
    if (m.from !== first.from || m.to === first.to) return false;
    const apart = Math.abs((changedAt[first.to] ?? Number.NaN) - (changedAt[m.to] ?? Number.NaN));
    return apart <= COINCIDENT_MS;
  });
}

/**
 * The board judged again with `sq` masked on trial as well: once per point in a judgement, however
 * many of its readings (a dead landing, a phantom, a stuck origin) ask.
 */
function probe(input: ReaderInput, ctx: Ctx, sq: Square): Verdict {
  let v = ctx.probes.get(sq);
  if (v === undefined) {
    v = judge({ ...input, mask: new Set([...input.mask, sq]), probing: true });
    ctx.probes.set(sq, v);
  }
  return v;
}

/**
 * A piece read as set down where it may not go is a sensor that started reading a piece where
 * none stands, once that reading has held `maskAfterMs` and, that point masked, the rest of the
 * board reads as moves made: the piece "set down" out of place would be in the hand, and the
 * board shows no piece in the hand (a chariot read as set down far off its lines while its
 * capture, swapped in one scan, is answered by the reply). A piece really set down out of place
 * leaves its origin empty with nothing else to read it: masked, that is a piece in the hand.
 * (Looked at whenever the board is judged: the illegal state's one recheck is the resync's.)
 */
function phantomNotPlaced(input: ReaderInput, ctx: Ctx, illegal: Displacement): Verdict | undefined {
  const sq = illegal.to;
  if (input.probing || ctx.obs[sq] === 0 || input.mask.has(sq)) return undefined;
  if (ctx.now < maskableAt(sq, ctx)) return undefined;
  const v = probe(input, ctx, sq);
  return v.kind === 'commit' && !v.revision && v.moves.length > 0
    ? { kind: 'suspect', square: sq, reads: 'occupied' }
    : undefined;
}

/**
 * A piece of the mover's read as set down where it may not go, far off its lines (no slip of the
 * hand), on a point an opponent's piece could have gone to once the mover's move was made (a
 * capture swapped within a scan, nobody saw made): that piece's point, still reading it, may be a
 * stuck sensor, if masked the board reads as the two moves; or the point set down on may be a
 * sensor that started reading a piece: a doubt over those worlds, which play tells apart. (Not for
 * a piece of the opponent's out of turn: a move made out of turn reads just so. Nor when any piece
 * off its point is near it, or on its file or rank: a slip of the hand.)
 */
function stuckReplyOrigin(input: ReaderInput, ctx: Ctx, illegal: Displacement): Verdict | undefined {
  if (input.probing || illegal.after.length > 0 || ctx.obs[illegal.from] !== 0) return undefined;
  const { from: off, to: at } = illegal;
  const base = input.base;
  if (base.colorAt(off) !== base.turnCode) return undefined;
  // (Nor when any piece off its point, of either side, could have slipped there: after a capture
  // nobody saw made, the opponent's hand is the mover's.)
  const slip = (sq: Square): boolean =>
    apart(sq, at) <= 3 || squareFile(sq) === squareFile(at) || squareRank(sq) === squareRank(at);
  for (let sq = 0; sq < 90; sq++)
    if (base.colorAt(sq) !== 0 && ctx.obs[sq] === 0 && !ctx.mask.has(sq) && slip(sq)) return undefined;
  const worlds: DeadWorld[] = [];
  for (let from = 0; from < 90; from++) {
    if (base.colorAt(from) !== 3 - base.turnCode || ctx.obs[from] === 0 || ctx.mask.has(from)) continue;
    if (ctx.now < maskableAt(from, ctx)) continue;
    const v = probe(input, ctx, from);
    if (v.kind !== 'commit' || v.revision || !v.moves.some((m) => m.from === from && m.to === at)) continue;
    // (The reply set down no sooner than two carries and a reply's wait after the mover's piece left.)
    const first = v.moves[0]!;
    if (
      (ctx.evidence.changedAt[at] ?? 0) <
      departure(first.from, ctx) + 2 * MIN_CARRY_MS + REPLY_AFTER_LANDING_MS
    )
      continue;
    worlds.push({ square: from, reads: 'occupied', moves: v.moves });
  }
  if (worlds.length === 0) return undefined;
  // (Said once the board is still: a piece in flight is no placement.)
  if (!input.settled) return waitVerdict(input, input.settleAt);
  // (Or the new reading is the fault, a sensor that started reading a piece: that world is one.)
  return { kind: 'doubt', worlds: [...worlds, { square: at, reads: 'occupied', moves: [] }] };
}

/**
 * A point of the confirmed position that first read empty from COINCIDENT_MS before the confirmed
 * move's landing to REPLY_AFTER_LANDING_MS after it, far from it: no hand takes a piece up as another
 * sets one down far away (a reply is lifted 50 ms after the landing at the soonest, rule 10; a hand
 * knocks only next to it), and a sensor dying may. (Not when frames were lost since just before the
 * landing: the gap tells no order. Nor after a capture, whose landing time is a bound only.)
 */
function vanishedAsLanded(input: ReaderInput, ctx: Ctx): Square | undefined {
  const last = input.previous?.move;
  if (input.probing || last === undefined || ctx.lastCaptured || !Number.isFinite(ctx.lastLanded))
    return undefined;
  if ((ctx.evidence.lostUntil ?? Number.NEGATIVE_INFINITY) >= ctx.lastLanded - COINCIDENT_MS)
    return undefined;
  let found: Square | undefined;
  for (const [sq, left] of ctx.first) {
    const after = left - ctx.lastLanded;
    if (after < -COINCIDENT_MS || after >= REPLY_AFTER_LANDING_MS || ctx.obs[sq] !== 0 || ctx.mask.has(sq))
      continue;
    if (input.base.colorAt(sq) === 0 || near(sq, last.to) || near(sq, last.from)) continue;
    if (found !== undefined) return undefined;
    found = sq;
  }
  return found;
}

/** Longer than a nudge holds a piece off the point it was just set down on (rule 16: 100–400 ms). */
const NUDGE_MAX_MS = 400;

/**
 * The last move a chariot's or cannon's slide, its piece gone from where it stopped and set down
 * nowhere the sensors show, while the opponent has taken in hand, since, a piece that cannot take
 * it there: the move is over (the opponent's hand says so), so the piece is down, and a slide goes
 * on point by point: on the next one, whose sensor did not read it. That point is named dead, then
 * the move is read as going on to it (a revision).
 */
function slideWentOn(input: ReaderInput, fits: readonly Explanation[], ctx: Ctx): Verdict | undefined {
  const previous = input.previous;
  if (input.probing || previous === undefined || fits.length === 0) return undefined;
  const { move, position: before } = previous;
  const role = before.pieceAt(move.from)?.role;
  if ((role !== 'chariot' && role !== 'cannon') || before.colorAt(move.to) !== 0) return undefined;
  const base = input.base;
  const landing = move.to;
  if (ctx.obs[landing] !== 0 || ctx.mask.has(landing) || base.colorAt(landing) !== 3 - base.turnCode)
    return undefined;
  if (!fits.every((e) => !e.revision && e.hand.includes(landing))) return undefined;
  const left = departure(landing, ctx);
  if (!Number.isFinite(left)) return undefined;
  // (Not one that stood there longer than a slide rests (rule 11): set down, its move over, it
  // left on a move of its own, random 1/66.)
  if (left - ctx.lastLanded > SLIDE_REST_MAX_MS) return undefined;
  let replied = false;
  const takers = base
    .legalMovesFrom((sq) => base.colorAt(sq) === base.turnCode && ctx.obs[sq] !== 0)
    .filter((m) => m.to === landing)
    .map((m) => m.from);
  for (const [sq, t] of ctx.first) {
    // (A hand at work as it left may have knocked it off, rule 14: one that had just taken a piece
    // up anywhere, reaching for the next, or one at a piece next to it about then.)
    if (sq !== landing && t <= left && t >= left - KNOCK_AFTER_LIFT_MS) return undefined;
    if (sq !== landing && near(sq, landing) && Math.abs(t - left) <= KNOCK_AFTER_LIFT_MS) return undefined;
    if (t <= left || base.colorAt(sq) !== base.turnCode || ctx.obs[sq] !== 0 || ctx.mask.has(sq)) continue;
    if (base.legalDestinations(sq).includes(landing)) return undefined;
    // (Nor a piece next to one that can take it there, lifted as the hand reached for that one:
    // knocked, the slide's piece its victim taken off first (master 408). Lifted later, it is the
    // opponent's own move, master 40.)
    if (t - left <= KNOCK_AFTER_LIFT_MS && takers.some((p) => near(p, sq))) continue;
    replied = true;
  }
  if (!replied) return undefined;
  const next = squareAt(
    squareFile(landing) + Math.sign(squareFile(landing) - squareFile(move.from)),
    squareRank(landing) + Math.sign(squareRank(landing) - squareRank(move.from)),
  );
  if (next === undefined || base.colorAt(next) !== 0 || ctx.obs[next] !== 0) return undefined;
  // (Its point unchanged since before the slide stopped: a live sensor would have read it land.)
  if ((ctx.evidence.changedAt[next] ?? Number.NEGATIVE_INFINITY) >= ctx.lastLanded) return undefined;
  if (!before.legalDestinations(move.from).includes(next)) return undefined;
  // (Not while it may be a nudge: asked again once it has been off longer.)
  if (ctx.now < left + NUDGE_MAX_MS) {
    ctx.askAgainAt = left + NUDGE_MAX_MS;
    return undefined;
  }
  if (!ctx.mask.has(next)) return { kind: 'suspect', square: next, reads: 'empty' };
  // (Read at once: what shows it is the opponent's hand, not this piece's, which may not pass by.)
  return {
    kind: 'commit',
    moves: [{ from: move.from, to: next }],
    revision: true,
    ready: true,
    movedOn: true,
  };
}

/** Landings no sensor saw: on one point, that sensor is suspected; on several, a doubt over them. */
function landingVerdict(worlds: DeadWorld[]): Verdict | undefined {
  if (worlds.length === 1) return { kind: 'suspect', square: worlds[0]!.square, reads: 'empty' };
  return worlds.length > 1 ? { kind: 'doubt', worlds } : undefined;
}

/**
 * The points that may read a piece that is not there: one, when it alone keeps the board from
 * fitting and, masked, leaves it read; several, when each of them, masked, reads a line of moves
 * (a world each, its line committed).
 */
function phantomSquares(input: ReaderInput, nearFits: readonly Explanation[], ctx: Ctx): DeadWorld[] {
  if (input.probing) return [];
  let shown = 0;
  let pieces = 0;
  for (let sq = 0; sq < 90; sq++) {
    if (ctx.mask.has(sq)) continue;
    if (ctx.obs[sq] !== 0) shown++;
    if (input.base.colorAt(sq) !== 0) pieces++;
  }
  const { changedAt } = ctx.evidence;
  const candidates = new Set<Square>();
  for (const e of nearFits) {
    const bad = e.bad!;
    if (e.revision || ctx.obs[bad] === 0) continue;
    // (Or one piece more than the line's captures leave, that point first reading it as a move of
    // the line was seen land, after its piece was seen leave, or as the side to move pressed its
    // clock: no hand sets two pieces down at once, far apart, nor one as it presses the clock, and
    // a sensor dying may. A board first read, mid-game, shows no landing.)
    // (Pieces taken in hand after that point first read its piece are pieces too: not that one.)
    const began = changedAt[bad] ?? 0;
    const counted = shown + e.hand.filter((h) => departure(h, ctx) > began).length;
    if (counted <= pieces) {
      const took = e.line.filter((m) => ctx.captures.has(m));
      const pressed = ctx.evidence.pressedAt ?? Number.NEGATIVE_INFINITY;
      const coincident =
        (e.line.length > 0 && Math.abs(began - pressed) <= COINCIDENT_MS) ||
        e.line.some((m) => {
          const landed = changedAt[m.to] ?? Number.NEGATIVE_INFINITY;
          const left = departure(m.from, ctx);
          return Number.isFinite(left) && landed > left && Math.abs(began - landed) <= COINCIDENT_MS;
        });
      if (!coincident || counted <= pieces - took.length) continue;
    }
    const pos = input.base.clone();
    for (const m of e.line) pos.play(m);
    if (pos.colorAt(bad) === 0) candidates.add(bad);
  }
  if (candidates.size === 1) {
    const [sq] = candidates as unknown as [Square];
    const v = probe(input, ctx, sq);
    return v.kind === 'unknown' || v.kind === 'suspect' || v.kind === 'illegal'
      ? []
      : [{ square: sq, reads: 'occupied', moves: [] }];
  }
  const worlds: DeadWorld[] = [];
  for (const sq of candidates) {
    const v = probe(input, ctx, sq);
    if (v.kind === 'commit' && !v.revision && v.moves.length > 0)
      worlds.push({ square: sq, reads: 'occupied', moves: v.moves });
  }
  return worlds.length > 1 ? worlds : [];
}

/**
 * Does the story have a point set down again that its line leaves alone (lifted since the confirmed
 * position, filled again) within COINCIDENT_MS of a landing of its line far from it (not next to
 * where the moved piece left or landed: a hand knocks pieces there), the two pieces the two players'?
 */
function setDownTwice(input: ReaderInput, e: Explanation, ctx: Ctx): boolean {
  if (e.unexplained === 0) return false;
  const { changedAt } = ctx.evidence;
  const start = e.revision ? input.previous!.position : input.base;
  for (const r of ctx.refilled) {
    if (e.line.some((m) => m.from === r || m.to === r)) continue;
    const back = changedAt[r] ?? Number.NaN;
    for (let k = 0; k < e.line.length; k++) {
      const m = e.line[k]!;
      // (One player's two hands may: a piece knocked set back as the moved one is nudged.)
      const side = k % 2 === 0 ? start.turnCode : 3 - start.turnCode;
      if (start.colorAt(r) === side) continue;
      if (near(m.to, r) || near(m.from, r)) continue;
      if (Math.abs((changedAt[m.to] ?? Number.NaN) - back) <= COINCIDENT_MS) return true;
    }
  }
  return false;
}

/**
 * Did a piece of the side to move slide onto `sq`: from its point, the points in a straight line up
 * to `sq` each first read a piece soon after the one before and read none again after (the piece
 * went on), the last of them as `sq` first read one (a sliding piece stands on two points for a
 * moment), or two or more such points in a row? A sensor dying reads a piece at any time, not as the
 * next step of a slide. (A point between may read a piece again now: another point of the doubt.)
 */
function slidOnto(input: ReaderInput, ctx: Ctx, sq: Square): boolean {
  const history = ctx.evidence.history;
  // (Read since its first reading, but for the bounce of a piece set down.)
  const times = history?.readingsOf(sq);
  if (history === undefined || times === undefined || times.length % 2 === 0) return false;
  const began = times[0]!;
  if (times[times.length - 1]! - began > MOMENT_MS) return false;
  const side = input.base.turnCode;
  for (const from of ctx.evidence.lifted.keys()) {
    if (input.base.colorAt(from) !== side) continue;
    const df = Math.sign(squareFile(sq) - squareFile(from));
    const dr = Math.sign(squareRank(sq) - squareRank(from));
    if (df !== 0 && dr !== 0) continue;
    let at = departure(from, ctx);
    let off = Number.NaN;
    let n = 0;
    let p = squareAt(squareFile(from) + df, squareRank(from) + dr);
    for (; p !== undefined && p !== sq; p = squareAt(squareFile(p) + df, squareRank(p) + dr)) {
      // (Its first reading, however short: a slide may pass a point quicker than a bounce.)
      const seen = history.readingsOf(p);
      const [on, gone] = [seen?.[0], seen?.[1]];
      if (on === undefined || on < at || on > at + SLIDE_STEP_MAX_MS) break;
      if (gone === undefined || gone > began + MOMENT_MS) break;
      at = on;
      off = gone;
      n++;
    }
    if (p !== sq || n === 0 || began < at || began > at + SLIDE_STEP_MAX_MS) continue;
    if (n >= 2 || Math.abs(off - began) <= MOMENT_MS) return true;
  }
  return false;
}

/**
 * The points of the side to move's pieces that, masked, read the board as that piece's move (onto
 * `landing`, if given): the sensor of one of them reads the piece that has gone.
 */
function stuckOrigins(input: ReaderInput, landing: Square | undefined, ctx: Ctx): DeadWorld[] {
  const base = input.base;
  const side = base.turnCode;
  const found: DeadWorld[] = [];
  for (let from = 0; from < 90; from++) {
    if (base.colorAt(from) !== side || ctx.obs[from] === 0 || ctx.mask.has(from)) continue;
    const to = base.legalDestinations(from);
    if (landing !== undefined ? !to.includes(landing) : to.length === 0) continue;
    const v = probe(input, ctx, from);
    if (v.kind !== 'commit' || v.revision || v.moves[0]?.from !== from) continue;
    if (landing === undefined || v.moves[0].to === landing)
      found.push({ square: from, reads: 'occupied', moves: v.moves });
  }
  return found;
}

/**
 * The opponent has taken a piece in hand since the board last changed where a move shows (a point
 * reading other than the confirmed position, or filled again): the mover's move is over.
 */
function replyBegun(input: ReaderInput, ctx: Ctx): boolean {
  const base = input.base;
  let shownAt = Number.NEGATIVE_INFINITY;
  for (let sq = 0; sq < 90; sq++) {
    const o = ctx.obs[sq]!;
    if (o === 0 || ctx.mask.has(sq)) continue;
    if (!matches(base.colorAt(sq), o) || ctx.refilled.includes(sq))
      shownAt = Math.max(shownAt, ctx.evidence.changedAt[sq] ?? shownAt);
  }
  if (shownAt === Number.NEGATIVE_INFINITY) return false;
  const other = 3 - base.turnCode;
  for (const [sq, at] of ctx.evidence.lifted)
    if (at > shownAt && base.colorAt(sq) === other && ctx.obs[sq] === 0 && !ctx.mask.has(sq)) return true;
  return false;
}

/** When the board last changed. */
function lastChange(ctx: Ctx): number {
  let latest = Number.NEGATIVE_INFINITY;
  for (let sq = 0; sq < 90; sq++) latest = Math.max(latest, ctx.evidence.changedAt[sq] ?? latest);
  return latest;
}

/** Nothing to commit yet, and no line to keep: the pieces in the hand, and when to look again. */
function waitVerdict(
  input: ReaderInput,
  recheckAt: number | undefined,
  revised: Move[][] = [],
  hold?: Move[],
): Verdict {
  return {
    kind: 'wait',
    lifted: liftedNow(input),
    candidates: [],
    ambiguous: false,
    ...(revised.length > 0 ? { revised } : {}),
    ...(hold !== undefined ? { hold } : {}),
    keep: [],
    recheckAt,
  };
}

function decide(input: ReaderInput, fits: Explanation[]): Verdict {
  const revisions = fits.filter((e) => e.revision);
  const recheckAt = soonest(fits.map((e) => e.expires));
  if (revisions.length > 0 && revisions.length < fits.length) {
    // Moved on, or still the last move with a piece in the hand: wait. (Said, if it lasts, when
    // the last move taken back or changed explains the whole board.)
    const revised = dedupe(revisions.filter((e) => e.hand.length === 0).map((e) => e.line));
    return waitVerdict(input, recheckAt, revised);
  }
  const lifted = liftedNow(input);
  const lines = fits.map((e) => e.line);
  const agreed = commonPrefix(lines);
  const revision = revisions.length > 0;
  if (agreed.length > 0 || (revision && lines.every((l) => l.length === 0))) {
    // A capture taken back is over when the capturer is back: while it is still in the hand, its
    // victim back on its point reads the same as a recapture whose piece's own point still reads it.
    const previous = input.previous;
    const capture = tookPiece(previous);
    if (agreed.length === 0 && capture && fits.every((e) => e.hand.includes(previous.move.from)))
      return waitVerdict(input, recheckAt);
    const base = revision ? input.previous!.position : input.base;
    // A move that ends the game is never revised once recorded (the game is over, and archived):
    // a slide that rests on the way onto a point that mates (up to 600 ms, rule 11) must have gone
    // on by then. It is held until its landing has stood that long.
    const ending = endingSlideHold(input, base, agreed);
    if (ending !== undefined && input.now < ending) return waitVerdict(input, ending);
    // A capture seen made, its point unchanged since the capturer landed there: no piece left it to
    // go on. Read elsewhere, the move is changed, but in doubt (a piece from a point whose dead
    // sensor still reads it, set down there, reads so too).
    if (revision && agreed.length > 0 && standingCapture(input))
      return { kind: 'commit', moves: agreed, revision, ready: true, rivals: [[previous!.move]] };
    const ready = isReady(input, base, agreed, fits);
    // The last move's piece has moved on and is still travelling: the move recorded is wrong now.
    // It is taken back at once; where the piece stops is read as a move of its own. (Only when it
    // is seen travel: a point whose sensor is dead shows nothing.)
    if (revision && !ready && input.takebacks && agreed.length > 0 && !input.mask.has(agreed[0]!.to))
      return { kind: 'commit', moves: [], revision, ready: true, movedOn: true };
    return { kind: 'commit', moves: agreed, revision, ready };
  }
  const candidates = dedupe(lines.filter((l) => l.length > 0));
  // A piece may still be sliding: the squares it passes are no stops, so nothing is concluded
  // from this board until it has settled.
  if (!input.settled && !revision && lines.some((l) => isExtendable(input.base, l))) {
    const at = input.settleAt ?? input.now;
    return {
      kind: 'wait',
      lifted,
      candidates,
      ambiguous: false,
      keep: [...input.pending.map((l) => [...l])],
      recheckAt: Math.min(recheckAt ?? at, at),
    };
  }
  // The opponent has moved in every explanation and still they disagree: say so.
  const ambiguous = !revision && lines.every((l) => l.length >= 2);
  // Play has gone on past it (the reply and the next move made in every line, nothing in the hand)
  // and no evidence ends it: the record cannot wait for ever. The likeliest line's move is recorded
  // (the fewest captures nobody saw land; the first of those), the others said beside it (rivals,
  // below), held in doubt: the players may correct it, and a board it no longer reads changes it.
  if (
    ambiguous &&
    lines.every((l) => l.length >= DOUBT_RECORDED_AFTER) &&
    fits.every((e) => e.hand.length === 0)
  ) {
    const seen = Math.min(...fits.map((e) => e.hidden));
    const likeliest = fits.find((e) => e.hidden === seen)!;
    return { kind: 'commit', moves: [likeliest.line[0]!], revision: false, ready: true };
  }
  // Lines the opponent has moved in are kept while the ambiguity lasts: a later board may need
  // them (a third move) though the board in between fits shorter lines with pieces in the hand.
  // Kept as they stand when the board shows their position exactly (nothing in the hand): the next
  // judgement extends them again, so the variants with pieces in the hand need not be kept.
  const deepFits = fits.filter((e) => !e.revision && e.line.length >= 2);
  const exact = deepFits.filter((e) => e.hand.length === 0);
  const deep = dedupe((exact.length > 0 ? exact : deepFits).map((e) => e.line));
  const keep =
    ambiguous || input.pending.length > 0
      ? dedupe([...input.pending.map((l) => [...l]), ...deep]).slice(0, MAX_LINES)
      : [];
  return { kind: 'wait', lifted, candidates, ambiguous, keep, recheckAt };
}

/** The confirmed move (`ReaderInput.previous`) took a piece. */
function tookPiece(previous: ReaderInput['previous']): previous is NonNullable<ReaderInput['previous']> {
  return previous !== undefined && previous.position.colorAt(previous.move.to) !== 0;
}

/**
 * The confirmed move is a capture whose landing was seen (its point last changed as it landed, after
 * its victim was taken off) and has not changed since.
 */
function standingCapture(input: ReaderInput): boolean {
  const previous = input.previous;
  if (!tookPiece(previous)) return false;
  // (Recorded in doubt already: reading it elsewhere settles that doubt.)
  if (input.lastInDoubt) return false;
  const to = previous.move.to;
  return !input.mask.has(to) && input.evidence.changedAt[to] === input.landedAt;
}

/**
 * May the agreed moves be committed now? Unless the last one is a chariot or cannon that could
 * still slide on: then only once the board has settled, a clock button ends it, or every
 * explanation shows the opponent already acting.
 */
function isReady(input: ReaderInput, base: Position, moves: Move[], fits: Explanation[]): boolean {
  if (moves.length === 0 || input.settled) return true;
  if (!isExtendable(base, moves)) return true;
  if (input.evidence.buttonBy !== undefined && input.evidence.buttonBy === base.turn && moves.length === 1)
    return true;
  const pos = base.clone();
  for (const m of moves) pos.play(m);
  const next = pos.turnCode;
  // A piece next to the slide's line may have been knocked by the hand that slides: no reply.
  const last = moves[moves.length - 1]!;
  // (A stray is no sign of the opponent at work: it was knocked, or is being straightened.)
  return fits.every(
    (e) =>
      e.line.length > moves.length ||
      e.hand.some(
        (sq) => pos.colorAt(sq) === next && e.strayAt.indexOf(sq) < 0 && !nearSlide(base, moves, last, sq),
      ),
  );
}

/** Is `sq` next to the line a sliding piece travels, from where it left to as far as it could go? */
function nearSlide(base: Position, moves: readonly Move[], last: Move, sq: Square): boolean {
  if (near(sq, last.from)) return true;
  const df = Math.sign(squareFile(last.to) - squareFile(last.from));
  const dr = Math.sign(squareRank(last.to) - squareRank(last.from));
  const pos = beforeLast(base, moves);
  for (
    let at = squareAt(squareFile(last.from) + df, squareRank(last.from) + dr);
    at !== undefined;
    at = squareAt(squareFile(at) + df, squareRank(at) + dr)
  ) {
    if (near(sq, at)) return true;
    if (at !== last.to && pos.colorAt(at) !== 0 && at !== last.from) return false;
  }
  return false;
}

const soonest = (times: number[]): number | undefined => {
  const finite = times.filter((t) => Number.isFinite(t));
  return finite.length > 0 ? Math.min(...finite) : undefined;
};

/**
 * Has the side to move in `pos` lifted one of its pieces (the opponent of the last move acted)?
 * With `observed`, only a piece that is still off its square counts; a lift begun before `landedAt`
 * (the mover's own hand knocking it) is none.
 */
export function moverLifted(
  pos: Position,
  lifted: ReadonlyMap<Square, number>,
  observed?: Cells,
  landedAt = Number.NEGATIVE_INFINITY,
): boolean {
  const side = pos.turnCode;
  for (const [sq, since] of lifted) {
    if (since < landedAt) continue;
    if (pos.colorAt(sq) === side && (observed === undefined || observed[sq] === '.')) return true;
  }
  return false;
}

function exactly(pos: Position, ctx: Ctx): boolean {
  for (let sq = 0; sq < 90; sq++) {
    if (ctx.masked[sq] === 1) continue;
    if (!matches(pos.colorAt(sq), ctx.obs[sq]!)) return false;
  }
  return true;
}

/** How many moves past a root an explanation may go: a move, the reply, and one more. */
const MAX_DEPTH = 3;

/**
 * Every explanation from `root` (the position after `line`) with up to three more moves, sides
 * alternating. `revising`: the root is the position before the last move, and only that move's
 * piece may move (somewhere else), or nothing (a takeback).
 *
 * Each move must leave a square that reads empty (or that the next move fills, when that square
 * was seen empty meanwhile), and land where the reading shows its piece: a square whose reading
 * changed, or an occupancy capture whose target never read empty (hidden). So the search only
 * follows what the sensors show, and stays small.
 */
function explain(
  root: Position,
  line: Move[],
  hiddenInLine: number,
  revision: boolean,
  revising: Move | undefined,
  ctx: Ctx,
  out: Explanation[],
): void {
  const { obs, mask } = ctx;
  add(root, line, hiddenInLine, revision, ctx, out);
  const depth = revising ? 1 : MAX_DEPTH;
  const { first } = ctx;
  const landedAt = (m: Move): number => landingTime(m, ctx);
  const latestStart = (path: Move[]): number => {
    let latest = Number.NEGATIVE_INFINITY;
    for (const m of line) latest = Math.max(latest, first.get(m.from) ?? latest);
    for (const m of path) latest = Math.max(latest, first.get(m.from) ?? latest);
    return latest;
  };
  // What the root showed: a capturer set down on top of its victim leaves the reading as it was
  // (the sensor reads the lower piece) until the victim is taken away.
  if (SHOWN.length === explaining) SHOWN.push(new Uint8Array(90));
  const shown = SHOWN[explaining]!;
  for (let sq = 0; sq < 90; sq++) shown[sq] = root.colorAt(sq);
  const covered: Square[] = [];
  let hidden = hiddenInLine;
  const search = (pos: Position, path: Move[], left: number): void => {
    // Squares that read a piece the position does not have: each needs a move landing there.
    const appeared = appearedSquares(pos, ctx, covered);
    if (appeared.length > left) return;
    // Only a piece whose square reads empty (or was seen empty, for a reply landing there) moves.
    const movable = (sq: Square): boolean =>
      mask.has(sq) || obs[sq] === 0 || (left >= 2 && ctx.evidence.lifted.has(sq));
    for (const m of pos.legalMovesFrom(revising ? (sq) => sq === revising.from : movable)) {
      if (revising && (m.from !== revising.from || m.to === revising.to)) continue;
      const mover = pos.colorAt(m.from);
      if (pos.colorAt(m.to) !== 0) ctx.captures.add(m);
      // The line's previous move, and the one before it (the same side's).
      const prev = path.length > 0 ? path[path.length - 1] : line[line.length - 1];
      const before = path.length > 1 ? path[path.length - 2] : line[line.length - 2 + path.length];
      // (A victim seen taken off is under nothing: a reading of it now is it put back.)
      const onTop =
        !mask.has(m.to) &&
        pos.colorAt(m.to) !== 0 &&
        shown[m.to] === pos.colorAt(m.to) &&
        matches(shown[m.to]!, obs[m.to]!) &&
        !victimTaken(m, prev, ctx);
      if (!mask.has(m.to) && !onTop && !matches(mover, obs[m.to]!)) {
        // Not where this move puts it; unless the reply captures it there (it reads the other side).
        // Or a capture whose victim's square has been lifted since: it landed there unseen, and
        // the next mover has taken it off to capture it in turn.
        // (Taken off after this move's piece left: it had to land first.)
        const takenAway =
          obs[m.to] === 0 &&
          pos.colorAt(m.to) !== 0 &&
          (ctx.evidence.lifted.get(m.to) ?? Number.NEGATIVE_INFINITY) >
            (first.get(m.from) ?? Number.NEGATIVE_INFINITY);
        // Or it was seen set down on an empty point and taken off since: the opponent's hand has
        // it, to capture it (fast play: the reply begins before the move has settled).
        const setDownThenTaken =
          obs[m.to] === 0 && pos.colorAt(m.to) === 0 && landingSpell(m, ctx) !== undefined;
        if (!takenAway && !setDownThenTaken && (obs[m.to] === 0 || left < 2)) continue;
      } else if (appeared.length === left && appeared.indexOf(m.to) < 0 && appeared.indexOf(m.from) < 0) {
        continue; // every move left must land on a square still unexplained
      }
      if (!mask.has(m.from) && obs[m.from] !== 0) {
        // The square it left reads a piece: only a reply landing there, seen empty meanwhile.
        if (left < 2 || !ctx.evidence.lifted.has(m.from)) continue;
      }
      // A chariot or cannon going on along the same line from where its previous move stopped is
      // one slide seen halfway, not two moves (unless that move captured: a slide ends there).
      // (Unless the opponent's move between was down before the piece went on: the opponent has
      // acted, and the same piece moving again is a move of its own, rule 11.)
      if (
        before &&
        before.to === m.from &&
        !ctx.captures.has(before) &&
        pos.isSlider(m.from) &&
        sameDirection(before, m) &&
        !(prev && landedAt(prev) < stoodUntil(before, ctx))
      )
        continue;
      // A capture of a piece an earlier move of the line set down on an empty square: the one
      // reading there must tell both landings (seen set down, taken off, and the capturer set down).
      // (A point whose sensor is dead tells nothing: both landed unseen.)
      if (
        shown[m.to] === 0 &&
        pos.colorAt(m.to) !== 0 &&
        !mask.has(m.to) &&
        retakenAt(m.to, ctx) === undefined
      )
        continue;
      // When this piece left its square (its first lift since the confirmed position).
      const leftAt = first.get(m.from);
      if (leftAt !== undefined) {
        // A reply begins after the move it answers landed: a piece that left before that landing
        // was knocked off by the hand, not moved. A capture's landing is bounded by its departure
        // and a carry, and the reply comes at least REPLY_AFTER_LANDING_MS after it. Another
        // landing is read where its square changed: a later bounce may have moved that (no margin),
        // and a reply taking the piece that just landed changes it again (no later than it was
        // first seen there).
        // (Its latest lift: a knocked piece put back may be lifted again, for the reply.)
        const liftedAt = ctx.evidence.lifted.get(m.from) ?? leftAt;
        if (prev && m.from !== prev.to) {
          const captured = ctx.captures.has(prev);
          if (
            (m.to !== prev.to || captured) &&
            liftedAt < landedAt(prev) + (captured ? REPLY_AFTER_LANDING_MS : 0)
          )
            continue;
          // (Taking the piece that just landed: not before it was seen there.)
          if (m.to === prev.to && !captured && liftedAt < earliestLanding(prev, ctx)) continue;
        } else if (!prev && !revising && liftedAt < ctx.lastLanded) continue; // (the confirmed move's landing)
        // A capture's victim seen taken off was taken by the reply's hand: after the move it
        // answers landed, and no sooner than a hand answers (a piece off its point before then
        // was knocked, and put back). (Seen in the same frame, a frame lost between them, the
        // order is unknown.)
        if (pos.colorAt(m.to) !== 0 && obs[m.to] !== 0 && !mask.has(m.to)) {
          const victimLeft = ctx.evidence.lifted.get(m.to);
          const answered = prev ? earliestLanding(prev, ctx) : ctx.lastLanded;
          // (The confirmed move's landing, when a capture, is known only as its point's last change:
          // a bounce may have moved that, so no margin.)
          // (Nor when a change since that landing, or the landing itself, was seen only after lost frames.)
          const seenInTime = (ctx.evidence.gapFrameAt ?? Number.NEGATIVE_INFINITY) < answered;
          const margin = (prev !== undefined || !ctx.lastCaptured) && seenInTime ? REPLY_AFTER_LANDING_MS : 0;
          if (
            victimLeft !== undefined &&
            (victimLeft < answered || (victimLeft > answered && victimLeft < answered + margin))
          )
            continue;
        }
        // A piece lands after it was lifted: not where the reading changed before it left (for a
        // capture, its victim's point filled again before the capturer left: the victim came back).
        // (The point it lands on, empty before, has read occupied since before the piece left:
        // that is another piece.)
        if (
          pos.colorAt(m.to) === 0 &&
          obs[m.to] !== 0 &&
          !mask.has(m.to) &&
          (ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY) < leftAt
        )
          continue;
        if (
          pos.colorAt(m.to) !== 0 &&
          obs[m.to] !== 0 &&
          ctx.evidence.lifted.has(m.to) &&
          (ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY) < leftAt
        )
          continue;
        // Moves follow each other: a piece that left before an earlier move's piece did is not a
        // later move's (only for a piece that stood there from the start: a square a move of the
        // line filled was lifted first by another piece).
        const original = !line.some((x) => x.to === m.from) && !path.some((x) => x.to === m.from);
        if (original && leftAt < latestStart(path)) continue;
      }
      const unseen = isHidden(pos, m, onTop, prev, ctx) ? 1 : 0;
      // (Left from a point whose sensor is dead, landed unseen: nothing shows it at all.)
      if (unseen && mask.has(m.from)) ctx.sightless.add(m);
      pos.play(m);
      path.push(m);
      hidden += unseen;
      if (onTop) covered.push(m.to);
      add(pos, line, hidden, revision, ctx, out, covered, path);
      if (left > 1) search(pos, path, left - 1);
      if (onTop) covered.pop();
      hidden -= unseen;
      path.pop();
      pos.undo();
    }
  };
  explaining++;
  try {
    search(root, [], depth);
  } finally {
    explaining--;
  }
}

/** Boards as each root showed them, one per explanation under way (a scratch: none allocated per call). */
const SHOWN: Uint8Array[] = [];
let explaining = 0;

/**
 * A capture whose landing the sensors did not show: its target was not seen empty since the move
 * before it began, and reads as it did (occupancy cannot tell the capturer from its victim; a
 * colour sensor under a capturer set on top still reads the victim).
 */
function isHidden(pos: Position, m: Move, onTop: boolean, prev: Move | undefined, ctx: Ctx): boolean {
  if (pos.colorAt(m.to) === 0 || ctx.mask.has(m.to)) return false;
  if (victimTaken(m, prev, ctx)) return false;
  return onTop || ctx.sensing === 'occupancy' || !matches(pos.colorAt(m.from), ctx.obs[m.to]!);
}

/**
 * The moves among `moves` (from the confirmed position) that capture where nothing was seen: no
 * victim taken off, the point reading as before. Only those whose piece had another legal way to
 * an empty point that reads empty: had it gone there over a dead sensor, the board would look the
 * same.
 */
function blindCaptures(
  input: ReaderInput,
  moves: readonly Move[],
  ctx: Ctx,
): { blind: Move[]; elsewhere: Move[] } {
  const blind: Move[] = [];
  const elsewhere: Move[] = [];
  const pos = input.base.clone();
  moves.forEach((m, k) => {
    if (pos.colorAt(m.to) !== 0 && isHidden(pos, m, false, moves[k - 1], ctx)) {
      const others = pos
        .legalDestinations(m.from)
        .filter((to) => to !== m.to && pos.colorAt(to) === 0 && (ctx.obs[to] === 0 || ctx.mask.has(to)));
      if (others.length > 0) blind.push(m);
      // (Only the first move's: a later one's point is known only as the record's line goes on.
      // A known dead point is no news: the reader already reads landings there.)
      if (k === 0) for (const to of others) if (!ctx.mask.has(to)) elsewhere.push({ from: m.from, to });
    }
    pos.play(m);
  });
  return { blind, elsewhere };
}

/**
 * A capture nobody saw against the points lit since its piece left: a slide lights every point it
 * passes and a piece carried none, so one lit off its way, or a way lit only in part, tells
 * against it (masters 82, 993, 1087: a chariot slid onto a dead point, one point lit on the way,
 * read as a capture the other way or past it). When exactly one of the other points its piece
 * could have gone to (`elsewhere`, reading empty all along) is told better, with the board
 * otherwise read the same, the piece went there: that one world, its point masked and named.
 */
function toldElsewhere(
  input: ReaderInput,
  moves: readonly Move[],
  elsewhere: readonly Move[],
  ctx: Ctx,
): Verdict | undefined {
  const capture = moves[0];
  if (input.probing || moves.length !== 1 || capture === undefined || elsewhere.length === 0)
    return undefined;
  // (Its victim's point reads the victim still: with colour sensing a capture shows the capturer.)
  if (!matches(input.base.colorAt(capture.to), ctx.obs[capture.to]!)) return undefined;
  const left = departure(capture.from, ctx);
  // (Only points lit since its piece left, before the opponent's hand was at work: master 44, a
  // piece of the reply set down out of place beside the capture's origin.)
  const slide = { from: left, to: replyStart(input.base, left, ctx) };
  // (The last point of the way to `to`, when it passes any.)
  const pointBefore = (to: Square): Square | undefined => between(capture.from, to).at(-1);
  const against = offTheWay(moves, ctx.mask, ctx, slide);
  let best: DeadWorld | undefined;
  let bestOff = against;
  let tied = false;
  for (const m of elsewhere) {
    if ((ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY) >= left) continue;
    // (Not when the point before it emptied as a hand was at work beside it: a piece set down
    // there and knocked off, master 187.)
    const end = pointBefore(m.to);
    if (end !== undefined && handBeside(end, capture.from, ctx)) continue;
    const world: DeadWorld = { square: m.to, reads: 'empty', moves: [m] };
    const off = worldOff(world, ctx, slide);
    if (off < bestOff) [best, bestOff, tied] = [world, off, false];
    else if (off === bestOff && best !== undefined) tied = true;
  }
  if (best === undefined || tied) return undefined;
  // (Nor when a point known dead, where landings are read from nothing, is told as well: master
  // 818, a chariot slid onto a dead c5, read as gone on past it.)
  for (const to of input.base.legalDestinations(capture.from))
    if (
      ctx.mask.has(to) &&
      input.base.colorAt(to) === 0 &&
      offTheWay([{ from: capture.from, to }], ctx.mask, ctx, slide) <= bestOff
    )
      return undefined;
  // (Not while the piece taken off the point before it may be a nudge, set down again at once:
  // master 343, a chariot slid to h4 and nudged, read as gone on to h5.)
  const emptied =
    ctx.evidence.changedAt[pointBefore(best.square) ?? capture.from] ?? Number.NEGATIVE_INFINITY;
  if (input.now < emptied + NUDGE_MAX_MS) return waitVerdict(input, emptied + NUDGE_MAX_MS);
  return { kind: 'doubt', worlds: [best] };
}

/** When the opponent of the side to move first took a piece in hand after `after` (infinite: not). */
function replyStart(base: Position, after: number, ctx: Ctx): number {
  let start = Number.POSITIVE_INFINITY;
  for (const [sq, t] of ctx.first)
    if (t > after && base.colorAt(sq) === 3 - base.turnCode) start = Math.min(start, t);
  return start;
}

/** A piece other than `mover`'s, next to `sq`, lifted about when `sq` last changed. */
function handBeside(sq: Square, mover: Square, ctx: Ctx): boolean {
  const changed = ctx.evidence.changedAt[sq];
  if (changed === undefined) return false;
  for (const [other, t] of ctx.first)
    if (other !== mover && near(other, sq) && Math.abs(t - changed) <= KNOCK_AFTER_LIFT_MS) return true;
  return false;
}

/** The capture's target was seen lifted since the move before it (`prev`) began. */
function victimTaken(m: Move, prev: Move | undefined, ctx: Ctx): boolean {
  const taken = ctx.evidence.lifted.get(m.to) ?? retakenAt(m.to, ctx);
  const began = prev ? ctx.first.get(prev.from) : undefined;
  return taken !== undefined && (began === undefined || taken > began);
}

/**
 * The spell in which a move's piece stood on the empty point it went to, since taken off again:
 * it began after the piece left, and lasted until the opponent's hand could take it (rule 10).
 */
function landingSpell(m: Move, ctx: Ctx): Spell | undefined {
  const spells = ctx.evidence.history?.spells(m.to);
  if (spells === undefined || spells.length === 0) return undefined;
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  for (let k = spells.length - 1; k >= 0; k--) {
    const spell = spells[k]!;
    if (spell.from < left) return undefined;
    if (Number.isFinite(spell.to) && spell.to - spell.from >= REPLY_AFTER_LANDING_MS) return spell;
  }
  return undefined;
}

/**
 * When a move's piece, seen set down on an empty point, was seen to leave it again (infinite while
 * it stands there; never, when it was not seen set down).
 */
function stoodUntil(m: Move, ctx: Ctx): number {
  const left = ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY;
  const spell = ctx.evidence.history?.spells(m.to).find((sp) => sp.from > left);
  return spell?.to ?? Number.NEGATIVE_INFINITY;
}

/**
 * An empty point of the confirmed position seen occupied, then empty, and occupied again now: when
 * what stood there first was taken off (a piece set down, then captured there by the reply).
 */
function retakenAt(sq: Square, ctx: Ctx): number | undefined {
  if (ctx.obs[sq] === 0) return undefined;
  const spells = ctx.evidence.history?.spells(sq);
  if (spells === undefined || spells.length < 2) return undefined;
  const last = spells[spells.length - 1]!;
  return Number.isFinite(last.to) ? undefined : spells[spells.length - 2]!.to;
}

/**
 * The soonest a piece may have left its square: its first lift, or, when that was seen only after
 * lost frames, just after the last frame before them.
 */
function departure(sq: Square, ctx: Ctx): number {
  return soonestDeparture(ctx.first, ctx.evidence.departedAfterGap, sq) ?? Number.NEGATIVE_INFINITY;
}

/**
 * When a move's piece landed, as early as the evidence allows: after its piece left, and when its
 * square's reading changed, if that change was the landing. A capture's square may change later
 * for other reasons (its victim taken away from under it, the capturer touched again), so only
 * its departure bounds it.
 */
function landingTime(m: Move, ctx: Ctx): number {
  const left = departure(m.from, ctx);
  if (ctx.obs[m.to] === 0 && !ctx.mask.has(m.to) && !ctx.captures.has(m)) {
    // Set down, then taken off: it landed when its point first read it.
    const spell = landingSpell(m, ctx);
    if (spell !== undefined) return Math.max(left, spell.from);
  }
  if (ctx.mask.has(m.to) || ctx.obs[m.to] === 0 || ctx.captures.has(m)) return left + MIN_CARRY_MS;
  return Math.max(left, ctx.evidence.changedAt[m.to] ?? Number.NEGATIVE_INFINITY);
}

/**
 * The earliest a move's piece can have landed: when its point first read it after it left, or,
 * for a capture (its point may not change), a carry after it left.
 */
function earliestLanding(m: Move, ctx: Ctx): number {
  const left = departure(m.from, ctx);
  if (ctx.captures.has(m) || ctx.mask.has(m.to)) return left + MIN_CARRY_MS;
  const spell = ctx.evidence.history?.spells(m.to).find((sp) => sp.from > left);
  return spell !== undefined ? spell.from : left + MIN_CARRY_MS;
}

/** A slide reaches its next point within this long (a rest on the way is up to 600 ms, rule 11). */
const SLIDE_STEP_MAX_MS = 700;
/**
 * A moment: a piece set down makes its point bounce this long at most (30 ms, frames up to 46 ms
 * after the first seen), and a sliding piece stands on two points at once as long, going on.
 */
const MOMENT_MS = 50;

/** A hand takes at least this long to carry a piece from one point to another and set it down. */
export const MIN_CARRY_MS = 100;

/** The opponent lifts a reply no sooner than this after the mover's piece lands (rule 10). */
const REPLY_AFTER_LANDING_MS = 50;

/** A hand knocks a neighbour while its own piece is in the air, or just after setting it down. */
const KNOCK_AFTER_LANDING_MS = 300;

/**
 * Points passed over in a row from a lifted piece's square, two or more, now all empty: a piece
 * slid that way at least that far (a flicker rarely lines up so).
 */
function slideTrails(input: ReaderInput, obs: Uint8Array): Trail[] {
  const visited = input.evidence.visited;
  if (visited === undefined || visited.size < 2) return [];
  const out: Trail[] = [];
  const history = input.evidence.history;
  for (const [from, left] of input.evidence.lifted) {
    for (const [df, dr] of ORTHOGONAL) {
      let reach: Square | undefined;
      let n = 0;
      // A slide passes its points in order, each soon after the one before (it may rest on one,
      // rule 11): flickers here and there along a line are no trail.
      let at = left;
      for (
        let sq = squareAt(squareFile(from) + df, squareRank(from) + dr);
        sq !== undefined && visited.has(sq) && obs[sq] === 0 && !input.mask.has(sq);
        sq = squareAt(squareFile(sq) + df, squareRank(sq) + dr)
      ) {
        const seen = history?.firstVisit(sq);
        if (seen !== undefined && (seen < at || seen > at + SLIDE_STEP_MAX_MS)) break;
        if (seen !== undefined) at = seen;
        reach = sq;
        n++;
      }
      if (reach !== undefined && n >= 2) out.push({ from, reach, df, dr });
    }
  }
  return out;
}

/**
 * Where a slide whose trail no fit travels went: the point just past the trail's reach, reading
 * empty, where the mover's piece may go. Taken when it is the only one, and the board, that
 * point masked, is read as a move landing there.
 */
function trailEnd(input: ReaderInput, ctx: Ctx): Square | undefined {
  if (input.probing) return undefined;
  const side = input.base.turnCode;
  const ends = new Set<Square>();
  for (const t of ctx.trails) {
    if (input.base.colorAt(t.from) !== side) continue;
    const next = squareAt(squareFile(t.reach) + t.df, squareRank(t.reach) + t.dr);
    if (next === undefined || ctx.obs[next] !== 0 || ctx.mask.has(next) || input.base.colorAt(next) !== 0)
      continue;
    if (input.base.legalDestinations(t.from).includes(next)) ends.add(next);
  }
  if (ends.size !== 1) return undefined;
  const [sq] = ends as unknown as [Square];
  const v = probe(input, ctx, sq);
  return v.kind === 'commit' && v.moves.some((m) => m.to === sq) ? sq : undefined;
}

/** Does the move go from the trail's start along it at least as far as it reaches? */
const travels = (m: Move, t: Trail): boolean =>
  m.from === t.from &&
  heading(m.from, m.to) === heading(t.from, t.reach) &&
  apart(m.from, m.to) >= apart(t.from, t.reach);

/**
 * Could a hand at work have knocked the piece on `sq`? It left while a neighbouring piece was
 * in the air: the last move's, a move's of the line, or one the side to move holds.
 */
function byHand(input: ReaderInput, e: Explanation, sq: Square, ctx: Ctx): boolean {
  const { first } = ctx;
  const left = first.get(sq);
  if (left === undefined) return false;
  // (The moved pieces themselves are not knocked neighbours. The last move's, once the opponent is
  // at work and the move can no longer be revised, may be: if it left as a hand began to work.)
  const last = input.previous?.move;
  if (e.line.some((m) => m.to === sq)) return false;
  const justMoved = sq === last?.to;
  if (justMoved && input.revisable && !moverLifted(input.base, first, input.observed, input.landedAt))
    return false;
  const inTime = (began: number): boolean =>
    left >= began && (!justMoved || left - began <= KNOCK_AFTER_LIFT_MS);
  if (!justMoved && knockedByLast(sq, ctx)) return true;
  for (const m of e.line) {
    const began = first.get(m.from);
    if (began !== undefined && inTime(began) && (near(sq, m.from) || near(sq, m.to))) return true;
  }
  // (A held piece's hand may have knocked it where the piece was going as well as where it was.)
  return e.hand.some((h) => {
    const began = first.get(h);
    if (h === sq || e.strayAt.indexOf(h) >= 0 || began === undefined || !inTime(began)) return false;
    return near(sq, h) || (left - began <= KNOCK_AFTER_LIFT_MS && heldNear(input, e, h, sq));
  });
}

/** Could the piece held from `h` be going next to `sq`? */
function heldNear(input: ReaderInput, e: Explanation, h: Square, sq: Square): boolean {
  const pos = (e.revision ? input.previous!.position : input.base).clone();
  for (const m of e.line) pos.play(m);
  return pos.legalDestinations(h).some((to) => near(sq, to));
}

/**
 * A capture's victim that left within a carry of its capturer leaving was knocked aside by the
 * hand that lifted the capturer, not taken off by it: a hand lifts one piece, then the other.
 */
function knockedAside(m: Move, sq: Square, ctx: Ctx): boolean {
  if (m.to !== sq || !ctx.captures.has(m) || !near(m.from, sq)) return false;
  const capturer = ctx.first.get(m.from);
  const victim = ctx.first.get(sq);
  if (capturer === undefined || victim === undefined) return false;
  // Seen gone only after lost frames, a piece may have left any time in the gap: only an order and
  // a nearness the whole gap allows tell a knock (two pieces gone in one gap tell nothing).
  return departure(sq, ctx) >= capturer && victim - departure(m.from, ctx) < MIN_CARRY_MS;
}

/** A hand knocks a neighbour while it lifts its own piece or just after. */
const KNOCK_AFTER_LIFT_MS = 300;
/** How long a hand may still hold its own piece after putting a knocked one back. */
const KNOCK_HOLD_MS = 2000;

/**
 * A capture read from its victim's square emptied and filled again, the victim leaving within a
 * knock of its capturer: the same readings fit a knocked neighbour put back while the capturer is
 * still in the hand. Unless the opponent acts or the mover presses the clock, the capture waits a
 * while (KNOCK_HOLD_MS), then is recorded (the likelier story, and a later landing elsewhere revises
 * it) but in doubt, saying so.
 */
function knockDoubt(
  input: ReaderInput,
  moves: readonly Move[],
  considered: readonly Explanation[],
  fits: readonly Explanation[],
  ctx: Ctx,
): boolean {
  if (moves.length !== 1) return false;
  const m = moves[0]!;
  if (!ctx.captures.has(m) || ctx.mask.has(m.to)) return false;
  // The hand passes next to the victim: it stands next to the capturer or to another place it may go.
  const others = input.base.legalDestinations(m.from).filter((to) => to !== m.to);
  if (!near(m.from, m.to) && !others.some((to) => near(to, m.to))) return false;
  const capturer = ctx.first.get(m.from);
  const victim = ctx.first.get(m.to);
  if (capturer === undefined || victim === undefined || victim < capturer) return false;
  if (victim - capturer >= KNOCK_AFTER_LIFT_MS) return false;
  if (input.evidence.buttonBy === input.base.turn) return false;
  // The story: nothing played yet, the capturer in the hand.
  if (!considered.some((e) => !e.revision && e.line.length === 0 && e.hand.includes(m.from))) return false;
  // The opponent at work: the capture is over.
  const pos = input.base.clone();
  pos.play(m);
  const next = pos.turnCode;
  if (fits.some((e) => e.hand.some((sq) => sq !== m.to && pos.colorAt(sq) === next))) return false;
  return true;
}

/**
 * The only sign that a capture nobody saw is over is the opponent's hand, and every piece it holds
 * left next to the capturer's way (where it was, where the line puts it, or an empty point it could
 * have gone to instead) while the capturer was still in the air or just down: the hand that carried
 * the capturer may have knocked it.
 */
function replyMayBeKnock(input: ReaderInput, e: Explanation, ctx: Ctx): boolean {
  // The opponent's pieces that say the capture is over: those in the hand, or (none there) the
  // piece of a reply nobody saw land either (a capture back, read from a piece that left alone).
  const reply = e.line[e.line.length - 1]!;
  const replyMoved =
    e.hand.length === 0 &&
    e.line.length > 1 &&
    (ctx.evidence.changedAt[reply.to] ?? Number.NEGATIVE_INFINITY) <
      (ctx.first.get(reply.from) ?? Number.NEGATIVE_INFINITY);
  const line = replyMoved ? e.line.slice(0, -1) : e.line;
  const replies = replyMoved ? [reply.from] : e.hand;
  const last = line[line.length - 1]!;
  const began = ctx.first.get(last.from);
  if (began === undefined || replies.length === 0) return false;
  // (The capturer set back and lifted again: the hand is at work next to it again from then.)
  const again = input.evidence.lifted.get(last.from) ?? began;
  let instead: Square[] | undefined;
  const insteadNear = (h: Square): boolean => {
    if (instead === undefined) {
      const pos = beforeLast(e.revision ? input.previous!.position : input.base, line);
      instead = pos.legalDestinations(last.from).filter((to) => pos.colorAt(to) === 0 && ctx.obs[to] === 0);
    }
    return instead.some((to) => near(h, to));
  };
  return replies.every((h) => {
    const left = ctx.first.get(h);
    const within = (from: number): boolean => left! - from <= MIN_CARRY_MS + KNOCK_AFTER_LANDING_MS;
    return (
      left !== undefined &&
      (within(began) || (left >= again && within(again))) &&
      (near(h, last.from) || near(h, last.to) || insteadNear(h))
    );
  });
}

/**
 * Did the piece on `sq` leave while the hand of one of the line's moves was at work next to it
 * (until just after it landed), or the last confirmed move's?
 */
function knockedByLine(sq: Square, line: readonly Move[], ctx: Ctx): boolean {
  const left = ctx.first.get(sq) ?? ctx.evidence.changedAt[sq] ?? Number.NEGATIVE_INFINITY;
  for (const m of line) {
    // (The piece a move set down, lifted again, is that move's piece going on, not a knocked one.)
    if (m.to === sq || (!near(sq, m.from) && !near(sq, m.to))) continue;
    // (A hand may knock a piece as it reaches for its own: no bound before the lift. Next to where
    // it goes only, the piece the last move set down is not knocked before it has its own in hand.)
    // (When its square last changed, if sooner: a move taken back and read again keeps no lift. A
    // capture's hand is there as soon as it takes the victim off, before its own piece perhaps.)
    const held = Math.min(
      ctx.first.get(m.from) ?? Number.NEGATIVE_INFINITY,
      ctx.evidence.changedAt[m.from] ?? Number.POSITIVE_INFINITY,
      (ctx.captures.has(m) ? ctx.first.get(m.to) : undefined) ?? Number.POSITIVE_INFINITY,
    );
    // (Only for the piece the last move set down: it is that move going on, or taken.)
    if (!near(sq, m.from) && sq === ctx.previous?.move.to && left < held) continue;
    if (left <= landingTime(m, ctx) + KNOCK_AFTER_LANDING_MS) return true;
  }
  return knockedByLast(sq, ctx);
}

/** Did the piece on `sq` leave next to the last move, before it landed or just after? */
function knockedByLast(sq: Square, ctx: Ctx): boolean {
  const left = ctx.first.get(sq);
  const last = ctx.previous?.move;
  if (left === undefined || !last || sq === last.to) return false;
  if (ctx.lastCaptured || !(near(sq, last.from) || near(sq, last.to))) return false;
  return left <= (ctx.evidence.changedAt[last.to] ?? 0) + KNOCK_AFTER_LANDING_MS;
}

/** The four steps along a file or a rank. */
const ORTHOGONAL = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/** Which way `to` lies from `from`: the signs of the file and rank steps, as one number. */
const heading = (from: Square, to: Square): number =>
  Math.sign(squareFile(to) - squareFile(from)) + 10 * Math.sign(squareRank(to) - squareRank(from));

/** How many files and ranks apart two points are, together. */
const apart = (a: Square, b: Square): number =>
  Math.abs(squareFile(a) - squareFile(b)) + Math.abs(squareRank(a) - squareRank(b));

/** Do two moves go the same way along one file or rank? */
const sameDirection = (a: Move, b: Move): boolean => heading(a.from, a.to) === heading(b.from, b.to);

const near = (a: Square, b: Square): boolean =>
  Math.abs(squareFile(a) - squareFile(b)) <= 1 && Math.abs(squareRank(a) - squareRank(b)) <= 1;

/**
 * A capturer stands on its victim there, and the sensor still reads the victim (`covered`: by the
 * line's own moves; `ctx.covered`: by confirmed ones).
 */
const isCovered = (pos: Position, ctx: Ctx, covered: readonly Square[], sq: Square): boolean =>
  pos.colorAt(sq) !== 0 && (ctx.covered.has(sq) || covered.includes(sq));
const NONE_COVERED: ReadonlySet<Square> = new Set();

function appearedSquares(pos: Position, ctx: Ctx, covered: readonly Square[]): Square[] {
  const out: Square[] = [];
  for (let sq = 0; sq < 90; sq++) {
    const o = ctx.obs[sq]!;
    if (o !== 0 && ctx.masked[sq] === 0 && !matches(pos.colorAt(sq), o) && !isCovered(pos, ctx, covered, sq))
      out.push(sq);
  }
  return out;
}

/** A near fit with nobody's piece astray but one set down where the line has none: a misplacement. */
const strayless = (e: Explanation, obs: Uint8Array): boolean =>
  e.strays === 0 && !e.revision && e.bad !== undefined && obs[e.bad] !== 0;

/**
 * Checks the board against `pos` (after `root`'s moves, then `path`'s) with pieces in the hand, and
 * records the explanation. (The line is put together only for a board that fits.)
 */
function add(
  pos: Position,
  root: Move[],
  hidden: number,
  revision: boolean,
  ctx: Ctx,
  out: Explanation[],
  covered: readonly Square[] = [],
  path: readonly Move[] = [],
): void {
  const { obs, mask, masked: maskedAt, now, timing } = ctx;
  const hand: Square[] = [];
  let bad: Square | undefined;
  let nbad = 0;
  for (let sq = 0; sq < 90; sq++) {
    if (maskedAt[sq] === 1) continue;
    const c = pos.colorAt(sq);
    const o = obs[sq]!;
    if (matches(c, o) || (o !== 0 && isCovered(pos, ctx, covered, sq))) continue;
    if (o !== 0 || c === 0) {
      bad = sq;
      if (++nbad > 1) return;
    } else hand.push(sq);
  }
  if (hand.length > 4) return;
  const line = path.length === 0 ? root : [...root, ...path];
  // Who could be holding these? The next mover: one of its own pieces and one it can capture.
  const side = pos.turnCode;
  let ownAt: Square | undefined;
  let takenAt: Square | undefined;
  // (The mover's legal moves, generated once when needed.)
  let legal: Move[] | undefined;
  let expires = Number.POSITIVE_INFINITY;
  let strays = 0;
  let overdue = false;
  const strayAt: Square[] = [];
  // The next mover takes a piece in hand only after the line's last move landed.
  // (It landed after its piece left, whether or not its landing changed the reading.)
  // (A capture's landing is known only as a carry after its piece left: its reply comes at least
  // REPLY_AFTER_LANDING_MS after that.)
  const last = line[line.length - 1];
  const landed = last
    ? landingTime(last, ctx) + (ctx.captures.has(last) ? REPLY_AFTER_LANDING_MS : 0)
    : Number.NEGATIVE_INFINITY;
  // The next mover's piece is the one that left first: a piece that left after it was knocked.
  // (Unless the first left as the last move's hand worked next to it: that hand knocked it.)
  if (hand.length > 1) {
    const leftAt = (sq: Square) => ctx.first.get(sq) ?? Number.POSITIVE_INFINITY;
    const knocked = (sq: Square) => (line.length === 0 && knockedByLast(sq, ctx) ? 1 : 0);
    hand.sort((a, b) => knocked(a) - knocked(b) || leftAt(a) - leftAt(b));
  }
  // A piece of the opponent's taken up while the mover holds a piece of its own that cannot
  // capture it is no capture in progress that can last: believed a stray's while, as a stray is
  // (but no stray: a story of a capture nobody saw is no better for it).
  const captures = (from: Square, to: Square): boolean => {
    legal ??= pos.legalMoves();
    return legal.some((m) => m.from === from && m.to === to);
  };
  /** A piece believed off for a stray's while; false: a second point is wrong. */
  const offAWhile = (sq: Square): boolean => {
    const until = (ctx.evidence.changedAt[sq] ?? 0) + timing.strayMs;
    if (until > now) {
      expires = Math.min(expires, until);
      return true;
    }
    bad = sq;
    overdue = true;
    return ++nbad <= 1;
  };
  for (const sq of hand) {
    const early = (ctx.evidence.changedAt[sq] ?? 0) < landed;
    if (!early && pos.colorAt(sq) === side && ownAt === undefined) {
      ownAt = sq;
      if (takenAt !== undefined && !captures(sq, takenAt) && !offAWhile(takenAt)) return;
      continue;
    }
    if (!early && pos.colorAt(sq) !== side && takenAt === undefined) {
      legal ??= pos.legalMoves();
      if (legal.some((m) => m.to === sq)) {
        takenAt = sq;
        if (ownAt !== undefined && !captures(ownAt, sq) && !offAWhile(sq)) return;
        continue;
      }
    }
    // A stray: knocked, adjusted, straightened. Believed only for a while; one that left while
    // the last move's piece was in the air must have been knocked by a hand at work next to it.
    if (early && !knockedByLine(sq, line, ctx)) {
      bad = sq;
      if (++nbad > 1) return;
      continue;
    }
    strays++;
    strayAt.push(sq);
    if (!offAWhile(sq)) return;
  }
  // A square lifted and filled again is the doing of a move of the line that touches it, and
  // that move was under way then: after the move before it began, before the next move's piece
  // was lifted.
  let unexplained = 0;
  const lifted = ctx.evidence.lifted;
  const { first } = ctx;
  for (const sq of ctx.refilled) {
    const at = lifted.get(sq)!;
    let ok = false;
    for (let k = 0; k < line.length && !ok; k++) {
      const m = line[k]!;
      if (m.from !== sq && m.to !== sq) continue;
      const next = line[k + 1];
      const prev = line[k - 1];
      ok =
        (next === undefined || at < (lifted.get(next.from) ?? Number.POSITIVE_INFINITY)) &&
        (prev === undefined || at > (first.get(prev.from) ?? Number.NEGATIVE_INFINITY)) &&
        !knockedAside(m, sq, ctx);
    }
    if (!ok) unexplained++;
  }
  // A slide's trail that no move of the line travels: the piece went somewhere the line does not say.
  let offTrail = 0;
  for (const trail of ctx.trails) if (!line.some((m) => travels(m, trail))) offTrail++;
  let masked = 0;
  for (const m of line) if (mask.has(m.to) || ctx.sightless.has(m)) masked++;
  out.push({
    line,
    revision,
    unexplained,
    offTrail,
    strays,
    strayAt,
    hidden,
    hand,
    expires,
    bad,
    overdue,
    masked,
  });
}

/** A single piece displaced where it may not legally go (judged against each root). */
function findIllegal(
  roots: readonly { readonly line: Move[]; readonly pos: Position }[],
  ctx: Ctx,
): Displacement | undefined {
  for (const { line, pos } of roots) {
    const diff: Square[] = [];
    for (let sq = 0; sq < 90 && diff.length <= 2; sq++) {
      if (!ctx.mask.has(sq) && !matches(pos.colorAt(sq), ctx.obs[sq]!)) diff.push(sq);
    }
    if (diff.length !== 2) continue;
    const [a, b] = diff as [Square, Square];
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const piece = pos.colorAt(from);
      if (ctx.obs[from] !== 0 || piece === 0) continue;
      const o = ctx.obs[to]!;
      if (o === 0) continue;
      if (ctx.sensing === 'occupancy' ? pos.colorAt(to) !== 0 : o !== piece || pos.colorAt(to) === piece)
        continue;
      if (!pos.isLegal({ from, to })) return { from, to, after: line };
    }
  }
  return undefined;
}

/**
 * The mover's piece set down where it may not go, when every fit instead has it land unseen and
 * the opponent's reply leave a dead sensor's point for that very point: undefined otherwise.
 */
function placedNotReplied(
  roots: readonly { readonly line: Move[]; readonly pos: Position }[],
  fits: readonly Explanation[],
  ctx: Ctx,
): Displacement | undefined {
  const unseenTwice = (e: Explanation): boolean => {
    const reply = e.line[1];
    return (
      !e.revision && e.line.length === 2 && e.hidden > 0 && reply !== undefined && ctx.mask.has(reply.from)
    );
  };
  if (!fits.every(unseenTwice)) return undefined;
  const illegal = findIllegal(roots.slice(0, 1), ctx);
  return illegal !== undefined && fits.every((e) => e.line[1]!.to === illegal.to) ? illegal : undefined;
}

/**
 * A piece set down where it may not go while another is still in the hand: the board as a line
 * leaves it, but for one square that reads a piece the last piece lifted could have been carried to.
 */
function displaced(input: ReaderInput, nearFits: readonly Explanation[], ctx: Ctx): Displacement | undefined {
  for (const e of nearFits) {
    const to = e.bad!;
    const o = ctx.obs[to]!;
    if (o === 0 || e.revision || e.hand.length > 2) continue;
    const pos = input.base.clone();
    for (const m of e.line) pos.play(m);
    if (pos.colorAt(to) !== 0) continue;
    const side = pos.turnCode;
    // The side to move's own piece first: that is who is moving.
    const hands = [...e.hand].sort(
      (a, b) => (pos.colorAt(b) === side ? 1 : 0) - (pos.colorAt(a) === side ? 1 : 0),
    );
    for (const from of hands) {
      if (!matches(pos.colorAt(from), o)) continue;
      if (!pos.isLegal({ from, to })) return { from, to, after: e.line };
    }
  }
  return undefined;
}

/** Squares of the confirmed position that read empty now. */
function liftedNow(input: ReaderInput): Square[] {
  const out: Square[] = [];
  for (let sq = 0; sq < 90; sq++) {
    if (input.base.colorAt(sq) !== 0 && input.observed[sq] === '.' && !input.mask.has(sq)) out.push(sq);
  }
  return out;
}

function dedupe(lines: Move[][]): Move[][] {
  const seen = new Set<string>();
  const out: Move[][] = [];
  for (const l of lines) {
    const key = l.map((m) => `${m.from}-${m.to}`).join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out;
}

/** When a sliding move that ends the game may be recorded: its landing still for a slide's step. */
function endingSlideHold(input: ReaderInput, base: Position, moves: readonly Move[]): number | undefined {
  if (!isExtendable(base, moves)) return undefined;
  const pos = base.clone();
  for (const m of moves) pos.play(m);
  if (pos.hasLegalMove()) return undefined;
  const landed = input.evidence.changedAt[moves[moves.length - 1]!.to] ?? input.now;
  return landed + SLIDE_STEP_MAX_MS;
}

/**
 * Could the last piece moved still be travelling? Only a chariot or cannon that did not capture,
 * with a legal stop further along the same line (a slide passes over its path).
 */
export function isExtendable(base: Position, moves: readonly Move[]): boolean {
  if (moves.length === 0) return false;
  const pos = beforeLast(base, moves);
  const last = moves[moves.length - 1]!;
  if (!pos.isSlider(last.from) || pos.colorAt(last.to) !== 0) return false;
  // (A slide is along a file or a rank: the same heading keeps to it.)
  const way = heading(last.from, last.to);
  return pos.legalDestinations(last.from).some((to) => to !== last.to && heading(last.to, to) === way);
}

/** The position the last of `moves` was played from (`base` itself for a single move). */
function beforeLast(base: Position, moves: readonly Move[]): Position {
  if (moves.length <= 1) return base;
  const pos = base.clone();
  for (let k = 0; k < moves.length - 1; k++) pos.play(moves[k]!);
  return pos;
}

/** Do two lines part somewhere (neither is the other's beginning)? */
function parts(a: readonly Move[], b: readonly Move[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) if (a[k]!.from !== b[k]!.from || a[k]!.to !== b[k]!.to) return true;
  return false;
}

/** Common prefix of several lines (the moves every explanation agrees on). */
export function commonPrefix(lines: readonly (readonly Move[])[]): Move[] {
  if (lines.length === 0) return [];
  const first = lines[0]!;
  let n = first.length;
  for (const l of lines) {
    let k = 0;
    while (k < n && k < l.length && l[k]!.from === first[k]!.from && l[k]!.to === first[k]!.to) k++;
    n = k;
  }
  return first.slice(0, n);
}
