/**
 * The move reader on real play (rules 10–16 of the sensor-log spec, issue 13): a sample of master
 * and random games per condition, both sensing kinds, each game classified as exact, wrong with an
 * alert in time, or wrong without one (silent). `npm run real-play` gives the whole table.
 */
import { describe, expect, it } from 'vitest';
import { makeIccs, parseSquare } from '../../src/rules/index.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import { type PhysicalOptions, physicalPlay } from '../../src/simulation/physical-play.js';
import {
  CONDITIONS,
  type Condition,
  choiceActions,
  formatTable,
  type GameSpec,
  type JudgedGame,
  judgeGame,
  judgeRow,
  REACTION_MS,
  type RowResult,
  randomGames,
  sample,
} from '../../src/simulation/real-play-judge.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import { expectAlertedThenRight, liuDahuaGames, positionOf } from './physical-support.js';

/** Games per condition, set and sensing kind (the file stays under a minute on one core). */
const GAMES = 20;
const SEED = 1;

const sets: [string, () => GameSpec[]][] = [
  [
    'master',
    () =>
      sample(
        liuDahuaGames().map((g, i) => ({
          label: `master ${i + 1}`,
          start: positionOf(g.fen),
          moves: g.moves.map((m) => m.move),
        })),
        GAMES,
        SEED,
      ),
  ],
  ['random', () => randomGames(GAMES, SEED)],
];

/**
 * Exact in at least 95 % of games (issue 13). Knocked neighbours are not yet (93–100 % of 60-game rows
 * at seeds 1 and 2, and below 19 of 20 in some cells of this sample).
 */
const MOSTLY_EXACT = new Set([
  'fast_pace',
  'fast_reply',
  'hesitate',
  'lost_frames',
  'adjust',
  'dead_unused_start',
]);

/**
 * Rows where a wrong record without an alert in time still happens now and then. None on this
 * sample, nor in the 60-game tables of `npm run real-play` at seeds 1 and 3 (the last one, at seed
 * 3, a takeback whose settled board a lost frame hid, is read since the link says frames were
 * lost). A row goes here, with the reason, only while it is being worked on and its sample here
 * shows it.
 */
const SILENT_OPEN = new Set<string>();

function explain(row: RowResult): string {
  const lines = row.failures.slice(0, 6).map((f) => {
    const e = f.firstEpisode;
    const at = e
      ? `from ${e.start} ms${e.end === undefined ? ' to the end' : ` to ${e.end} ms`}, ply ${e.ply}: reader ${JSON.stringify(e.reader)}, game ${JSON.stringify(e.game)}${e.alert ? `, alert ${e.alert.kind} at ${e.alert.t}` : ''}`
      : 'no episode';
    const dead = f.dead ? `, dead ${f.dead.square} named ${f.dead.named}` : '';
    return `  ${f.label} seed ${f.options.seed}: ${f.kind}, ${at}${dead}${f.gameStarted ? '' : ', never started'}`;
  });
  const more = row.failures.length > 6 ? `\n  … ${row.failures.length - 6} more` : '';
  return `\n${formatTable([row])}\n${lines.join('\n')}${more}\n`;
}

function check(condition: Condition, row: RowResult): void {
  const table = explain(row);
  expect(row.games, table).toBeGreaterThan(0);
  const exactAtLeast = (share: number) =>
    expect(row.exact, `exact in at least ${share * 100} % of games${table}`).toBeGreaterThanOrEqual(
      Math.ceil(share * row.games),
    );
  // Every game starts, a dead square or not.
  expect(row.notStarted, `games that never started${table}`).toBe(0);
  if (!SILENT_OPEN.has(condition.id)) expect(row.silent, `wrong without an alert in time${table}`).toBe(0);
  // What the reader cannot tell is said once while it stands, not again at every frame.
  expect(row.repeatedAlerts, `ambiguous alerts said twice${table}`).toBe(0);
  if (condition.id === 'model') exactAtLeast(1);
  if (MOSTLY_EXACT.has(condition.id)) exactAtLeast(0.95);
  if (condition.id === 'late_removal' && row.sensing === 'colour') exactAtLeast(0.95);
}

describe.each(sets)('real play, %s games', (_, load) => {
  const games = load();
  describe.each(['occupancy', 'colour'] as Sensing[])('sensing %s', (sensing) => {
    it.each(CONDITIONS.map((c) => [c.id, c] as const))('%s', (_, condition) => {
      const row = judgeRow(condition, games, sensing, SEED);
      console.log(`${formatTable([row]).split('\n').at(-1)}`);
      check(condition, row);
    });
  });
});

describe('games the whole tables found wrong without an alert', () => {
  it('random 1/121: a chariot resting 400 ms on a point that mates, then going on, is the move it makes', () => {
    const game = randomGames(122, 1)[121]!;
    const judged = judgeGame(game, played('occupancy', 2085082722, false, false, { hesitate: 1 }));
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.filter((e) => e.type === 'gameOver')).toEqual([]);
  });

  it("random 1/66: a takeback is read though a piece the taken-back move's hand knocked is still off", () => {
    // Red's chariot h7 → f7 knocks Black's i6 off; Red takes the move back while i6 is still off: the
    // board read as Red's chariot set down on h7 out of turn as well, the takeback waited for i6 and
    // was never read (the move was played again 2.9 s later).
    const game = randomGames(67, 1)[66]!;
    const judged = judgeGame(
      game,
      played('colour', 2666314164, false, true, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    );
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.some((e) => e.type === 'retract' && e.ply === 79)).toBe(true);
  });

  it("random 1/222: a slide whose piece vanishes past its trail, the mover's clock pressed, landed on a dead point", () => {
    // d6 reads empty; Black's chariot slides d3 → d6, seen on d4 and d5 on its way, and Black
    // presses its clock 91 ms after d5 reads empty, before any frame shows the board again. The
    // settle read it as d3d5 with the chariot lifted again, and nothing said so until Red's reply
    // landed 3.2 s later. The press says the piece is down: not on d5. Once a frame after the press
    // shows the board (Red lifting b4), it is on the trail's next point.
    const game = randomGames(223, 1)[222]!;
    const judged = judgeGame(
      game,
      played('colour', 3712390958, false, true, {
        dead: { square: parseSquare('d6')!, reads: 'empty', fromPly: 32 },
      }),
    );
    expect(judged.classification.kind).toBe('exact');
    const fault = judged.emitted.find((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault');
    expect(fault?.type === 'alert' && [fault.alert.square, fault.t]).toEqual(['d6', 76566]);
  });

  it("master 380: the mover's piece held 2 s while the opponent's knocked piece is off is only held", () => {
    // Knocked and adjusted pieces, colour: Red's horse off a6, Black's a7 knocked off by the hand
    // that lifted it. A piece held that long with the opponent's off is taken for a landing no
    // sensor read only once the opponent's may no longer be a stray (2.5 s): a doubt over dead
    // points asked at 2 s outlived a7 set back, and the reply was read only 2.4 s late.
    const judged = judgeGame(
      masterGame(380),
      played('colour', 2666629981, false, false, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    );
    expect(judged.classification.kind).toBe('exact');
    // (a6 lifted at 48317: no doubt before a7 is set back at 50361.)
    const doubts = judged.emitted.filter(
      (e) => e.type === 'alert' && e.alert.kind === 'ambiguous' && e.t > 48000 && e.t < 52000,
    );
    expect(doubts).toEqual([]);
  });
});

/** Master game `n` as the 1,125-game table played it (its options, from the table's failures). */
function masterGame(n: number): GameSpec {
  const g = liuDahuaGames()[n - 1]!;
  return { label: `master ${n}`, start: positionOf(g.fen), moves: g.moves.map((m) => m.move) };
}
/** How the table played a game: its sensing, seed, setup, clock buttons and real-play handling. */
const played = (
  sensing: Sensing,
  seed: number,
  setupFromEmpty: boolean,
  buttons: boolean,
  real: PhysicalOptions['real'],
): PhysicalOptions => ({ sensing, seed, setupFromEmpty, buttons, real });

describe('slides (random games as the 300-game tables, seed 1, played them)', () => {
  it('random 1/111: a slide seen to where it stops is read though a neighbour it knocked is still off', () => {
    // Black's chariot slides f4 → f8 (f5, f6, f7 seen in turn) and knocks f9 off beside its landing.
    // A piece set down on f8 where it may not go, with f9 held, fitted as well: the move waited for
    // f9 to come back, and was read only with Red's next move 1.1 s later.
    const game = randomGames(112, 1)[111]!;
    const judged = judgeGame(game, played('occupancy', 1920428097, false, false, { knock: 0.05 }));
    expect(judged.classification.kind).toBe('exact');
    const f4f8 = judged.emitted.find((e) => e.type === 'move' && e.ply === 44);
    const redLanding = judged.truth.find((e) => e.kind === 'move' && e.ply === 45)!;
    expect(f4f8?.t).toBeLessThan(redLanding.t);
  });

  it('master 534: a slide taken off its last point 80 ms after it landed there stopped there', () => {
    // Black's chariot slides d7 → d2 and Red takes it off at once to capture it with the advisor
    // (rule 10). Read once as the slide going on past d2 to d1, whose sensor read nothing (a slide
    // passes a point in 120 ms): d1 named dead and d7d1 recorded. The board cannot tell that from
    // a reply until the reply lands, and a fast reply is far likelier than a dead point.
    const judged = judgeGame(masterGame(534), played('occupancy', 221945052, false, false, { fastReply: 1 }));
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault')).toEqual([]);
  });
});

describe('late removal, the colour sensor reading the captured piece until it is taken away', () => {
  const lower = (seed: number, setupFromEmpty: boolean) =>
    played('colour', seed, setupFromEmpty, false, { lateRemoval: 1, lowerReads: true });

  it("master 16: a capture's point turning the capturer's colour is its victim taken away, not its landing", () => {
    // Black's chariot takes on f7 unseen (the sensor reads the red victim), Red lifts its horse, the
    // victim is taken off (f7 shows black), and the chariot goes back to f3 as Black's next move: read
    // as Black taking its capture back, as the horse seemed lifted before the chariot landed.
    const judged = judgeGame(masterGame(16), lower(3568600542, true));
    expect(judged.classification.kind).not.toBe('silent');
    expect(judged.emitted.filter((e) => e.type === 'retract' && e.ply === 38)).toEqual([]);
    const at = (ply: number) => judged.emitted.find((e) => e.type === 'move' && e.ply === ply);
    expect([at(39), at(40)].map((e) => e?.type === 'move' && e.iccs)).toEqual(['d5e3', 'f7f3']);
  });

  it('master 92: a capture nobody saw is read again elsewhere only when that piece is seen to move on', () => {
    // Black's elephant takes on c5 (read red: the victim below), recorded as a capture nobody saw;
    // Red plays b0c2, takes it back and plays it again, while c5 turns black as the victim is pulled
    // out. Read as a sensor reading wrong with the elephant gone to g5 or g9 unseen instead, the
    // elephant never moving since, the doubt broke the record (out of sync two plies on).
    const judged = judgeGame(masterGame(92), lower(3568677226, false));
    expect(judged.classification.kind).toBe('exact');
  });

  it('master 922: a stack touched (its point empty for 14 ms) still has its capturer on top', () => {
    // Black's chariot stands on the red horse it took on h4 (read red). The point flickers empty as the
    // horse is pulled out: read as Red's chariot from h1 taking on h4, until it landed on d1.
    const judged = judgeGame(masterGame(922), lower(3569514696, false));
    expect(judged.classification.kind).not.toBe('silent');
    expect(judged.emitted.filter((e) => e.type === 'move' && e.iccs === 'h1h4')).toEqual([]);
  });

  it('master 428 (occupancy): a move recorded in doubt and then read again elsewhere is said again', () => {
    // Red's chariot takes on g3, set down on its victim. f3g3 is recorded as a capture never seen
    // land, said so; 0.3 s later a piece read on f4 revised it to f3f4 (wrong), and the doubt had
    // ended the moment the revision was first judged, so the record changed without a word. Now
    // the record changed is said, and stands until the record goes past it.
    const judged = judgeGame(
      masterGame(428),
      played('occupancy', 2182716496, false, false, { lateRemoval: 1 }),
    );
    expect(judged.classification.kind).not.toBe('silent');
    const revised = judged.emitted.find((e) => e.type === 'retract' && e.ply === 55)!;
    const said = judged.emitted.filter(
      (e) => e.type === 'alert' && e.alert.kind === 'ambiguous' && e.t > 92000 && e.t <= revised.t,
    );
    expect(said.map((e) => e.type === 'alert' && e.alert.message.slice(0, 38))).toEqual([
      'recorded f3g3, but its piece was never',
      'read again: move 55 is f3f4, not f3g3,',
    ]);
  });
});

describe('knocked pieces', () => {
  it("master 722: a piece knocked 26 ms after the last move landed, put back, is no capture's victim", () => {
    // Black's chariot d8 → c8 knocks e8 off as it lands; Red lifts its horse c7, and e8 is put back:
    // read as the horse taking on e8 (its victim seen off, the capturer set down), retracted only
    // when the horse landed on e6 1.4 s later. No hand answers a move that fast.
    const judged = judgeGame(masterGame(722), played('occupancy', 1921043587, false, false, { knock: 0.05 }));
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.filter((e) => e.type === 'retract' && e.ply === 53)).toEqual([]);
  });
});

describe("knocked pieces: a slide just read, its piece knocked off by the reply's hand, went nowhere", () => {
  it.each([
    // (Red's chariot b6 → b3; Black lifts a3's piece to take it with a7, knocking b3 off 63 ms later.)
    [145, 1920462403, true, false],
    // (Black's chariot h7 → h5; Red's hand reaching for i4 knocks h5 off 107 ms before lifting it.)
    [174, 1920491664, false, true],
  ] as const)(
    'random 1/%i: not read as gone on past its trail onto a dead point',
    (k, seed, setup, buttons) => {
      const game = randomGames(k + 1, 1)[k]!;
      const judged = judgeGame(game, played('colour', seed, setup, buttons, { knock: 0.05 }));
      expect(judged.classification.kind).toBe('exact');
      expect(judged.emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault')).toEqual([]);
    },
  );
});

describe('clock buttons and knocks, as the slide and press readings first misread them', () => {
  it("master 303: a piece taken off the mover's landing after its press is the opponent's capture", () => {
    // Fast pace, colour: Black's chariot c1 → c5, Black presses, and Red's hand takes it off c5 at
    // once to capture it. Read as a press with the chariot off its landing, so as c1e1, a capture
    // nobody saw. The press came 23 ms before the chariot left c5: it was down when pressed.
    const judged = judgeGame(masterGame(303), played('colour', 3794839296, false, true, { fastPace: 1 }));
    expect(judged.classification.kind).toBe('exact');
  });

  it("master 447: a slide's piece knocked by a hand that had just taken up a capture's victim", () => {
    // Knocks and adjusting, colour: Red's chariot i1 → i4; Black takes Red's h2 off to capture it
    // with h3, and the hand knocks i4 off 110 ms later, lifting h3 only 0.4 s after that. Read as
    // the slide gone on to i5, named dead.
    const judged = judgeGame(
      masterGame(447),
      played('colour', 2666697584, false, true, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    );
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault')).toEqual([]);
  });
});

describe('lost frames: a piece seen leaving only after a gap may have left as the gap began', () => {
  it.each([
    // (Red's chariot took on c7 in a gap; Black's chariot, lifted 76 ms after the frame that showed
    // Red's gone, took it back there: no time for Red's to land first, as the frame's time said.)
    [658, 1073340850],
    // (Red's c2 → c5 seen leaving only after a gap, in the frame that showed Black's e7 lifted to take it.)
    [452, 1073132996],
    // (Black's horse takes on b9 in a gap, having flickered on c7 just before it: Red's reply g3 → g4,
    // seen lifted in the same frame, was read as the horse set down on g4 where it may not go.)
    [344, 1073024024],
    // (Red's chariot slid g6 → c6, its landing in a gap: read first as going on to a6, then revised
    // once a frame showed c6; the revision lost when g6 was left, and Black's reply lifted next was
    // read as out of turn.)
    [158, 1072836350],
    // (Black's cannon set down on e3 read 6 ms, then empty, in the last frame before a gap in which
    // Red took it off to capture it: read as a flicker, and the cannon as landing on a dead point.)
    [94, 1072771774],
    // (Red's chariot i2 took on i3, next to it, both pieces seen gone only in the frame after a gap:
    // read as a hand knocking i3 while it lifted i2, the capture left pending to the game's end.)
    [268, 1072947340],
  ])('master %i: the reply is read, not a piece held', (n, seed) => {
    const judged = judgeGame(masterGame(n), played('occupancy', seed, false, false, { lostFrames: 0.02 }));
    expect(judged.classification.kind).toBe('exact');
  });

  it("master 232: the game's last move, a capture its victim's removal lost frames hid, is said", () => {
    // Red's cannon lifted from f1 could take on f8; it did, in a gap, as the game's last move. The
    // board reads the same as the cannon still in the hand, and nobody replies.
    const judged = judgeGame(
      masterGame(232),
      played('occupancy', 1072911016, false, false, { lostFrames: 0.02 }),
    );
    expect(judged.classification.kind).toBe('alerted');
    const said = judged.emitted.findLast((e) => e.type === 'alert' && e.alert.kind === 'ambiguous');
    expect(said && said.type === 'alert' ? said.alert.candidates : undefined).toEqual([['f1f8']]);
  });

  it("master 98: the game's last move, taking a piece whose landing lost frames hid, is said", () => {
    // Red's horse c4 → e5 (its victim taken off first) lands in a gap, and Black's cannon b5 takes
    // it there in the same gap. The frames after show e5 empty, b5 lifted, then e5 filled: read as
    // the horse landing then, b5 knocked by its hand, and Black holding b5. Nobody replies.
    const game = masterGame(98);
    const options = played('occupancy', 1072775810, false, false, { lostFrames: 0.02 });
    const judged = judgeGame(game, options);
    expect(judged.classification.kind).toBe('alerted');
    const said = judged.emitted.findLast((e) => e.type === 'alert' && e.alert.kind === 'ambiguous');
    expect(said?.type === 'alert' && said.alert.candidates).toEqual([['b5e5']]);
    expect(said?.type === 'alert' && said.alert.message).toMatch(
      /^frames from the board were lost while the red horse went from c4 to e5: .* If the black cannon from b5 took it, say so/,
    );
    // Said so (the record corrected from ply 80), the game is recorded as played.
    const play = physicalPlay(game.start, game.moves, options);
    const corrected = runSensorEvents(game.start, play.events, {
      sensing: 'occupancy',
      actions: choiceActions([{ t: said!.t + REACTION_MS, ply: 80, line: ['b5e5'] }]),
    });
    expect(corrected.ok && corrected.value.game.moves.map((m) => makeIccs(m.move))).toEqual(
      game.moves.map(makeIccs),
    );
  });

  it("random 1/186: the mover's clock pressed as a lost frame hid its piece set back on its point", () => {
    // Red's chariot slides h9 → h6 and bounces there: the last frame before a gap reads h6 empty,
    // and Red presses its clock. The press says the piece is down, but no frame since shows where:
    // on h6, the next frame shows, not on the point past the trail (h5) with a dead sensor.
    const game = randomGames(187, 1)[186]!;
    for (const sensing of ['occupancy', 'colour'] as const) {
      const judged = judgeGame(game, played(sensing, 1072865611, false, true, { lostFrames: 0.02 }));
      expect(judged.classification.kind).toBe('exact');
      expect(judged.emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault')).toEqual([]);
    }
  });

  it("master 58: a victim taken off 21 ms after a landing seen only after lost frames is the reply's capture", () => {
    // Red's e1 → e2 lands in a gap (seen at 116000, played at 115616); Black takes its victim off
    // f0 at 116021: sooner than any hand answers after the frame's time, not after the landing's.
    const judged = judgeGame(
      masterGame(58),
      played('occupancy', 1072735450, false, false, { lostFrames: 0.02 }),
    );
    expect(judged.classification.kind).toBe('exact');
  });
});

describe('dead sensors read from a landing or a phantom (master games as the 1,125-game tables, seed 1, played them)', () => {
  /** An occupancy game of the dead-sensor rows (set up from the start position). */
  const dead = (
    square: string,
    reads: 'empty' | 'occupied',
    fromPly: number,
    seed: number,
    buttons: boolean,
    setupFromEmpty = false,
  ) =>
    played('occupancy', seed, setupFromEmpty, buttons, {
      dead: { square: parseSquare(square)!, reads, fromPly },
    });
  const faults = (judged: JudgedGame): string[] =>
    judged.emitted.flatMap((e) =>
      e.type === 'alert' && e.alert.kind === 'sensor_fault' ? [e.alert.square!] : [],
    );

  // The row with a dead square nobody uses from ply 10: each sensor dies as a move lands.
  // - Reading empty under one of Black's pieces, which reads as lifted: Red's reply read as that
  //   piece set down out of turn, the point named 2.5 s after it died, just over a second after
  //   Black's next move, and both moves read that late.
  // - Reading a piece as Black's chariot takes, swapped within one scan: read as the chariot set
  //   down there, off its lines, the placement stood through Red's reply, and both moves were read
  //   only when the board was read again 4 s later. Named once it has held 2 s and, masked, the
  //   board reads as the capture and the reply.
  it.each([
    [33, 'i6', 'empty', 854813217, true],
    [104, 'f9', 'empty', 854884856, false],
    [380, 'd8', 'occupied', 855163340, false],
    [125, 'i1', 'occupied', 854906045, true],
  ] as const)(
    'master %i: a sensor on %s dying to read %s as a move lands is named in time',
    (n, square, reads, seed, buttons) => {
      const judged = judgeGame(masterGame(n), dead(square, reads, 10, seed, buttons));
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)[0]).toBe(square);
    },
  );

  // A point that starts reading a piece as a capture is swapped within one scan, as another piece
  // lands (the reply) or as the mover presses its clock, reads as the capturer set down there, far
  // off its lines. One hand sets no two pieces down at once, far apart, nor one as it presses the
  // clock: it is a phantom, named at once. (The rule held only for a capture of the line landing.)
  // Read as the held piece set down off its lines, the phantom was named only after the game had
  // moved on, and a move was missed.
  it.each([
    [804, 'h4', 'as the reply lands', 855591156, false, false],
    [211, 'b4', 'as the clock is pressed', 854992819, true, true],
    [949, 'a1', 'as the clock is pressed', 855737461, false, true],
    [279, 'h1', 'as the clock is pressed', 855061431, false, true],
  ] as const)(
    'master %i: a phantom on %s %s is no piece set down off its lines',
    (n, square, _when, seed, fromEmpty, buttons) => {
      const options = played('occupancy', seed, fromEmpty, buttons, {
        dead: { square: parseSquare(square)!, reads: 'occupied', fromPly: 10 },
      });
      const judged = judgeGame(masterGame(n), options);
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)[0]).toBe(square);
    },
  );

  // The dual: a point that starts reading empty under a piece within 20 ms of the last move's
  // landing, far from it. No hand takes a piece up as another sets one down far away (a reply is
  // lifted 50 ms after the landing at the soonest, and a hand knocks only next to it): it is a
  // sensor, named at once. Read as that piece taken up (a general, out of turn or set down where it
  // may not go), the next move was read late or not at all.
  it.each([
    [350, 'e9', 855133070],
    [412, 'e0', 855195628],
    [504, 'e0', 855288456],
  ] as const)(
    'master %i: a sensor on %s dying empty as the last move lands is named at once',
    (n, square, seed) => {
      const judged = judgeGame(masterGame(n), dead(square, 'empty', 10, seed, false));
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)[0]).toBe(square);
    },
  );

  it("master 591: a dead point under the mover's piece at the start keeps no evidence of the setup", () => {
    // g0 reads empty under Red's elephant from the start; the board set up from empty. The pieces
    // set up stayed in the evidence as lifted and put back, and Red's cannon lifted from b2 was read
    // at once as taking the horse on b9 ("put back").
    const options = played('occupancy', 3391501302, true, true, {
      dead: { square: parseSquare('g0')!, reads: 'empty', fromPly: 0 },
    });
    const judged = judgeGame(masterGame(591), options);
    expect(judged.classification.kind).toBe('exact');
  });

  it('master 339: a cannon sliding off a point stuck reading it, its doubt asked again mid-slide', () => {
    // h2 reads occupied; the cannon slides h2 → e2, seen at f2 on its way: the first doubt (h2f2,
    // b2f2, no move) was revised as the slide went on, which ended all its worlds, and the doubt
    // was asked again with its candidates numbered afresh. The players' answer to the first alert
    // (h2, its candidate 1) was applied to the second, whose candidate 1 was g0: g0 named dead.
    const options = dead('h2', 'occupied', 0, 3712508002, true);
    const passive = judgeGame(masterGame(339), options);
    expect(passive.classification.deadNamed).toBe(true);
    const chosen = judgeGame(masterGame(339), options, 'choosing');
    expect(chosen.classification.deadNamed).toBe(true);
    expect(faults(chosen)).toEqual(['h2']);
  });

  it('random 1/101: a board read again from the record names the dead point the line it reads needs', () => {
    // a1 reads empty from the start; Red's chariot a0 → a1 is never seen landing, Black's reply
    // reads as that chariot set down out of place. Read again from the record once a point had read
    // the same 2 s, the board was read as Red's b3b5 and Black's b1d1 with a0 dead (the chariot's
    // own point), and the game was lost from there. A point the record may take for dead must have
    // read the same a stray's 2.5 s: a0 left only 2.1 s before.
    const game = randomGames(102, 1)[101]!;
    const judged = judgeGame(game, dead('a1', 'empty', 0, 3712268869, false));
    expect(judged.classification.deadNamed).toBe(true);
    expect(faults(judged)[0]).toBe('a1');
  });

  it("random 1/297: a piece the mover's piece in hand cannot take is no capture in progress that lasts", () => {
    // f7 reads empty. Red's cannon takes f9, swapped within one scan (f9 never changes); Black's
    // chariot slides d7 → f7, seen on e7, and lands unseen. The reader kept "Red still holds its
    // cannon and has taken up the chariot on d7 to capture it", though the cannon cannot take d7,
    // and with no end. Nothing was said until f9 was wrongly named dead 3 s later. Now that story
    // lasts a stray's 2.5 s, so only the capture fits, and its reply is read landing on f7, named
    // dead.
    const game = randomGames(298, 1)[297]!;
    const judged = judgeGame(game, dead('f7', 'empty', 47, 3712466633, false));
    expect(judged.classification.kind).not.toBe('silent');
    expect(faults(judged)[0]).toBe('f7');
    const d7f7 = judged.emitted.find((e) => e.type === 'move' && e.iccs === 'd7f7');
    // (The chariot left d7 at 102195: within a stray's while and a judgement.)
    expect(d7f7?.t).toBeLessThan(102195 + 2600);
  });

  it("master 37: a cannon's slide gone from where it was read stopping, Red's hand at work, went on one point", () => {
    // h3 reads empty; Black's cannon slides h7 → h3, seen on h6, h5 and h4, and read as stopping on
    // h4 (105 ms there) with the piece lifted again. Red lifts its advisor: the move is over, and
    // the cannon is nowhere to be seen. Read as h7h4 until Red's reply was read as the cannon set
    // down out of turn, and h4 named dead.
    const judged = judgeGame(masterGame(37), dead('h3', 'empty', 13, 3712203284, true));
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['h3']);
    const named = judged.emitted.find((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault');
    const revised = judged.emitted.find((e) => e.type === 'move' && e.iccs === 'h7h3');
    // (Named as soon as Red's advisor is seen lifted, 57204; the move read again after it.)
    expect(named!.t).toBeLessThan(57300);
    expect(revised!.t).toBeGreaterThanOrEqual(named!.t);
  });

  it("master 11: a chariot's slide gone past its trail before its clock was pressed does not go on from there later", () => {
    // d8 reads empty from the start; Black's chariot slides a8 → d8, seen on b8 and c8, and c8 reads
    // empty again before Black presses its clock. Red lifts its cannon. Read as a8c8, then Red's
    // cannon and the chariot from c8 each taking a piece nobody saw taken (c8 emptied 650 ms
    // before Red's piece left), and out of sync from there.
    const judged = judgeGame(
      masterGame(11),
      played('occupancy', 3712177050, true, true, {
        dead: { square: parseSquare('d8')!, reads: 'empty', fromPly: 0 },
      }),
    );
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['d8']);
    const named = judged.emitted.find((e) => e.type === 'alert' && e.alert.kind === 'sensor_fault');
    // (Named as Red's cannon is seen lifted, 118005.)
    expect(named!.t).toBeLessThan(118100);
    const moved = judged.emitted.find((e) => e.type === 'move' && e.ply === 58);
    expect(moved?.type === 'move' && moved.iccs).toBe('a8d8');
    // (Nor was a8c8 said to be recorded while the chariot might still go on, 117395: it never was.)
    const said = judged.emitted.filter(
      (e) => e.type === 'alert' && e.alert.message.startsWith('recorded a8c8'),
    );
    expect(said).toEqual([]);
  });

  it("master 4: a piece appearing far off the lines of the mover's piece in hand is a reply from a stuck point", () => {
    // a9 reads occupied from ply 7. Red's soldier g4 takes on g5, swapped within one scan (nobody
    // sees it made), and Black's chariot a9 → d9 is seen only landing. Read as the soldier set down
    // on d9, illegal, and the game lost from there. Masked, any of four black pieces' points reads
    // the board as the capture and a reply to d9: a doubt, which play settles on a9.
    const judged = judgeGame(masterGame(4), dead('a9', 'occupied', 7, 3712169987, false));
    // (Alerted: the moves are published once play has told the worlds apart, the doubt said meanwhile.)
    expectAlertedThenRight(judged);
    expect(judged.classification.deadNamed).toBe(true);
    expect(faults(judged)).toEqual(['a9']);
    const doubt = judged.emitted.find((e) => e.type === 'alert' && e.alert.sensors !== undefined);
    expect(doubt?.type === 'alert' && doubt.alert.sensors).toEqual(expect.arrayContaining(['a9']));
    // (Said as the chariot's landing has settled, 40343: no illegal move.)
    expect(doubt!.t).toBeLessThan(40600);
    const illegal = judged.emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'illegal_move');
    expect(illegal.filter((e) => e.t > 40343 && e.t < 43606)).toEqual([]);
  });

  it("master 19: a doubt's world that reads the next move as illegal, another reading it as played, is over", () => {
    // b1 starts reading a piece just as Black presses its clock: either b1 reads a piece that is
    // not there, or Red's b2 → b1 was made with b2's sensor stuck. Red then plays a0 → b0: illegal
    // in the second world (Red has moved), a move in the first. The second broke only once its
    // illegal move had stood 4 s, and the record waited until then.
    const judged = judgeGame(masterGame(19), dead('b1', 'occupied', 10, 854799091, true));
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['b1']);
    const a0b0 = judged.emitted.find((e) => e.type === 'move' && e.ply === 11);
    expect(a0b0?.type === 'move' && a0b0.iccs).toBe('a0b0');
    // (a0b0 set down at 21640; published, as the real-play table judges it, at once.)
    expect(a0b0!.t).toBeLessThan(21900);
  });

  it("master 1074: a horse landing on a point reading empty, Red's reply set down, is no illegal move", () => {
    // g7 reads empty; Black's horse h9 → g7 is never seen landing, and Red's horse h0 → g2 lands:
    // read as Black's horse set down on g2 (illegal), then g2 named dead, and the game lost from there.
    const judged = judgeGame(masterGame(1074), dead('g7', 'empty', 0, 3713249617, false));
    const doubt = judged.emitted.find((e) => e.type === 'alert' && e.alert.sensors !== undefined);
    expect(doubt?.type === 'alert' && doubt.alert.sensors).toEqual(expect.arrayContaining(['g7']));
    const firstAlert = judged.emitted.find((e) => e.type === 'alert');
    expect(firstAlert).toBe(doubt);
    expect(judged.classification.deadNamed).toBe(true);
    expect(faults(judged)).toEqual(['g7']);
  });

  // Read at once as a landing no sensor saw, or a phantom on one of two points, these lost their
  // games while the rule was first tried (each one kept exact by what its comment says).
  it.each([
    // (A frame lost as a cannon slid b7 → b3 showed it on b4 and b3 at once: not before the board
    // has repeated itself.)
    [4, 'lost frames', played('occupancy', 1072680964, false, false, { lostFrames: 0.02 })],
    // (Black's chariot sliding h6 → h0, a red horse knocked off g0: the chariot seen on h2 on its
    // way is no reply set down: not before the board is still.)
    [291, 'a slide in flight', played('occupancy', 1920608708, true, true, { knock: 0.05 })],
    // (Red's chariot just set down on i2, knocked as Black's lands on i3, is no reply i2 → i3.)
    [650, "the last move's piece", played('occupancy', 1920970939, false, false, { knock: 0.05 })],
    // (Red's cannon h2 → f2 taken back, a black piece knocked meanwhile: f2 → h2 is no reply.)
    [66, 'a takeback', played('colour', 1920381683, true, false, { knock: 0.05 })],
    // (A knocked piece lifted and a capture set down before the reply: a line of three.)
    [526, 'a knocked piece', played('colour', 1920845823, true, false, { knock: 0.05 })],
    // (Black's chariot nudged on b5 as the piece it knocked off c9 is set back, 6 ms apart: one
    // player's two hands, no two pieces set down at once by both players.)
    // (Red's soldier f6 → e6 lands, bouncing, as the piece it knocked off f7 is set back 19 ms
    // later: a hand knocks next to where it works.)
    [
      100,
      'a soldier landing as its knocked neighbour is set back',
      played('occupancy', 1920415989, false, false, { knock: 0.05 }),
    ],
    [
      1063,
      'a chariot nudged as its knocked neighbour is set back',
      played('colour', 2667319128, false, true, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    ],
  ])('master %i: %s is no dead sensor', (n, _what, options) => {
    const judged = judgeGame(masterGame(n), options);
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual([]);
  });

  // A point starting to read a piece 1 ms after a chariot's or cannon's slide landed, where that
  // piece could have gone too: each point, masked, reads a move. The slide was seen come to one of
  // them step by step (the point before it read empty as it filled); the other read a piece at no
  // step of it. That one is the sensor. (Read before as a doubt, or the wrong one named, and in
  // master 300 as a piece set down off its lines once Red lifted a piece: the doubt waited for the
  // board to repeat itself, and a frame since with none lost shows that as well.)
  it.each([
    // (i8 → d8 seen passing h8, g8, f8, e8; h8 reads a piece again 1 ms after d8's landing.)
    [300, 'h8', 855082620, false],
    // (b7 → b5 seen on b6; b4, one point on, reads a piece 1 ms after b5's landing.)
    [429, 'b4', 855212781, true],
    // (h9 → h5 passing h8, h7, h6 each quicker than a bounce; h8 reads a piece again.)
    [59, 'h8', 854839451, true],
  ] as const)(
    'master %i: a phantom on %s beside a slide seen to its end is the sensor',
    (n, square, seed, buttons) => {
      const judged = judgeGame(masterGame(n), dead(square, 'occupied', 10, seed, buttons));
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)).toEqual([square]);
    },
  );

  // A capture's landing, and 1 ms later, far from it, a point where the capturer could have gone
  // starting to read a piece. Read as the capturer gone there instead, the capture's victim put back
  // at the same moment, and recorded in doubt: two pieces set down at once, far apart, which no
  // hand (nor two) does. The record was wrong from there on in master 782 (d5 never named; Red's g2
  // named dead when its horse took on h0).
  it.each([
    // (Red's cannon takes on e6; d2, one of its points, reads a piece 1 ms after it lands.)
    [134, 'd2', 5, 3712301157],
    // (Black's cannon takes on h0; d5, on its way, reads a piece 1 ms after it lands.)
    [782, 'd5', 10, 855568958],
  ] as const)(
    'master %i: a phantom on %s as a capture lands far from it is named at once',
    (n, square, ply, seed) => {
      const judged = judgeGame(masterGame(n), dead(square, 'occupied', ply, seed, false));
      const first = judged.emitted.find(
        (e) => e.type === 'alert' && (e.alert.kind === 'sensor_fault' || e.alert.kind === 'ambiguous'),
      );
      expect(first?.type === 'alert' && first.alert.kind).toBe('sensor_fault');
      expect(first?.type === 'alert' && first.alert.square).toBe(square);
      // (Named as the capture is read: no move recorded in doubt before.)
      const doubts = judged.emitted.filter(
        (e) => e.type === 'alert' && e.alert.kind === 'ambiguous' && e.t < first!.t,
      );
      expect(doubts).toEqual([]);
      if (n === 782) expect(judged.classification.kind).toBe('exact');
    },
  );

  it("master 77: a piece of the last mover's off since its move was under way may have made it: a doubt, not a wrong record", () => {
    // c0 (Red's elephant, never moved) dies empty 1 ms after Black presses its clock; Red then slides
    // its cannon b2 → a2. Read as the elephant c0 → a2 (it left first) with the cannon knocked off
    // beside the landing; when the cannon never came back, b2 was named dead, and the record kept
    // the elephant on a2 to the end. Either point may be the dead one: a doubt over the two, which
    // play ends (the cannon moving on from a2 as a cannon), the move put right and c0 named.
    const judged = judgeGame(masterGame(77), dead('c0', 'empty', 10, 854857613, true));
    const doubt = judged.emitted.find((e) => e.type === 'alert' && e.alert.sensors !== undefined);
    expect(doubt?.type === 'alert' && doubt.alert.sensors).toEqual(['b2', 'c0']);
    expect(faults(judged)).toEqual(['c0']);
    expectAlertedThenRight(judged);
  });

  // A piece that never moves stands on a point reading empty, its sensor known dead. The mover lifts
  // a chariot or cannon and sets it down, out of its lines, on a point that piece could step to,
  // then puts it right. Read as a capture nobody saw and the opponent's reply from the dead point
  // (two moves nothing showed), both were recorded, with an alert, and the record ran on wrong; in
  // master 431, 28 plies short at the end. It is the placement the board shows: said, and the move
  // read when it is put right.
  it.each([
    [431, 'i6', 'a cannon set down beside a dead soldier', 0, 3391339862, true, true],
    [939, 'e0', "a chariot set down beside a dead general's point", 0, 3391852434, false, true],
    [834, 'a6', 'a chariot set down beside a dead soldier', 10, 855621426, false, false],
  ] as const)(
    'master %i (%s dead): %s is a placement put right, not a capture nobody saw and a reply',
    (n, square, _what, fromPly, seed, fromEmpty, buttons) => {
      const judged = judgeGame(masterGame(n), dead(square, 'empty', fromPly, seed, buttons, fromEmpty));
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)[0]).toBe(square);
      expect(judged.emitted.some((e) => e.type === 'alert' && e.alert.kind === 'illegal_move')).toBe(true);
    },
  );

  it('master 14: a capture recorded in doubt whose rival took on a dead point is put right when that piece slides off it', () => {
    // a8 reads empty from ply 7. Black's horse c7a8 (ply 54) is one world of a doubt; in it, Red's
    // chariot d8 takes the horse on a8 (ply 63), recorded as a capture nobody saw on e8 with a8 the
    // rival. At ply 67 the chariot slides a8 → a5 (a7, a6 lit): the world read it as a piece from
    // nowhere, every world forked, and the game was lost to the end (out of sync). Now the rival
    // is read back in: the record is right from there on, and a8 named.
    const judged = judgeGame(masterGame(14), dead('a8', 'empty', 7, 3712180077, false));
    expectAlertedThenRight(judged);
    expect(faults(judged)).toContain('a8');
    expect(judged.emitted.some((e) => e.type === 'alert' && e.alert.kind === 'out_of_sync')).toBe(false);
  });

  it('master 123: a capture nobody saw whose piece shows again, sliding from a point that never read it, is put right', () => {
    // h1 reads empty from ply 9. At ply 21 Red's chariot goes f1 → h1, unseen: read as f1 x f5, a
    // capture nobody saw (said so). Eight plies later it slides h1 → f1 (g1 lit on its way): read
    // as a piece from nowhere on f1, a doubt over f5 and f1 that never named h1, and the record kept
    // the chariot on f5. The capture's other points, h1 among them, are held in doubt: a world for
    // each that reads the board from there, of which the lit g1 leaves h1 and puts it first (the
    // others leave g1 unexplained); play ends the doubt (Black's piece, still on f5, moves), and
    // the record is put right from ply 21 with h1 named.
    const judged = judgeGame(masterGame(123), dead('h1', 'empty', 9, 3712290058, true));
    const doubt = judged.emitted.find((e) => e.type === 'alert' && e.alert.sensors?.includes('h1'));
    expect(doubt?.type === 'alert' && doubt.alert.sensors).toEqual(['h1', 'f5', 'f1']);
    expect(faults(judged)).toEqual(['h1']);
    expectAlertedThenRight(judged);
  });

  // A chariot's or cannon's slide onto a point whose sensor reads nothing: the points it lit on its
  // way say where it went (a slide lights every point it passes, a piece carried none). Each was
  // read wrong, or left in doubt past ten moves, before the change its comment names.
  it.each([
    // (b2 → b6 lighting b3, b4, b5, the reply set down: a doubt over b6 and the empty points off the
    // trail, c2 and d2. The worlds of an unseen landing are those the lit points tell best.)
    [183, 'b6', 0, 3712350598, true, false],
    // (b9 → b4 lighting b8 … b5, read resting on b5; Black's hand, 5 ms short of when a nudge is
    // over, was asked nothing again, and b5 was named dead. It is asked again when due.)
    [618, 'b4', 0, 3712789513, false, false],
    // (A slide read resting on its last lit point and taken back at once as that point emptied:
    // its trail was forgotten with the evidence. Taken back at once, the move's evidence returns.)
    [125, 'i5', 56, 3712292076, true, false],
    [131, 'b5', 31, 3712298130, true, true],
    [162, 'd8', 12, 3712329409, false, false],
    // (One point lit on the way, e5 or c1, read as a capture nobody saw the other way: the lit
    // point tells against it, and for one point where the piece may have gone unseen.)
    [82, 'e4', 54, 3712248689, false, false],
    [993, 'b1', 0, 3713167888, true, false],
  ] as const)(
    'master %i: a slide onto %s, a point that reads nothing, is read by its trail',
    (n, square, ply, seed, buttons, fromEmpty) => {
      const judged = judgeGame(masterGame(n), dead(square, 'empty', ply, seed, buttons, fromEmpty));
      expect(judged.classification.kind).toBe('exact');
      expect(faults(judged)).toEqual([square]);
    },
  );

  // The lit points a line's moves tell: each since its piece left, however briefly, and a point
  // two of them pass told by the one it fits. Each of these failed with the rule first tried.
  it.each([
    // (h2 → h5 over a dead h5 lighting h3 for 80 ms and h4 for 32, less than a bounce: all twelve
    // empty points of h2's were kept alike.)
    [48, 'h5', 4, 3712215392],
    // (d1 → b1 over a dead b1 lighting c1; Black's e7g5; then b1 → g1, carried over c1 again: as
    // well told as from a1, c1 lit by either move.)
    [88, 'b1', 0, 3712255752],
    // (A red soldier lands unseen on i4; Black lifts the chariot it set down on d5 1.6 s before
    // and takes d0 with it: a piece that stood longer than a slide rests was set down, its leaving
    // no slide going on, so d0 taken off is no sign of one.)
    [66, 'i4', 0, 3712233554],
  ] as const)(
    'random 1/%i: a move onto %s, a point that reads nothing, is read by the points lit',
    (k, square, ply, seed) => {
      const game = randomGames(k + 1, 1)[k]!;
      const judged = judgeGame(game, dead(square, 'empty', ply, seed, true));
      expect(judged.classification.kind).toBe('exact');
      // (Random 1/48's Black later lifts h5's piece, unseen, and sets it down out of place on e5
      // first: a piece from nowhere, said so at e5 too.)
      expect(faults(judged)[0]).toBe(square);
      expect(faults(judged).slice(1)).toEqual(k === 48 ? ['e5'] : []);
    },
  );

  it('random 1/217: a flicker before a slide left is none of its way', () => {
    // h6 → h3 over a dead h3; h5 flickers 13 ms before the chariot leaves h6. Counted as lit, it
    // made h4 the best told world, and h4, a live sensor, was named dead when the players chose.
    const game = randomGames(218, 1)[217]!;
    const judged = judgeGame(game, dead('h3', 'empty', 0, 3712385913, false), 'choosing');
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['h3']);
  });

  it("master 756 (colour): a reply's landing on a carried piece's way tells nothing of that way", () => {
    // h5 → d5 carried over g5, f5 and e5 onto a dead d5; Red's horse then lands on f5. Counted as
    // the chariot's, f5 put d5 out of the doubt's candidates, and nothing the players could choose.
    const judged = judgeGame(
      masterGame(756),
      played('colour', 3712928755, true, false, {
        dead: { square: parseSquare('d5')!, reads: 'empty', fromPly: 0 },
      }),
      'choosing',
    );
    expect(judged.choices.length).toBeGreaterThan(0);
    expect(faults(judged)).toEqual(['d5']);
  });

  // Whether a slide's piece, gone from the last point it lit, went on: by when it left that point
  // and when the opponent's hand was at work.
  it.each([
    // (b5 → b9 over a dead b9 lighting b6, b7, b8, read resting on b8 as it emptied. Black lifts
    // e8, a piece the chariot on b8 could take: for a while that was no sign the slide went on (a
    // victim lifted), and b9 went unnamed. The chariot left b8 63 ms after it came: a slide.)
    [
      964,
      'colour',
      'b9',
      "a slide's piece gone at once went on, whatever the opponent lifts",
      18,
      3713138627,
    ],
    // (d1 known dead; d5 → d1 lighting d4, d3, d2, read resting on d2. Red lifts e1 for its move
    // 550 ms later, next to f2 which could take d2: not a hand knocking as it reached for f2 (that
    // is done within 300 ms of the victim's going), so the slide went on to d1.)
    [
      40,
      'occupancy',
      'd1',
      'a lift long after, beside a piece that could take it, is a reply',
      31,
      3712206311,
    ],
  ] as const)('master %i (%s): onto a dead %s, %s', (n, sensing, square, _what, fromPly, seed) => {
    const judged = judgeGame(
      masterGame(n),
      played(sensing, seed, false, false, {
        dead: { square: parseSquare(square)!, reads: 'empty', fromPly },
      }),
    );
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual([square]);
  });

  // What the lit points say is read only when no other story is as good. Each of these was read
  // wrong while that rule was first tried, and is kept right by what its comment says.
  it.each([
    // (Red takes the slide's piece off first, knocking e1 reaching for its capturer on f1: a piece
    // next to one that can take it there is no sign the slide went on.)
    [408, 'a victim taken off first', played('colour', 1920726761, false, false, { knock: 0.05 })],
    // (Black's chariot set down on d6 after lighting d8 and d7, knocked off by Red's hand on e5.)
    [
      187,
      'a slide knocked off where it stopped',
      played('colour', 2666435244, false, true, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    ],
    // (Red's chariot slid to h4 and nudged: not gone on to h5 while a nudge may set it down again.)
    [
      343,
      'a slide nudged where it stopped',
      played('colour', 2666592648, false, true, { knock: 0.05, nudge: 0.3, straighten: 0.15 }),
    ],
    // (Black's piece set down out of place on h3 as Red's g3 x a3 waits unseen: the reply's hand.)
    [
      44,
      "a reply's piece set down beside a capture",
      played('occupancy', 2085004020, false, false, { hesitate: 1 }),
    ],
    // (Black's h5h3 taken back 500 ms later: a takeback, not a move taken back at once, so
    // the slide's points are no evidence for it.)
    [35, 'a takeback later', played('colour', 3568619713, false, true, { lateRemoval: 1, lowerReads: true })],
  ] as const)('master %i: %s is no slide onto a dead point', (n, _what, options) => {
    const judged = judgeGame(masterGame(n), options);
    expect(judged.classification.kind).toBe('exact');
    // (Master 35's g9, a stack read as its lower piece, is named a wrong colour, as before.)
    expect(faults(judged)).toEqual(n === 35 ? ['g9'] : []);
  });

  it('master 818: a slide onto a point known dead is no slide past it', () => {
    // c5 reads occupied from ply 23 and is named. At ply 84 Black's chariot slides c8 → c5 lighting
    // c7 and c6: read as gone on to c4 and c4 named dead, the game then read wrong without an alert.
    const judged = judgeGame(masterGame(818), dead('c5', 'occupied', 23, 3712991313, false));
    expect(faults(judged)[0]).toBe('c5');
    expect(faults(judged)).not.toContain('c4');
    expect(judged.classification.kind).not.toBe('silent');
  });

  it('master 680 (colour): a slide read resting and taken back at once is read once, then on its trail', () => {
    // h4 → e4 over a dead e4, lighting g4 and f4: read h4f4 as f4 emptied, taken back at once. Its
    // evidence restored, f4 read as a landing again would commit and take back h4f4 over and over.
    const judged = judgeGame(
      masterGame(680),
      played('colour', 3712852071, false, false, {
        dead: { square: parseSquare('e4')!, reads: 'empty', fromPly: 20 },
      }),
    );
    const retracts = judged.emitted.filter((e) => e.type === 'retract' && e.t > 68000 && e.t < 70000);
    expect(retracts.length).toBe(1);
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['e4']);
  });

  it('master 372: a point reading empty under a piece 30 ms after the last landing is a sensor, not a reply', () => {
    // Black's chariot lands on b9 (bouncing 23 ms); i3 reads empty under Red's soldier 30 ms after
    // it first read the chariot. Read as Red lifting the soldier, then Red's a0 → b0 as the soldier
    // set down backward (illegal), and three moves recorded at once 1.8 s later with i4 named dead.
    // A reply is lifted 50 ms after the landing at the soonest.
    const judged = judgeGame(masterGame(372), dead('i3', 'empty', 10, 855155268, false));
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['i3']);
  });

  it('master 54: a point starting to read a piece as a capture lands far from it is a dead sensor', () => {
    // Black's chariot takes on h0 (its victim lifted first); b8, which no move of the game uses, reads
    // occupied from 1 ms after it lands. Read as the chariot set down on b8 where it may not go, the
    // victim put back, and three moves late, once b8 had read so for 2.5 s. One hand does not set two
    // pieces down at once, far apart; the capture leaves one piece fewer than the board shows.
    const judged = judgeGame(masterGame(54), dead('b8', 'occupied', 10, 854834406, false));
    expect(judged.classification.kind).toBe('exact');
    const toB8 = judged.emitted.filter((e) => e.type === 'alert' && e.alert.message.includes('not to b8'));
    expect(toB8).toEqual([]);
    expect(faults(judged)).toEqual(['b8']);
  });

  it('master 1072: a board read afresh after a correction shows no capture landing, and so no phantom beside one', () => {
    // f6 reads occupied; the players correct the record to g6f6; Black sets its chariot down on g2
    // where it may not go. Every point of the board read afresh changed at that frame, a capture of
    // the line too: g2 was named a phantom as if it started reading as that capture landed, and the
    // f6 alert ended with it.
    const options = played('colour', 3713247599, false, false, {
      dead: { square: parseSquare('f6')!, reads: 'occupied', fromPly: 0 },
    });
    const judged = judgeGame(masterGame(1072), options, 'choosing');
    expect(judged.classification.kind).not.toBe('silent');
    const g2 = judged.emitted.filter(
      (e) => e.type === 'alert' && e.alert.kind === 'sensor_fault' && e.alert.square === 'g2',
    );
    expect(g2).toEqual([]);
  });

  it('master 294: a capture seen made is not changed to another move silently when a piece appears elsewhere', () => {
    // Black's cannon takes on f4 (its victim seen off, the cannon seen set down); Red's chariot, lifted
    // unseen off h8 (its sensor stuck reading a piece), is set down on g7 where it may not go: read as
    // Black's cannon gone to g7 instead, the capture taken back, with nothing said.
    const judged = judgeGame(masterGame(294), dead('h8', 'occupied', 32, 3712462597, false));
    expect(judged.classification.kind).not.toBe('silent');
    const doubt = judged.emitted.find(
      (e) => e.type === 'alert' && e.alert.kind === 'ambiguous' && e.t > 54000,
    );
    expect(doubt?.type === 'alert' && doubt.alert.candidates).toEqual([['f7g7'], ['f7f4']]);
  });

  it("master 329: a piece lifted after the mover's clock button is no part of the mover's move", () => {
    // Black's horse leaves g7 (its sensor stuck reading a piece) and takes on h9 in one scan: nothing
    // seen but Black's button. Red then takes Black's pawn off c5: read as that pawn's move c5 → c4
    // (a capture nobody saw), Black's move as the button said, and nothing said.
    const judged = judgeGame(masterGame(329), dead('g7', 'occupied', 12, 3712497912, true));
    expect(judged.classification.kind).not.toBe('silent');
    const first = judged.emitted.find((e) => e.type === 'alert' || (e.type === 'move' && e.ply === 18));
    expect(first?.type === 'alert' && first.alert.kind).toBe('ambiguous');
  });

  it('master 1034: three captures onto a point reading empty, pieces of both sides held meanwhile', () => {
    // a4 reads empty: Black's pawn a5 → a4, Red's chariot a3 → a4 and Black's chariot a9 → a4 all
    // land there unseen. Black's pawn held, Red's chariot lifted, which it cannot take: no move in
    // progress explains both, and the pawn's landing on a4 is looked for once it has been held long.
    const options = played('colour', 3713209257, false, false, {
      dead: { square: parseSquare('a4')!, reads: 'empty', fromPly: 8 },
    });
    const judged = judgeGame(masterGame(1034), options);
    expect(judged.classification.kind).toBe('exact');
    expect(faults(judged)).toEqual(['a4']);
  });

  it("master 1041: a piece off its point before the opponent's hand had its own piece is not knocked by it", () => {
    // Red's chariot slides d6 → d8 (its sensor dead) over d7; Black lifts a6 355 ms after d7 emptied
    // and sets it on e6, next to d7: d7 was read as knocked by that hand, the chariot as d6 → d7.
    const options = played('colour', 3713216320, true, true, {
      dead: { square: parseSquare('d8')!, reads: 'empty', fromPly: 0 },
    });
    const judged = judgeGame(masterGame(1041), options);
    expect(judged.classification.kind).not.toBe('silent');
  });

  it('master 671: a takeback is no capture made from a dead point that nothing shows, and a reply', () => {
    // d6 reads empty, and Red's horse stands on it (the players said so). Black's chariot a8 → d8 is
    // taken back: as well read as that horse taking on e8 in one scan, left and landed unseen, and
    // Black's d8 → a8. The takeback waited 1.3 s, undecided and unsaid, until the move was played again.
    const options = played('occupancy', 3712842990, true, true, {
      dead: { square: parseSquare('d6')!, reads: 'empty', fromPly: 17 },
    });
    const judged = judgeGame(masterGame(671), options, 'choosing');
    expect(judged.classification.kind).not.toBe('silent');
    const retracted = judged.emitted.filter((e) => e.type === 'retract' && e.ply === 32);
    expect(retracted.map((e) => e.t)).toEqual([expect.any(Number)]);
    expect(retracted[0]!.t).toBeLessThan(74000);
  });

  it('master 788: a point starting to read a piece as a slide lands, two points it may be', () => {
    // b5 starts reading occupied as Black's cannon slides b7 → d7 (b5 is one of its points too):
    // either b5 or d7 reads a piece that is not there. The reader found no single point and was
    // out of sync from then on; then it read on in both worlds until play told them apart. The
    // cannon was seen come to d7 from c7 (c7 read empty as d7 filled): b5 is the sensor, named
    // once a frame with none lost before it (Red lifting a0) shows the board was as read.
    const judged = judgeGame(masterGame(788), dead('b5', 'occupied', 12, 3712961043, false));
    expect(judged.classification.kind).toBe('exact');
    expect(judged.classification.deadNamed).toBe(true);
    expect(faults(judged)).toEqual(['b5']);
  });
});
