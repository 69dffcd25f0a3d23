/**
 * `npm run real-play`: the move reader judged on real play (rules 10–16 of the sensor-log spec),
 * one markdown table per game set and sensing kind: games exact, wrong with an alert in time, and
 * wrong without one (silent). Progress goes to stderr; `--out file.json` keeps every failure.
 *
 *   --games N (60 a row)  --seed S (1)  --set master|random  --sensing occupancy|colour
 *   --rows id,id (all)  --out failures.json
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Sensing } from '../src/sensors/snapshot.js';
import {
  CONDITIONS,
  type Failure,
  formatTable,
  type GameSpec,
  judgeRow,
  type RowResult,
  randomGames,
  sample,
} from '../src/simulation/real-play-judge.js';
import { masterGames as readMasterGames } from './master-games.js';

const USAGE =
  'usage: real-play [--games N] [--seed S] [--set master|random] [--sensing occupancy|colour] [--rows id,id] [--out failures.json]';

function options() {
  try {
    return parseArgs({
      options: {
        games: { type: 'string', default: '60' },
        seed: { type: 'string', default: '1' },
        set: { type: 'string' },
        sensing: { type: 'string' },
        rows: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const values = options();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const count = Number(values.games);
const seed = Number(values.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  console.error('--games and --seed take whole numbers');
  process.exit(2);
}
const sets = values.set ? [values.set] : ['master', 'random'];
const sensings = (values.sensing ? [values.sensing] : ['occupancy', 'colour']) as Sensing[];
if (
  sets.some((s) => s !== 'master' && s !== 'random') ||
  sensings.some((s) => s !== 'occupancy' && s !== 'colour')
) {
  console.error('--set is master or random, --sensing occupancy or colour');
  process.exit(2);
}
const wanted = values.rows?.split(',');
const conditions = CONDITIONS.filter((c) => !wanted || wanted.includes(c.id));

const masterGames = (): GameSpec[] =>
  readMasterGames(new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url));

const tty = process.stderr.isTTY === true;
const failures: (Failure & { set: string })[] = [];
const t0 = performance.now();
for (const set of sets) {
  const games = set === 'master' ? sample(masterGames(), count, seed) : randomGames(count, seed);
  for (const sensing of sensings) {
    const rows: RowResult[] = [];
    for (const condition of conditions) {
      const row = judgeRow(condition, games, sensing, seed, (done, r) => {
        const line = `${set} ${sensing} ${condition.id}: ${done}/${games.length} (silent ${r.silent})`;
        // On a terminal one line rewritten in place; in a log, a line every tenth of the row.
        if (tty) process.stderr.write(`\r${line}   `);
        else if (done === games.length || done % Math.max(1, Math.round(games.length / 10)) === 0)
          process.stderr.write(`${line}\n`);
      });
      if (tty) process.stderr.write('\n');
      rows.push(row);
      for (const f of row.failures) failures.push({ set, ...f });
    }
    console.log(`\n### ${set} games, ${sensing} sensing, seed ${seed}\n`);
    console.log(formatTable(rows));
  }
}
console.error(`${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (values.out) {
  writeFileSync(values.out, `${JSON.stringify(failures, null, 1)}\n`);
  console.error(`${failures.length} failures written to ${values.out}`);
}
