/**
 * `npm run dead-ceiling`: how many games of the dead-sensor row (a dead square the game uses) no
 * move reader can name the dead point in within ten plies of its first use, because a twin game
 * (another dead point, another move, the same frames; see src/simulation/dead-ceiling.ts) reads the
 * same. The rest is the ceiling on naming it without the players' help.
 *
 *   --games N (all 1,125 masters; 300 random)  --seed S (1)  --set master|random
 *   --sensing occupancy|colour  --list (each twin found)
 */
import { parseArgs } from 'node:util';
import { makeIccs, makeSquareName } from '../src/rules/index.js';
import type { Sensing } from '../src/sensors/snapshot.js';
import { deadTwin, sameElsewhere } from '../src/simulation/dead-ceiling.js';
import { physicalPlay } from '../src/simulation/physical-play.js';
import {
  CONDITIONS,
  type GameSpec,
  randomGames,
  rowOptions,
  sample,
} from '../src/simulation/real-play-judge.js';
import { masterGames as readMasterGames } from './master-games.js';

const USAGE =
  'usage: dead-ceiling [--games N] [--seed S] [--set master|random] [--sensing occupancy|colour] [--list]';

let values: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      games: { type: 'string' },
      seed: { type: 'string', default: '1' },
      set: { type: 'string', default: 'master' },
      sensing: { type: 'string', default: 'occupancy' },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values;
}
try {
  values = parse();
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const set = values.set;
const sensing = values.sensing as Sensing;
const seed = Number(values.seed);
const count = values.games === undefined ? (set === 'master' ? 1125 : 300) : Number(values.games);
if (
  (set !== 'master' && set !== 'random') ||
  (sensing !== 'occupancy' && sensing !== 'colour') ||
  !Number.isInteger(seed) ||
  !Number.isInteger(count) ||
  count < 1
) {
  console.error(USAGE);
  process.exit(2);
}

const masterGames = (): GameSpec[] =>
  readMasterGames(new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url));

const games = set === 'master' ? sample(masterGames(), count, seed) : randomGames(count, seed);
const row = CONDITIONS.find((c) => c.id === 'dead_used')!;
const all = rowOptions(row, games, sensing, seed);
let used = 0;
let twins = 0;
let other = 0;
games.forEach((game, k) => {
  const options = all[k];
  const dead = options?.real?.dead;
  if (!options || !dead) return;
  const played = physicalPlay(game.start, game.moves, options);
  if (played.dead?.firstUsePly === undefined) return;
  used++;
  // The same hands with the sensor alive: every other point reads as it did.
  const live = physicalPlay(game.start, game.moves, {
    ...options,
    real: { ...options.real, dead: undefined },
  });
  // (The premise, checked: the frames differ on the dead point alone.)
  if (!sameElsewhere(played.events, live.events, dead.square))
    throw new Error(`${game.label}: the play with the sensor alive differs off its point`);
  const twin = deadTwin({
    start: game.start,
    moves: game.moves,
    dead,
    live: live.events,
    truth: played.truth,
    diedAt: played.dead.fromT,
  });
  if (twin) {
    twins++;
    if (values.list)
      console.log(
        `${game.label}: ${makeSquareName(dead.square)} reads ${dead.reads}; ply ${played.dead.firstUsePly} ${makeIccs(twin.played)} reads as ${makeIccs(twin.move)} with ${makeSquareName(twin.dead)} dead`,
      );
  } else other++;
  if ((k + 1) % 100 === 0) process.stderr.write(`${k + 1}/${games.length}\n`);
});
const ceiling = used === 0 ? 0 : (100 * other) / used;
console.log(
  `${set} games, ${sensing}, seed ${seed}: dead square used in ${used}; a twin reads the same in ${twins}; ` +
    `named within 10 plies at most in ${other} (${ceiling.toFixed(1)} %)`,
);
