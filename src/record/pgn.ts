/**
 * PGN for xiangqi in the xqbase convention: `[Game "Chinese Chess"]` first, `[Format "ICCS"]` or
 * `[Format "WXF"]` for the move notation (none: Chinese), `[FEN]` for a set-up start, the clock
 * time of each move as `{[%clk h:mm:ss]}`. Reading takes moves in any notation (real files do not
 * always say which), keeps comments and clock times, and skips variations and NAGs.
 */

import { makeMove, type NotationName, type NotationStyle, parseMoveAny } from '../notation/index.js';
import { INITIAL_FEN, type Move, makeFen, makeIccs, Position, parseFen } from '../rules/index.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';

export interface PgnMove {
  readonly move: Move;
  readonly iccs: string;
  /** Free-text comment after the move, without the clock command. */
  readonly comment?: string;
  /** `[%clk]`: the mover's time left after the move, in milliseconds. */
  readonly clock?: number;
  /** `[%emt]`: the time the move took, in milliseconds (games without a clock). */
  readonly emt?: number;
}

export interface PgnGame {
  /** Tags in file order, without `Game`, `Format` and `Result` (the writer sets those). */
  readonly tags: Readonly<Record<string, string>>;
  /** Start position; the standard one when the file has no `[FEN]`. */
  readonly fen: string;
  readonly moves: readonly PgnMove[];
  /** `1-0`, `0-1`, `1/2-1/2` or `*`. */
  readonly result: string;
  /** Comment before the first move. */
  readonly comment?: string;
}

export type PgnErrorCode = 'pgn_syntax' | 'pgn_fen' | 'pgn_move';
export interface PgnError extends CodedError<PgnErrorCode> {
  /** 1-based index of the game in its file. */
  readonly game: number;
  readonly tags: Readonly<Record<string, string>>;
  readonly ply?: number;
  readonly moveText?: string;
}

export const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'] as const;

/** A tag line. The value runs to the last quote: real files hold unescaped quotes in values. */
const TAG_LINE = /^\s*\[([A-Za-z0-9_]+)\s+"(.*)"\s*\]\s*$/;

/** "game 3 (Red – Black, Event, Date)": how errors name a game. */
export function describeGame(index: number, tags: Readonly<Record<string, string>>): string {
  const who = tags.Red || tags.Black ? `${tags.Red ?? '?'} – ${tags.Black ?? '?'}` : '';
  const parts = [who, tags.Event ?? '', tags.Date ?? ''].filter((p) => p !== '');
  return `game ${index}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * Cuts PGN text into games, one chunk a game, line by line: a tag line after movetext starts the
 * next game. Lines inside a `{…}` comment never count as tags. Used whole and by the stream reader.
 */
export class GameSplitter {
  private lines: string[] = [];
  private seenMoves = false;
  private inComment = false;

  /** Feeds one line; returns the previous game's text when this line starts a new game. */
  push(line: string): string | undefined {
    let done: string | undefined;
    if (!this.inComment && TAG_LINE.test(line) && this.seenMoves) {
      done = this.lines.join('\n');
      this.lines = [];
      this.seenMoves = false;
    }
    this.lines.push(line);
    if (!this.inComment && !TAG_LINE.test(line) && line.trim() !== '') this.seenMoves = true;
    this.trackComment(line);
    return done;
  }

  /** The last game, if any text is left. */
  end(): string | undefined {
    const text = this.lines.join('\n');
    this.lines = [];
    this.seenMoves = false;
    return text.trim() === '' ? undefined : text;
  }

  private trackComment(line: string): void {
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (this.inComment) {
        if (c === '}') this.inComment = false;
      } else if (c === '{') this.inComment = true;
      else if (c === ';') return;
    }
  }
}

export function splitGames(text: string): string[] {
  const splitter = new GameSplitter();
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const done = splitter.push(line);
    if (done !== undefined) out.push(done);
  }
  const last = splitter.end();
  if (last !== undefined) out.push(last);
  return out;
}

type Token =
  | { kind: 'move'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: 'result'; text: string };

function tokenize(movetext: string): Result<Token[], string> {
  const tokens: Token[] = [];
  let k = 0;
  let depth = 0;
  const n = movetext.length;
  while (k < n) {
    const c = movetext[k]!;
    if (/\s/.test(c)) {
      k++;
    } else if (c === '{') {
      const close = movetext.indexOf('}', k + 1);
      if (close < 0) return err('a comment { is never closed');
      if (depth === 0) tokens.push({ kind: 'comment', text: movetext.slice(k + 1, close) });
      k = close + 1;
    } else if (c === ';') {
      const eol = movetext.indexOf('\n', k);
      const end = eol < 0 ? n : eol;
      if (depth === 0) tokens.push({ kind: 'comment', text: movetext.slice(k + 1, end) });
      k = end;
    } else if (c === '(') {
      depth++;
      k++;
    } else if (c === '}') {
      return err('a } closes no comment');
    } else if (c === ')') {
      if (depth === 0) return err('a ) closes no variation');
      depth--;
      k++;
    } else {
      let end = k;
      while (end < n && !/[\s{};()]/.test(movetext[end]!)) end++;
      const word = movetext.slice(k, end);
      k = end;
      if (depth > 0) continue;
      for (const t of wordTokens(word)) tokens.push(t);
    }
  }
  if (depth > 0) return err('a variation ( is never closed');
  return ok(tokens);
}

/** A word of movetext: move numbers and NAGs dropped, a number glued to a move split off. */
function wordTokens(word: string): Token[] {
  if ((RESULTS as readonly string[]).includes(word)) return [{ kind: 'result', text: word }];
  if (/^\$\d+$/.test(word)) return [];
  const rest = word.replace(/^\d+\s*(\.+|…|、)/, '');
  if (rest === '') return [];
  return [{ kind: 'move', text: rest.replace(/[!?]+$/, '') }];
}

const CLOCK = /\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/;
const EMT = /\[%emt\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\]/;
const hmsMs = (m: RegExpExecArray): number =>
  Math.round((Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000);

function splitClock(comment: string): { comment?: string; clock?: number; emt?: number } {
  const m = CLOCK.exec(comment);
  const e = EMT.exec(comment);
  const text = comment.replace(CLOCK, '').replace(EMT, '').trim();
  const out: { comment?: string; clock?: number; emt?: number } = {};
  if (text !== '') out.comment = text;
  if (m) out.clock = hmsMs(m);
  if (e) out.emt = hmsMs(e);
  return out;
}

function unescapeTag(v: string): string {
  return v.replace(/\\(["\\])/g, '$1');
}

/** Reads one game's text (`index` is its 1-based place in the file, for messages). */
export function parseGame(text: string, index = 1): Result<PgnGame, PgnError> {
  const tags: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  let k = 0;
  for (; k < lines.length; k++) {
    const line = lines[k]!;
    if (line.trim() === '') continue;
    const m = TAG_LINE.exec(line);
    if (!m) break;
    tags[m[1]!] = unescapeTag(m[2]!);
  }
  const fail = (code: PgnErrorCode, message: string, at: { ply?: number; moveText?: string } = {}) =>
    err<PgnError>({ code, message: `${describeGame(index, tags)}: ${message}`, game: index, tags, ...at });

  const fen = tags.FEN?.trim() || INITIAL_FEN;
  const setup = parseFen(fen);
  if (!setup.ok) return fail('pgn_fen', `bad FEN tag (${setup.error.message})`);
  const start = Position.fromSetup(setup.value);
  if (!start.ok) return fail('pgn_fen', `FEN tag is not a legal position (${start.error.message})`);
  const pos = start.value;

  const tokens = tokenize(lines.slice(k).join('\n'));
  if (!tokens.ok) return fail('pgn_syntax', tokens.error);
  const moves: { move: Move; iccs: string; comment?: string; clock?: number; emt?: number }[] = [];
  let comment: string | undefined;
  let result: string | undefined;
  for (const token of tokens.value) {
    if (token.kind === 'result') {
      result = token.text;
    } else if (token.kind === 'comment') {
      const { comment: c, clock, emt } = splitClock(token.text);
      const last = moves[moves.length - 1];
      if (!last) {
        if (c !== undefined) comment = comment === undefined ? c : `${comment} ${c}`;
      } else {
        if (c !== undefined) last.comment = last.comment === undefined ? c : `${last.comment} ${c}`;
        if (clock !== undefined) last.clock = clock;
        if (emt !== undefined) last.emt = emt;
      }
    } else {
      const ply = moves.length + 1;
      if (result !== undefined) {
        return fail('pgn_syntax', `ply ${ply} '${token.text}' comes after the result ${result}`, {
          ply,
          moveText: token.text,
        });
      }
      const move = parseMoveAny(pos, token.text);
      if (!move.ok) {
        return fail('pgn_move', `ply ${ply} '${token.text}': ${move.error.message}`, {
          ply,
          moveText: token.text,
        });
      }
      pos.play(move.value);
      moves.push({ move: move.value, iccs: makeIccs(move.value) });
    }
  }
  const { Game: _game, Format: _format, Result: _result, ...kept } = tags;
  const game: PgnGame = {
    tags: kept,
    fen: tags.FEN?.trim() ? makeFen(setup.value) : INITIAL_FEN,
    moves,
    result: result ?? tags.Result ?? '*',
    ...(comment !== undefined ? { comment } : {}),
  };
  return ok(game);
}

/** Every game of a PGN text, each read on its own: one bad game does not hide the others. */
export const readPgn = (text: string): Result<PgnGame, PgnError>[] =>
  splitGames(text).map((g, i) => parseGame(g, i + 1));

export interface PgnWriteOptions {
  readonly notation?: NotationName;
  readonly style?: NotationStyle;
  /** Longest movetext line in terminal columns (CJK characters count two). */
  readonly lineWidth?: number;
}

/** `h:mm:ss` from milliseconds, whole seconds. */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Terminal columns of a text: CJK and full-width characters take two. */
export function displayWidth(text: string): number {
  let n = 0;
  for (const ch of text)
    n += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(
      ch,
    )
      ? 2
      : 1;
  return n;
}

const escapeTag = (v: string): string => v.replace(/(["\\])/g, '\\$1');
const FIRST_TAGS = ['Event', 'Site', 'Date', 'Round', 'Red', 'Black'];

/** One game as PGN text, ending in a newline. */
export function writePgn(game: PgnGame, options: PgnWriteOptions = {}): string {
  const notation = options.notation ?? 'iccs';
  const width = options.lineWidth ?? 80;
  const tagLines: string[] = ['[Game "Chinese Chess"]'];
  const put = (k: string, v: string): void => {
    tagLines.push(`[${k} "${escapeTag(v)}"]`);
  };
  for (const k of FIRST_TAGS) if (game.tags[k] !== undefined) put(k, game.tags[k]);
  put('Result', game.result);
  const setUp = game.fen !== INITIAL_FEN;
  if (setUp) put('FEN', game.fen);
  if (notation !== 'chinese') put('Format', notation === 'iccs' ? 'ICCS' : 'WXF');
  for (const [k, v] of Object.entries(game.tags)) {
    if (!FIRST_TAGS.includes(k) && k !== 'FEN') put(k, v);
  }

  const setup = parseFen(game.fen);
  const start = setup.ok ? Position.fromSetup(setup.value) : undefined;
  if (!start?.ok) throw new Error(`writePgn: bad start FEN ${game.fen}`);
  const pos = start.value;
  const words: string[] = [];
  if (game.comment !== undefined) words.push(`{${game.comment}}`);
  let fullmove = pos.fullmoves;
  for (const [i, m] of game.moves.entries()) {
    // The move number stays on the line of its move.
    const number = pos.turn === 'red' ? `${fullmove}. ` : i === 0 ? `${fullmove}... ` : '';
    words.push(number + makeMove(pos, m.move, notation, options.style));
    const notes = [
      m.clock !== undefined ? `[%clk ${formatClock(m.clock)}]` : '',
      m.emt !== undefined ? `[%emt ${formatClock(m.emt)}]` : '',
      m.comment ?? '',
    ].filter((s) => s !== '');
    if (notes.length) words.push(`{${notes.join(' ')}}`);
    if (pos.turn === 'black') fullmove++;
    pos.play(m.move);
  }
  words.push(game.result);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(w) > width) {
      lines.push(line);
      line = w;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  if (line !== '') lines.push(line);
  return `${tagLines.join('\n')}\n\n${lines.join('\n')}\n`;
}

/** Several games, a blank line between them. */
export const writePgnFile = (games: readonly PgnGame[], options: PgnWriteOptions = {}): string =>
  games.map((g) => writePgn(g, options)).join('\n');
