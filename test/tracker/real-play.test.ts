/**
 * The move reader on real play (rules 10–16 of the sensor-log spec, issue 13): a sample of master
 * and random games per condition, both sensing kinds, each game classified as exact, wrong with an
 * alert in time, or wrong without one (silent). `npm run real-play` gives the whole table.
 */
import { describe, expect, it } from 'vitest';
import type { Sensing } from '../../src/sensors/snapshot.js';
import {
  CONDITIONS,
  type Condition,
  formatTable,
  type GameSpec,
  judgeGame,
  judgeRow,
  type RowResult,
  randomGames,
  sample,
} from '../../src/simulation/real-play-judge.js';
import { liuDahuaGames, positionOf } from './physical-support.js';

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
    const judged = judgeGame(game, {
      sensing: 'occupancy',
      seed: 2085082722,
      setupFromEmpty: false,
      buttons: false,
      real: { hesitate: 1 },
    });
    expect(judged.classification.kind).toBe('exact');
    expect(judged.emitted.filter((e) => e.type === 'gameOver')).toEqual([]);
  });
});
