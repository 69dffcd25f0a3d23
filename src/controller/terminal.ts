/**
 * The terminal view of `xqboard start`: each board as `games show` draws it (the river, the last
 * move bracketed), with the clock, the moves and the alerts active now, redrawn as it changes; on
 * a TTY it also reads commands, which go through the controller's request API (requests.ts) like
 * MQTT and HTTP requests, so they answer the same (an illegal move says why). Not a TTY (a
 * service, a test): one line per move, result and alert instead of redraws.
 */
import { createInterface, type Interface } from 'node:readline';
import { drawBoard } from '../cli/commands/games.js';
import { makeChinese } from '../notation/index.js';
import { Position, parseFen, parseIccs } from '../rules/index.js';
import type { BoardSession } from './board-session.js';
import type { GameView } from './bus.js';
import type { ControllerContext, Extension } from './extension.js';
import { errorText, performRequest, type RequestResult } from './requests.js';

export interface TerminalOptions {
  readonly output: { write(text: string): unknown; isTTY?: boolean };
  /** Commands are read from it when given (a TTY). */
  readonly input?: NodeJS.ReadableStream;
  /** `quit` typed. */
  readonly onQuit: () => void;
}

const HELP = `commands:
  h2e2 | C2.5 | 炮二平五   play a move on the simulated board (lift, set down)
  new [FEN]              start a new game (the simulated board is set up for it)
  reset                  put the simulated board's pieces in the start position
  hint                   suggest a move      resign [red|black]   (default: the side to move)
  play red|black [MS] [SKILL]  a new game, the engine playing that side (think MS ms, Skill Level 0-20)
  play off               a new game without the engine
  draw offer|accept|decline                  takebacks on|off
  resolve N [POINT]      candidate N (from 0) of the alert over a dead sensor (that takes POINT for dead) was played
  correct PLY MOVE…      the record from ply PLY on was MOVE… (ICCS), then the later moves
  board ID               choose the board the commands go to
  quit                   stop xqboard        help     this text`;

/** A typed command as a request of the contract. */
function requestOf(
  word: string,
  rest: string[],
  text: string,
): { name: string; payload: Record<string, unknown> } {
  switch (word) {
    case 'new':
      return { name: 'game/new', payload: rest.length > 0 ? { fen: rest.join(' ') } : {} };
    case 'reset':
      return { name: 'board/simulate', payload: { reset: true } };
    case 'hint':
      return { name: 'game/hint', payload: {} };
    case 'play': {
      const [side, ms, skill] = rest;
      if (side === undefined || side === 'off') return { name: 'game/new', payload: { engine: null } };
      const strength = {
        ...(ms !== undefined ? { movetimeMs: Number(ms) } : {}),
        ...(skill !== undefined ? { skill: Number(skill) } : {}),
      };
      return { name: 'game/new', payload: { engine: { side, ...strength } } };
    }
    case 'resign':
      return { name: 'game/resign', payload: rest[0] ? { side: rest[0] } : {} };
    case 'draw':
      return { name: 'game/draw', payload: { action: rest[0] ?? 'offer' } };
    case 'takebacks':
      return { name: 'game/options', payload: { takebacks: rest[0] !== 'off' } };
    case 'get':
      return { name: 'game/get', payload: {} };
    case 'correct':
      return { name: 'game/correct', payload: { ply: Number(rest[0]), moves: rest.slice(1) } };
    case 'resolve':
      return {
        name: 'game/resolve',
        payload: { candidate: Number(rest[0]), ...(rest[1] ? { sensor: rest[1] } : {}) },
      };
    default:
      return { name: 'board/simulate', payload: { move: text } };
  }
}

export class TerminalView implements Extension {
  readonly name = 'terminal';
  private readonly unsubscribers: (() => void)[] = [];
  private readline: Interface | undefined;
  private redrawTimer: NodeJS.Timeout | undefined;
  private readonly notes: string[] = [];
  private selected: string | undefined;

  constructor(
    private readonly context: ControllerContext,
    private readonly options: TerminalOptions,
  ) {}

  private get tty(): boolean {
    return this.options.output.isTTY === true;
  }

  async start(): Promise<void> {
    const { bus } = this.context;
    this.selected = this.context.sessions.keys().next().value;
    const line = (text: string) => {
      if (this.tty) this.redraw();
      else this.options.output.write(`${text}\n`);
    };
    const redraw = () => {
      if (this.tty) this.redraw();
    };
    this.unsubscribers.push(
      bus.on('game.move', (e) =>
        line(`${e.board}: ${e.move.ply}. ${e.move.iccs} ${e.move.wxf} ${e.move.zh}`),
      ),
      bus.on('game.retract', (e) => line(`${e.board}: ply ${e.ply} taken back`)),
      bus.on('game.view', (e) =>
        line(
          `${e.board}: game ${e.view.game} ${e.view.status === 'setup' ? 'waiting for the board to be set up' : e.view.status} at ply ${e.view.ply}`,
        ),
      ),
      bus.on('game.over', (e) => line(`${e.board}: ${outcomeText(e.view)}`)),
      bus.on('tracker.alert', (e) => line(`${e.board}: alert ${e.alert.kind}: ${e.alert.message}`)),
      bus.on('tracker.alertCleared', redraw),
      bus.on('board.frame', redraw),
      bus.on('board.availability', (e) =>
        line(`${e.board}: ${e.online ? 'online' : 'offline'}${e.reason ? ` (${e.reason})` : ''}`),
      ),
      bus.on('game.hint', (e) => {
        const what = e.kind === 'engine' ? 'the engine plays' : 'hint';
        this.note(`${what} for ${e.board}: ${e.message}`);
        line(`${e.board}: ${what} ${e.message}`);
      }),
    );
    if (this.options.input) {
      this.readline = createInterface({ input: this.options.input, terminal: false });
      this.readline.on('line', (text) => void this.command(text.trim()));
      if (this.tty) this.redraw();
    }
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    this.readline?.close();
    this.readline = undefined;
  }

  /** One command typed by the user; the answer goes into the notes under the boards (and is returned). */
  async command(text: string): Promise<RequestResult | undefined> {
    if (text === '') return undefined;
    const [first = '', ...rest] = text.split(/\s+/);
    const word = first.toLowerCase();
    switch (word) {
      case 'quit':
      case 'exit':
        this.options.onQuit();
        return undefined;
      case 'help':
        this.note(HELP);
        return undefined;
      case 'board': {
        const id = rest[0];
        if (id && this.context.sessions.has(id)) {
          this.selected = id;
          this.note(`commands now go to ${id}`);
        } else this.note(`boards: ${[...this.context.sessions.keys()].join(', ')}`);
        return undefined;
      }
    }
    if (this.selected === undefined) {
      this.note('no board');
      return undefined;
    }
    const { name, payload } = requestOf(word, rest, text);
    if (name === 'board/simulate' && 'move' in payload) this.note(`playing ${text}`);
    const { result } = await performRequest(this.context, name, { ...payload, board: this.selected });
    this.note(result.ok ? answerText(name, result.data) : errorText(result.error));
    return result;
  }

  private note(text: string): void {
    this.notes.push(text);
    if (this.notes.length > 4) this.notes.shift();
    if (this.tty) this.redraw();
    else if (this.options.input) this.options.output.write(`${text}\n`);
  }

  /** Redraws at most every 40 ms: a slide or a bounce is a burst of frames. */
  private redraw(): void {
    if (this.redrawTimer) return;
    this.redrawTimer = setTimeout(() => {
      this.redrawTimer = undefined;
      this.options.output.write(`\x1b[2J\x1b[H${this.screen()}\n> `);
    }, 40);
  }

  private screen(): string {
    const parts: string[] = [];
    for (const session of this.context.sessions.values()) parts.push(this.boardScreen(session));
    parts.push(...this.notes, "type a move (h2e2, C2.5, 炮二平五), or 'help'");
    return parts.join('\n\n');
  }

  private boardScreen(session: BoardSession): string {
    const view = session.view();
    const setup = parseFen(view.fen);
    // A simulated board is drawn as its pieces stand (a lifted piece is missing from it).
    const board = session.simulator?.pieces ?? (setup.ok ? setup.value.board : new Array(90).fill(undefined));
    const last = view.lastMove ? parseIccs(view.lastMove) : undefined;
    const mark = session.id === this.selected ? '*' : ' ';
    const head = `${mark}${session.id}  game ${view.game}  ${describe(view)}`;
    const lines = [head, ...drawBoard(board, last?.ok ? last.value : undefined)];
    if (view.lastMove) lines.push(`last move: ${view.ply}. ${view.lastMove}`);
    if (view.clock)
      lines.push(`clock: red ${clockText(view.clock.red)}  black ${clockText(view.clock.black)}`);
    lines.push(`moves: ${moveList(view)}`);
    for (const a of session.alerts()) lines.push(`alert: ${a.message}`);
    return lines.join('\n');
  }
}

function answerText(name: string, data: unknown): string {
  const d = data as Record<string, unknown>;
  switch (name) {
    case 'board/simulate':
      return d.iccs ? `${d.ply}. ${d.iccs} recorded` : 'the pieces are set up';
    case 'game/new':
      return d.status === 'setup' ? 'new game: set the board up' : 'new game: under way';
    case 'game/hint':
      return `hint: ${d.message}`;
    case 'game/correct':
      return `record corrected: ${describe(d as unknown as GameView)}`;
    case 'game/resolve':
      return `recorded ${(d.line as string[]).join(' ') || 'no move'}; the sensor of ${d.square} is faulty`;
    case 'game/resign':
    case 'game/draw':
      return d.status === 'over' ? outcomeText(d as unknown as GameView) : 'done';
    default:
      return JSON.stringify(d);
  }
}

function outcomeText(view: GameView): string {
  const winner = view.result === '1-0' ? 'red wins' : view.result === '0-1' ? 'black wins' : undefined;
  const how = view.reason ? view.reason.replace(/_/g, ' ') : 'ended';
  return `${view.result}${winner ? ` ${winner}` : ''} (${how})`;
}

function describe(view: GameView): string {
  if (view.status === 'setup') return 'set the pieces up to start';
  if (view.status === 'over') return outcomeText(view);
  return `ply ${view.ply}, ${view.turn} to move${view.check ? ', check' : ''}`;
}

const clockText = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The moves in Chinese notation, numbered by full moves as `games show` lists them (the last 8). */
function moveList(view: GameView): string {
  const pos = Position.fromFen(view.startFen);
  if (!pos.ok) return view.moves.join(' ');
  const p = pos.value;
  const blackFirst = p.turn === 'black';
  const names: string[] = [];
  for (const iccs of view.moves) {
    const move = parseIccs(iccs);
    if (!move.ok) break;
    names.push(makeChinese(p, move.value) ?? iccs);
    p.play(move.value);
  }
  if (names.length === 0) return '(none)';
  const pairs: string[] = [];
  for (let k = 0; k < names.length; ) {
    const n = Math.floor((k + (blackFirst ? 1 : 0)) / 2) + 1;
    if (k === 0 && blackFirst) {
      pairs.push(`${n}. … ${names[0]}`);
      k += 1;
    } else {
      pairs.push(`${n}. ${names[k]}${names[k + 1] ? ` ${names[k + 1]}` : ''}`);
      k += 2;
    }
  }
  return pairs.slice(-8).join('  ');
}
