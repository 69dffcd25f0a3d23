import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeMove, type NotationName, type NotationStyle } from '../../notation/index.js';
import { DEFAULT_ARCHIVE_DIR, gameOfJournal } from '../../record/archive.js';
import { type JournalState, listJournals } from '../../record/journal.js';
import { type PgnGame, writePgn } from '../../record/pgn.js';
import { type Move, makePieceLetter, makeSquare, Position, parseFen, type Setup } from '../../rules/index.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { notationOption, styleOption } from './convert.js';

const FILE_LETTERS = 'a b c d e f g h i';

/**
 * A board as a 9×10 grid, Black at the top: Red upper case, Black lower case, `·` empty, the
 * river between ranks 4 and 5. The last move's squares are bracketed.
 */
export function drawBoard(board: Setup['board'], last?: Move): string[] {
  const lines = [`    ${FILE_LETTERS}`];
  const marked = (sq: number): boolean => last !== undefined && (last.from === sq || last.to === sq);
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    for (let file = 0; file < 9; file++) {
      const sq = makeSquare(file, rank);
      const p = board[sq];
      // One separator before each cell: [ opens a marked cell, ] closes the one before.
      row += marked(sq) ? '[' : file > 0 && marked(sq - 1) ? ']' : ' ';
      row += p ? makePieceLetter(p) : '·';
    }
    row += marked(makeSquare(8, rank)) ? ']' : '';
    lines.push(` ${rank} ${row}`.trimEnd());
    if (rank === 5) lines.push('   ~~~~~~~~~~~~~~~~~~~');
  }
  lines.push(`    ${FILE_LETTERS}`);
  return lines;
}

type Status = 'playing' | 'ended' | 'archived';
const statusOf = (s: JournalState): Status => (s.archived ? 'archived' : s.outcome ? 'ended' : 'playing');

function findGame(dir: string, id: string): JournalState {
  const all = listJournals(dir);
  const matches = all.flatMap((r) => (r.ok && r.value.start.id.startsWith(id) ? [r.value] : []));
  if (matches.length === 0) throw new UsageError(`no game '${id}' in ${dir} (see xqboard games list)`);
  const exact = matches.find((s) => s.start.id === id);
  if (!exact && matches.length > 1)
    throw new UsageError(`'${id}' fits ${matches.length} games: give more of the id`);
  return exact ?? matches[0]!;
}

function gameOrThrow(state: JournalState): PgnGame {
  const g = gameOfJournal(state);
  if (!g.ok) throw new UsageError(g.error.message);
  return g.value;
}

function list(dir: string, json: boolean, io: CliIo): number {
  const all = listJournals(dir);
  const rows = all.map((r) => {
    if (!r.ok) return { error: r.error.message };
    const s = r.value;
    return {
      id: s.start.id,
      date: s.start.startedAt,
      red: s.start.meta.Red ?? '',
      black: s.start.meta.Black ?? '',
      event: s.start.meta.Event ?? '',
      result: s.outcome?.result ?? '*',
      reason: s.outcome?.reason ?? null,
      plies: s.moves.length,
      status: statusOf(s),
      warnings: s.warnings,
    };
  });
  // The games that can be read are listed; an unreadable journal makes the exit status 2.
  const status = rows.some((row) => 'error' in row) ? 2 : 0;
  if (json) {
    for (const row of rows) io.out(JSON.stringify(row));
    return status;
  }
  if (rows.length === 0) {
    io.out(`no games in ${dir}`);
    return 0;
  }
  const table = [['ID', 'STARTED', 'RED', 'BLACK', 'RESULT', 'PLIES', 'STATUS']];
  for (const row of rows) {
    if ('error' in row) continue;
    table.push([
      row.id,
      row.date.slice(0, 16).replace('T', ' '),
      row.red,
      row.black,
      row.result,
      String(row.plies),
      row.status,
    ]);
  }
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  for (const r of table)
    io.out(
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
  for (const row of rows) {
    if ('error' in row) io.err(`! ${row.error}`);
    else for (const w of row.warnings) io.err(`! ${w}`);
  }
  return status;
}

function show(
  state: JournalState,
  ply: number | undefined,
  notation: NotationName,
  style: NotationStyle,
  io: CliIo,
): number {
  const game = gameOrThrow(state);
  const upto = ply ?? game.moves.length;
  if (upto < 0 || upto > game.moves.length) {
    throw new UsageError(`--ply ${upto} is outside the game (0 to ${game.moves.length})`);
  }
  const setup = parseFen(game.fen);
  const pos = setup.ok ? Position.fromSetup(setup.value) : undefined;
  if (!pos?.ok) throw new UsageError(`bad start position ${game.fen}`);
  const p = pos.value;
  const t = game.tags;
  const player = (side: 'Red' | 'Black'): string => {
    const extra = [t[`${side}Elo`], t[`${side}Team`]].filter((x) => x !== undefined);
    return `${t[side] ?? '?'}${extra.length ? ` [${extra.join(', ')}]` : ''} (${side})`;
  };
  io.out(`${state.start.id}  ${player('Red')} – ${player('Black')}`);
  const about = [
    t.Event,
    t.Site,
    t.Round !== undefined ? `round ${t.Round}` : undefined,
    t.BoardNumber !== undefined ? `board ${t.BoardNumber}` : undefined,
    t.Date,
    `${game.result}${state.outcome?.reason ? ` ${state.outcome.reason}` : ''}`,
    statusOf(state),
  ];
  io.out(about.filter((x) => x).join(', '));
  const written: string[] = [];
  for (const m of game.moves) {
    written.push(makeMove(p, m.move, notation, style));
    p.play(m.move);
  }
  for (let k = game.moves.length; k > upto; k--) p.undo();
  io.out('');
  for (const line of drawBoard(p.toSetup().board, upto > 0 ? game.moves[upto - 1]!.move : undefined))
    io.out(line);
  io.out(`after ply ${upto} of ${game.moves.length}, ${p.turn} to move`);
  io.out('');
  const startBlack = setup.ok && setup.value.turn === 'black';
  const pairs: string[] = [];
  for (let k = 0; k < written.length; ) {
    const n = Math.floor((k + (startBlack ? 1 : 0)) / 2) + 1;
    if (k === 0 && startBlack) {
      pairs.push(`${n}. …  ${written[0]}`);
      k += 1;
    } else {
      pairs.push(`${n}. ${written[k]}${written[k + 1] ? `  ${written[k + 1]}` : ''}`);
      k += 2;
    }
  }
  for (const line of pairs) io.out(line);
  for (const w of state.warnings) io.err(`! ${w}`);
  return 0;
}

export const gamesCommand: Command = {
  name: 'games',
  summary: 'list, show and export the recorded games of the archive',
  help: `Usage: xqboard games list [--dir DIR] [--json]
       xqboard games show ID [--ply N] [--notation iccs|wxf|chinese] [--dir DIR]
       xqboard games export ID… | --all [--to iccs|wxf|chinese] [-o OUT.pgn] [--dir DIR]

The archive (DIR, default ./${DEFAULT_ARCHIVE_DIR}) holds one journal per recorded game,
and a PGN and sensor log beside each finished one. An ID may be shortened to
any unique beginning.

  list      one line per game: id, start, players, result, plies, status
            (playing, ended, archived); --json: one JSON object a line.
            Warnings of recovered journals go to standard error; a journal
            that cannot be read is named there, and the exit status is 2.
  show      the board as a 9×10 grid (Red upper case, Black lower case, last
            move in brackets) after ply N (default: the last), then the moves.
  export    the games as PGN (xqbase convention, time left as [%clk], or move times as [%emt]).

  --wxf-style official|fullwidth, --black-digits fullwidth|ascii as in convert.`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        dir: { type: 'string' },
        json: { type: 'boolean' },
        ply: { type: 'string' },
        notation: { type: 'string' },
        to: { type: 'string' },
        all: { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        'wxf-style': { type: 'string' },
        'black-digits': { type: 'string' },
      },
      allowPositionals: true,
    });
    const [action, ...ids] = positionals;
    const dir = values.dir ?? DEFAULT_ARCHIVE_DIR;
    const style = styleOption(values['wxf-style'], values['black-digits']);
    switch (action) {
      case 'list':
        return list(dir, values.json ?? false, io);
      case 'show': {
        if (ids.length !== 1) throw new UsageError('games show takes one game id');
        if (values.ply !== undefined && !/^\d+$/.test(values.ply)) {
          throw new UsageError(`--ply '${values.ply}' is not a whole number`);
        }
        const ply = values.ply === undefined ? undefined : Number(values.ply);
        return show(findGame(dir, ids[0]!), ply, notationOption(values.notation, 'chinese'), style, io);
      }
      case 'export': {
        if (!values.all && ids.length === 0) throw new UsageError('games export takes game ids or --all');
        const states = values.all
          ? listJournals(dir).flatMap((r) => (r.ok ? [r.value] : []))
          : ids.map((id) => findGame(dir, id));
        const notation = notationOption(values.to, 'iccs');
        const text = states.map((s) => writePgn(gameOrThrow(s), { notation, style })).join('\n');
        if (values.output) {
          try {
            writeFileSync(values.output, text);
          } catch (e) {
            io.err(`xqboard games: cannot write ${values.output}: ${(e as Error).message}`);
            return 2;
          }
        } else if (text !== '') io.out(text.replace(/\n$/, ''));
        return 0;
      }
      default:
        throw new UsageError(
          `games takes list, show or export, not '${action ?? ''}' (see xqboard games --help)`,
        );
    }
  },
};
