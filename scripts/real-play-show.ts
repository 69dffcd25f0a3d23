/**
 * `npm run real-play:show -- FAILURES.json [INDEX]`: one game of a real-play failures file
 * (`npm run real-play -- --out FILE`) replayed, as a timeline around its first wrong episode: the
 * frames (what changed, and the board drawn where asked), what was really played, and what the
 * reader said. For finding out why the reader went wrong.
 *
 *   --before MS (3000)  --after MS (3000)  --at T (centre there, not on the first episode)
 *   --boards (draw the board at each frame)  --list (the failures, one a line)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeSquareName, type Position } from '../src/rules/index.js';
import { classify } from '../src/simulation/classify.js';
import { physicalPlay } from '../src/simulation/physical-play.js';
import { choiceActions, type Failure, randomGames } from '../src/simulation/real-play-judge.js';
import { asPublished, runSensorEvents } from '../src/tracker/run.js';
import { masterGames } from './master-games.js';

const USAGE =
  'usage: real-play-show FAILURES.json [INDEX] [--before MS] [--after MS] [--at T] [--boards] [--list]';

const OPTIONS = {
  before: { type: 'string', default: '3000' },
  after: { type: 'string', default: '3000' },
  boards: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  at: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

function args(): ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>> {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { values, positionals } = args();
const [file, index] = positionals;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!file) {
  console.error(USAGE);
  process.exit(2);
}

function readFailures(path: string): (Failure & { set: string })[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error('not a list of failures (npm run real-play -- --out FILE)');
    return parsed as (Failure & { set: string })[];
  } catch (err) {
    console.error(`${path}: ${(err as Error).message}`);
    process.exit(2);
  }
}
const failures = readFailures(file);
if (values.list) {
  failures.forEach((f, i) => {
    const e = f.firstEpisode;
    console.log(
      `${i}\t${f.set} ${f.sensing} ${f.row} ${f.label}: ${f.kind}${e ? ` ply ${e.ply} at ${e.start} reader ${e.reader.slice(0, 3).join(' ')} game ${e.game.slice(0, 3).join(' ')}${e.alert ? ` alert ${e.alert.kind}@${e.alert.t}` : ''}` : ''}`,
    );
  });
  process.exit(0);
}
const f = failures[Number(index ?? 0)];
if (!f) {
  console.error(`no failure ${index} in ${file} (${failures.length})`);
  process.exit(2);
}

function game(): { start: Position; moves: { from: number; to: number }[] } {
  if (f!.set === 'random') {
    // Labels are `random SEED/K`.
    const [seed, k] = f!.label.replace('random ', '').split('/').map(Number) as [number, number];
    const g = randomGames(k + 1, seed)[k]!;
    return { start: g.start, moves: [...g.moves] };
  }
  const n = Number(f!.label.replace('master ', ''));
  const g = masterGames(new URL('../../shared/data/games/liu-dahua-1125-iccs.pgn', import.meta.url))[n - 1]!;
  return { start: g.start, moves: [...g.moves] };
}

const g = game();
const play = physicalPlay(g.start, g.moves, f.options);
const run = runSensorEvents(g.start, play.events, {
  sensing: f.options.sensing,
  actions: choiceActions(f.choices ?? []),
});
if (!run.ok) throw new Error(run.error.message);
// (As the real-play table judges it: each event when it was published.)
const published = asPublished(run.value);
const c = classify({
  truth: play.truth,
  emitted: published,
  end: play.events.at(-1)?.t ?? 0,
  ...(play.dead
    ? { dead: { iccs: play.dead.iccs, fromT: play.dead.fromT, firstUsePly: play.dead.firstUsePly } }
    : {}),
});
const ep = c.episodes[0];
console.log(`${f.set} ${f.sensing} ${f.row} ${f.label} seed ${f.options.seed}: ${c.kind}`);
if (play.dead)
  console.log(
    `dead ${play.dead.iccs} reads ${play.dead.reads} from ply ${play.dead.fromPly} (t ${play.dead.fromT}), first use ply ${play.dead.firstUsePly}`,
  );
for (const e of c.episodes)
  console.log(
    `episode ${e.start}–${e.end ?? 'end'} ply ${e.ply}: reader ${e.reader.join(' ')} | game ${e.game.join(' ')} | alert ${e.alert ? `${e.alert.kind}@${e.alert.t}` : 'none'}`,
  );
const centre = values.at !== undefined ? Number(values.at) : (ep?.start ?? 0);
const from = centre - Number(values.before);
const to = centre + Number(values.after);

type Row = { t: number; order: number; text: string };
const rows: Row[] = [];
let prev: string | undefined;
const draw = (cells: string): string => {
  const lines: string[] = [];
  for (let r = 9; r >= 0; r--)
    lines.push(
      `      ${r} ${cells
        .slice(r * 9, r * 9 + 9)
        .split('')
        .join(' ')}`,
    );
  lines.push('        a b c d e f g h i');
  return lines.join('\n');
};
for (const e of play.events) {
  if (e.type === 'button') {
    if (e.t >= from && e.t <= to) rows.push({ t: e.t, order: 1, text: `button ${e.side}` });
    continue;
  }
  // (Cells are indexed by square: rank * 9 + file.)
  const bySquare = e.cells;
  if (e.t >= from && e.t <= to) {
    const changes: string[] = [];
    if (prev !== undefined)
      for (let sq = 0; sq < 90; sq++)
        if (prev[sq] !== bySquare[sq]) changes.push(`${makeSquareName(sq)}:${prev[sq]}→${bySquare[sq]}`);
    rows.push({
      t: e.t,
      order: 0,
      text: `frame ${changes.length ? changes.join(' ') : '(same)'}${e.since !== undefined ? ` (frames lost since ${e.since})` : ''}${values.boards ? `\n${draw(bySquare)}` : ''}`,
    });
  }
  prev = bySquare;
}
for (const e of play.truth)
  if (e.t >= from && e.t <= to)
    rows.push({
      t: e.t,
      order: 2,
      text: `TRUTH ${e.kind} ply ${e.ply}${e.kind === 'move' ? ` ${e.iccs}${e.seen !== undefined ? ` (seen ${e.seen})` : ''}` : ''}`,
    });
for (const [i, e] of published.entries()) {
  if (e.t < from || e.t > to) continue;
  // (A move published later than its stamp: read in a world of a doubt, stamped when it began.)
  const stamped = run.value.emitted[i]!.t;
  const at = stamped !== e.t ? ` (stamped ${stamped})` : '';
  let text: string;
  if (e.type === 'move') text = `READER move ply ${e.ply} ${e.iccs}${at}`;
  else if (e.type === 'retract') text = `READER retract ply ${e.ply}${at}`;
  else if (e.type === 'alert') text = `READER alert ${e.alert.kind}: ${e.alert.message}`;
  else if (e.type === 'alertCleared') text = `READER alert ended ${e.kind}`;
  else if (e.type === 'state') text = `reader state ${e.state} ${JSON.stringify(e.detail)}`;
  else text = `reader ${e.type}`;
  rows.push({ t: e.t, order: 3, text });
}
rows.sort((a, b) => a.t - b.t || a.order - b.order);
for (const r of rows) console.log(`${String(r.t).padStart(7)}  ${r.text}`);
