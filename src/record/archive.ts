/**
 * The archive directory (`./data/games` by default): journals and the records written beside them.
 * Turns a journal into a game (replaying it by the rules) and finishes a game into its PGN.
 */
import { join } from 'node:path';
import { makeIccs, Position, parseFen, parseIccs } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { GameJournal, type JournalError, type JournalState, listJournals, readJournal } from './journal.js';
import { type PgnGame, type PgnMove, type PgnWriteOptions, writePgn } from './pgn.js';

export const DEFAULT_ARCHIVE_DIR = join('data', 'games');

export type ArchiveError = CodedError<'archive_game'>;

/** `2026.11.29` from an ISO time. */
const pgnDate = (iso: string): string =>
  /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10).replace(/-/g, '.') : '????.??.??';

/**
 * The game a journal holds, replayed by the rules. Each move's `[%clk]` is the mover's time left
 * when a clock ran, else `[%emt]` the time the move took.
 */
export function gameOfJournal(state: JournalState): Result<PgnGame, ArchiveError> {
  const where = `${state.path}`;
  const setup = parseFen(state.start.fen);
  const pos = setup.ok ? Position.fromSetup(setup.value) : undefined;
  if (!pos?.ok) return err({ code: 'archive_game', message: `${where}: bad start FEN ${state.start.fen}` });
  const moves: PgnMove[] = [];
  let before = 0;
  for (const m of state.moves) {
    const move = parseIccs(m.iccs);
    if (!move.ok || !pos.value.isLegal(move.value)) {
      return err({ code: 'archive_game', message: `${where}: ply ${m.ply} '${m.iccs}' is not a legal move` });
    }
    pos.value.play(move.value);
    const iccs = makeIccs(move.value);
    moves.push(
      m.clock !== undefined
        ? { move: move.value, iccs, clock: m.clock }
        : { move: move.value, iccs, emt: Math.max(0, m.t - before) },
    );
    before = m.t;
  }
  const tags: Record<string, string> = { Date: pgnDate(state.start.startedAt), ...state.start.meta };
  if (state.outcome?.reason) tags.Termination = state.outcome.reason;
  return ok({ tags, fen: state.start.fen, moves, result: state.outcome?.result ?? '*' });
}

export function pgnOfJournal(
  state: JournalState,
  options: PgnWriteOptions = {},
): Result<string, ArchiveError> {
  const game = gameOfJournal(state);
  return game.ok ? ok(writePgn(game.value, options)) : game;
}

/**
 * Finishes a game that has its end record: PGN (ICCS unless told) and the sensor log beside the
 * journal. The PGN is made from the journal as it is on disk; the sensor log is the lines given,
 * else the ones the journal carried (none: no sensor log file).
 */
export function finishFromJournal(
  journal: GameJournal,
  sensorLogLines?: readonly string[],
  options: PgnWriteOptions = {},
): Result<{ pgn: string; sensorLog?: string }, ArchiveError | JournalError> {
  const state = readJournal(journal.path);
  if (!state.ok) return state;
  const pgn = pgnOfJournal(state.value, options);
  if (!pgn.ok) return pgn;
  const carried = state.value.sensorLog.length > 0 ? state.value.sensorLog : undefined;
  return journal.finishGame(pgn.value, sensorLogLines ?? carried);
}

/** The failure to report of two: one of the disk (worth trying again) wins. */
const worse = <E extends { code: string }>(a: E | undefined, b: E): E =>
  a === undefined || (a.code !== 'journal_io' && b.code === 'journal_io') ? b : a;

/**
 * Finishes the games that ended but were never archived (the process died between the end
 * record and the PGN, or the disk was full): their PGN and, if the journal carried it, the sensor
 * log are written from the journal. Every such game is tried; `only` picks some (one board's).
 * Returns what was done, one line each, or a failure (the others are tried all the same): the
 * first one of the disk (worth trying again) if any, else the first one.
 */
export function archivePending(
  dir: string,
  only: (state: JournalState) => boolean = () => true,
): Result<string[], JournalError | ArchiveError> {
  const done: string[] = [];
  let failed: JournalError | ArchiveError | undefined;
  for (const r of listJournals(dir)) {
    if (!r.ok || !r.value.outcome || r.value.archived || !only(r.value)) continue;
    const resumed = GameJournal.resume(r.value.path);
    if (!resumed.ok) {
      failed = worse(failed, resumed.error);
      continue;
    }
    const finished = finishFromJournal(resumed.value.journal);
    resumed.value.journal.close();
    if (!finished.ok) {
      failed = worse(failed, finished.error);
      continue;
    }
    const log = finished.value.sensorLog ? `, sensor log to ${finished.value.sensorLog}` : ' (no sensor log)';
    done.push(`${r.value.start.id}: PGN written to ${finished.value.pgn}${log}`);
  }
  return failed ? err(failed) : ok(done);
}
