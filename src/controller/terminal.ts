/**
 * The terminal view of `xqboard start`: each board as a 9×10 grid, redrawn as it changes, with the
 * moves and the alerts; on a TTY it also reads commands (a move in any notation plays it on a
 * simulated board with a hand's timing; `new`, `reset`, `hint`, `resign`, `board`, `quit`, `help`).
 * Not a TTY (a service, a test): one line per move, result and alert instead of redraws.
 */
import { createInterface, type Interface } from 'node:readline';
import { parseFen } from '../rules/fen.js';
import { renderBoard } from '../sensors/simulator.js';
import type { BoardSession } from './board-session.js';
import type { GameView } from './bus.js';
import type { ControllerContext, Extension } from './extension.js';

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
  hint                   suggest a move      resign   the side to move resigns
  board ID               choose the board the commands go to
  quit                   stop xqboard        help     this text`;

export class TerminalView implements Extension {
  readonly name = 'terminal';
  private readonly unsubscribers: (() => void)[] = [];
  private readline: Interface | undefined;
  private redrawTimer: NodeJS.Timeout | undefined;
  private readonly alerts = new Map<string, string>();
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
      bus.on('game.over', (e) => line(`${e.board}: ${e.view.result} (${e.view.reason ?? 'ended'})`)),
      bus.on('tracker.alert', (e) => {
        this.alerts.set(e.board, e.alert.message);
        line(`${e.board}: alert ${e.alert.kind}: ${e.alert.message}`);
      }),
      bus.on('tracker.alertCleared', (e) => {
        this.alerts.delete(e.board);
        if (this.tty) this.redraw();
      }),
      bus.on('board.frame', () => {
        if (this.tty) this.redraw();
      }),
      bus.on('board.availability', (e) =>
        line(`${e.board}: ${e.online ? 'online' : 'offline'}${e.reason ? ` (${e.reason})` : ''}`),
      ),
      bus.on('game.hint', (e) => {
        this.note(`hint for ${e.board}: ${e.iccs} ${e.wxf} ${e.zh}`);
        line(`${e.board}: hint ${e.iccs} ${e.wxf} ${e.zh}`);
      }),
    );
    if (this.options.input) {
      this.readline = createInterface({ input: this.options.input, terminal: false });
      this.readline.on('line', (text) => this.command(text.trim()));
      if (this.tty) this.redraw();
    }
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    this.readline?.close();
    this.readline = undefined;
  }

  /** One command typed by the user; the answer goes into the notes under the boards. */
  command(text: string): void {
    if (text === '') return;
    const [word = '', ...rest] = text.split(/\s+/);
    const session = this.selected !== undefined ? this.context.sessions.get(this.selected) : undefined;
    const answer = (r: { ok: true } | { ok: false; error: { message: string } }, done: string) =>
      this.note(r.ok ? done : r.error.message);
    switch (word.toLowerCase()) {
      case 'quit':
      case 'exit':
        this.options.onQuit();
        return;
      case 'help':
        this.note(HELP);
        return;
      case 'board': {
        const id = rest[0];
        if (id && this.context.sessions.has(id)) {
          this.selected = id;
          this.note(`commands now go to ${id}`);
        } else this.note(`boards: ${[...this.context.sessions.keys()].join(', ')}`);
        return;
      }
    }
    if (!session) {
      this.note('no board');
      return;
    }
    switch (word.toLowerCase()) {
      case 'new': {
        const fen = rest.length > 0 ? rest.join(' ') : undefined;
        const r = session.newGame(fen);
        if (r.ok && session.simulator) session.simulate(fen ? { fen } : { reset: true });
        answer(r, 'new game: set the board up');
        return;
      }
      case 'reset':
        answer(session.simulate({ reset: true }), 'pieces back in the start position');
        return;
      case 'hint':
        answer(session.hint(), 'hint given');
        return;
      case 'resign':
        answer(session.resign(), 'resigned');
        return;
      default:
        answer(session.simulate({ move: text }), `playing ${text}`);
    }
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
    const sim = session.simulator;
    const setup = parseFen(view.fen);
    const grid = sim
      ? sim.render({ ansi: true })
      : renderBoard(setup.ok ? setup.value.board : new Array(90).fill(undefined), { ansi: true });
    const mark = session.id === this.selected ? '*' : ' ';
    const head = `${mark}${session.id}  game ${view.game}  ${describe(view)}`;
    const alert = this.alerts.get(session.id);
    return [head, grid, `moves: ${moveList(view)}`, ...(alert ? [`alert: ${alert}`] : [])].join('\n');
  }
}

function describe(view: GameView): string {
  if (view.status === 'setup') return 'set the pieces up to start';
  if (view.status === 'over') return `${view.result} (${view.reason ?? 'ended'})`;
  return `ply ${view.ply}, ${view.turn} to move${view.check ? ', check' : ''}`;
}

function moveList(view: GameView): string {
  const shown = view.moves.slice(-16);
  const first = view.moves.length - shown.length;
  return shown.length === 0 ? '(none)' : shown.map((m, i) => `${first + i + 1}.${m}`).join(' ');
}
