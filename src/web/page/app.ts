/**
 * The web page: every board drawn as a xiangqi board (SVG), live from the controller's
 * Server-Sent Events (the MQTT contract's payloads, see ../events.ts), with its moves in ICCS, WXF
 * or Chinese, the move reader's state (a lifted piece and its legal targets, capture candidates,
 * illegal moves, corrections, check), the result and the clock. On a simulated board a click on a
 * piece then on a target plays the move through POST /api/boards/:id/simulate. The rules and the
 * notation are the controller's own modules, bundled.
 *
 * Anyone may watch; the controls (new game, hint, moves on a simulated board) show once logged in
 * as an arbiter: with the link the controller prints at start (`/#token=…`) or a name and password
 * (POST /api/login). The token is kept in this browser until it stops working.
 */
import type {
  AlertPayload,
  HintPayload,
  PositionPayload,
  ResultPayload,
  StatePayload,
} from '../../mqtt/contract.js';
import { makeMove, type NotationName } from '../../notation/index.js';
import {
  makeIccs,
  makeSquareName,
  type Piece,
  Position,
  parseFen,
  parseIccs,
  parseSquare,
  type Square,
} from '../../rules/index.js';
import { type BoardSnapshot, type BoardsResponse, WEB_TOPICS, type WebEvent } from '../events.js';
import { GLYPH } from './glyphs.js';

const TOPICS = WEB_TOPICS;

const RED_FILES = '九八七六五四三二一';
const BLACK_FILES = '１２３４５６７８９';

// Board geometry (SVG units): points 60 apart, room for the labels around.
const STEP = 60;
const LEFT = 48;
const TOP = 74;
const WIDTH = LEFT * 2 + STEP * 8;
const HEIGHT = TOP + STEP * 9 + 70;
const SVG_NS = 'http://www.w3.org/2000/svg';

interface BoardUi {
  snapshot: BoardSnapshot;
  alerts: Map<string, AlertPayload>;
  hint: HintPayload | null;
  selected: Square | null;
  flipped: boolean;
  message: string;
  /** When the clock view arrived (the running side's time is counted down from it). */
  clockAt: number;
  card: HTMLElement;
}

const boards = new Map<string, BoardUi>();
const TOKEN_KEY = 'xqboard.token';
let token = takeToken();
/** What this page may do: the controls need an arbiter's login; a player may ask its board's hints. */
let controls = false;
let playerBoard: string | null = null;

/** A token given in the address (`#token=…`) is kept, and taken out of the address bar. */
function takeToken(): string | null {
  const given = /(?:^#|&)token=([^&]+)/.exec(location.hash)?.[1];
  if (given) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(given));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return localStorage.getItem(TOKEN_KEY);
}

const authorization = (): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** Asks the controller who this page is, and shows the controls or the login. */
async function loadSession(): Promise<void> {
  const res = await fetch('/api/session', { headers: authorization() });
  if (res.status === 401 && token) {
    forget();
    return loadSession();
  }
  const body = (await res.json()) as { data?: { name: string | null; role: string; board?: string } };
  const role = body.data?.role ?? 'viewer';
  controls = role === 'arbiter' || role === 'controller';
  playerBoard = role === 'player' ? (body.data?.board ?? null) : null;
  document.body.classList.toggle('controls', controls);
  document.getElementById('who')!.textContent = body.data?.name && token ? `${body.data.name} (${role})` : '';
  document.getElementById('login')!.hidden = token !== null;
  document.getElementById('logout')!.hidden = token === null;
  for (const ui of boards.values()) render(ui);
}

function forget(): void {
  token = null;
  localStorage.removeItem(TOKEN_KEY);
}

// The printed link opened in a tab that shows the page already.
window.addEventListener('hashchange', () => {
  token = takeToken();
  void loadSession();
});
document.getElementById('login')!.addEventListener('click', () => {
  const form = document.getElementById('login-form')!;
  form.hidden = !form.hidden;
});
document.getElementById('logout')!.addEventListener('click', () => {
  forget();
  void loadSession();
});
document.getElementById('login-form')!.addEventListener('submit', (e) => {
  e.preventDefault();
  const form = e.target as HTMLFormElement;
  const data = new FormData(form);
  void fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: data.get('name'), password: data.get('password') }),
  }).then(async (res) => {
    const answer = (await res.json()) as { status: string; error?: string; data?: { token?: string } };
    form.querySelector('.login-error')!.textContent = answer.status === 'ok' ? '' : (answer.error ?? '');
    if (answer.data?.token) {
      token = answer.data.token;
      localStorage.setItem(TOKEN_KEY, token);
      form.reset();
      form.hidden = true;
      await loadSession();
    }
  });
});
let notation: NotationName = readNotation();

function readNotation(): NotationName {
  const saved = localStorage.getItem('xqboard.notation');
  return saved === 'iccs' || saved === 'wxf' || saved === 'chinese' ? saved : 'chinese';
}

// --- data -------------------------------------------------------------------------------------

/** Reads every board; `afterBreak`: the controller may have restarted (its `seq` start again at 1). */
async function loadBoards(afterBreak = false): Promise<void> {
  const res = await fetch('/api/boards');
  const body = (await res.json()) as BoardsResponse;
  const main = document.getElementById('boards')!;
  const ids = new Set(body.boards.map((b) => b.id));
  for (const [id, ui] of boards) {
    if (!ids.has(id)) {
      ui.card.remove();
      boards.delete(id);
    }
  }
  for (const snapshot of body.boards) {
    let ui = boards.get(snapshot.id);
    if (!ui) {
      ui = {
        snapshot,
        alerts: new Map(),
        hint: null,
        selected: null,
        flipped: localStorage.getItem(`xqboard.flip.${snapshot.id}`) === '1',
        message: '',
        clockAt: Date.now(),
        card: makeCard(snapshot.id),
      };
      boards.set(snapshot.id, ui);
      main.append(ui.card);
    } else if (
      !afterBreak &&
      snapshot.position.game === ui.snapshot.position.game &&
      snapshot.position.seq < ui.snapshot.position.seq
    ) {
      // Events already brought something newer than this answer.
      continue;
    }
    ui.snapshot = snapshot;
    ui.alerts = new Map(snapshot.alerts.map((a) => [a.kind, a]));
    ui.clockAt = Date.now();
    render(ui);
  }
}

function onEvent(e: WebEvent): void {
  const ui = boards.get(e.board);
  if (!ui) {
    void loadBoards();
    return;
  }
  const s = ui.snapshot;
  switch (e.topic) {
    case 'availability':
      ui.snapshot = { ...s, availability: e.payload };
      break;
    case 'position': {
      const p = e.payload;
      if (p.game !== s.position.game || p.ply !== s.position.ply) ui.selected = null;
      if (ui.hint && (p.game !== ui.hint.game || p.ply >= ui.hint.ply)) ui.hint = null;
      // The moves came one by one (`move`, `retract`); a new game starts with none.
      const moves = p.game === s.position.game ? s.moves.slice(0, p.ply) : [];
      ui.snapshot = { ...s, position: p, moves };
      ui.clockAt = Date.now();
      // Moves this page did not see (it was away): the snapshot has them.
      if (moves.length < p.ply) void loadBoards();
      break;
    }
    case 'state':
      ui.snapshot = { ...s, state: e.payload };
      break;
    case 'result':
      ui.snapshot = { ...s, result: e.payload };
      break;
    case 'alert':
      if (e.payload.active) ui.alerts.set(e.payload.kind, e.payload);
      else ui.alerts.delete(e.payload.kind);
      break;
    case 'alerts':
      // The set active now: what ended while this page was away is gone.
      ui.alerts = new Map(e.payload.active.map((a) => [a.kind, { ...a, seq: e.payload.seq }]));
      break;
    case 'hint':
      ui.hint = e.payload;
      break;
    case 'move':
    case 'retract': {
      // The position that follows says where the game stands; the list is kept here.
      const p = e.payload;
      if (p.game === s.position.game && s.moves.length >= p.ply - 1) {
        const kept = s.moves.slice(0, p.ply - 1);
        ui.snapshot = { ...s, moves: e.topic === 'move' ? [...kept, e.payload.iccs] : kept };
      }
      return;
    }
  }
  render(ui);
}

function connect(): void {
  const status = document.getElementById('connection')!;
  const source = new EventSource('/events');
  let wasDown = false;
  source.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'connection live';
    // After a break (or a controller restart) the snapshot is read again.
    if (wasDown) {
      void loadBoards(true);
      // A new controller has a new token: ask again who this page is.
      void loadSession();
    }
    wasDown = false;
  });
  source.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'connection down';
    wasDown = true;
  });
  for (const topic of TOPICS) {
    source.addEventListener(topic, (m) => {
      const data = JSON.parse((m as MessageEvent<string>).data) as { board: string; payload: unknown };
      onEvent({ topic, board: data.board, payload: data.payload } as WebEvent);
    });
  }
}

async function post(ui: BoardUi, action: string, body: object): Promise<boolean> {
  const res = await fetch(`/api/boards/${encodeURIComponent(ui.snapshot.id)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authorization() },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { status: string; error?: string };
  // The login is gone (the controller restarted): show the login again.
  if (res.status === 401) void loadSession();
  ui.message = answer.status === 'ok' ? '' : (answer.error ?? `HTTP ${res.status}`);
  render(ui);
  return answer.status === 'ok';
}

// --- the card ---------------------------------------------------------------------------------

function makeCard(id: string): HTMLElement {
  const card = document.createElement('section');
  card.className = 'board-card';
  card.dataset.board = id;
  card.innerHTML = `
    <svg class="board" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="${SVG_NS}" role="img"></svg>
    <div class="side">
      <h2><span class="avail"></span><span class="name"></span></h2>
      <div class="meta"></div>
      <div class="actions">
        <button type="button" data-action="new">New game</button>
        <button type="button" data-action="hint">Hint</button>
        <select class="engine-side" aria-label="The engine plays (new game)">
          <option value="">no engine</option>
          <option value="red">engine plays red</option>
          <option value="black">engine plays black</option>
        </select>
        <button type="button" data-action="flip">Flip board</button>
      </div>
      <form class="correct" aria-label="Correct the record">
        from ply <input class="correct-ply" type="number" min="1" required aria-label="Ply" />
        it was <input class="correct-moves" placeholder="h2e2 h9g7" required aria-label="Moves (ICCS)" />
        <button type="submit">Correct the record</button>
      </form>
      <div class="message" role="status"></div>
      <div class="result" hidden></div>
      <div class="clock" hidden><div class="red"></div><div class="black"></div></div>
      <div class="status"></div>
      <div class="hint-box" hidden></div>
      <div class="alerts"></div>
      <ol class="moves"></ol>
    </div>`;
  card.querySelector('svg')!.addEventListener('click', (e) => {
    const ui = boards.get(id);
    const target = (e.target as Element).closest('[data-square]');
    const square = target ? parseSquare(target.getAttribute('data-square') ?? '') : undefined;
    if (ui && square !== undefined) void clickSquare(ui, square);
  });
  card.querySelector('.actions')!.addEventListener('click', (e) => {
    const ui = boards.get(id);
    const action = (e.target as Element).closest('button')?.dataset.action;
    if (!ui || !action) return;
    if (action === 'flip') {
      ui.flipped = !ui.flipped;
      localStorage.setItem(`xqboard.flip.${id}`, ui.flipped ? '1' : '0');
      render(ui);
    } else if (action === 'new') {
      ui.selected = null;
      const side = card.querySelector<HTMLSelectElement>('select.engine-side')!.value;
      void post(ui, 'new', { engine: side === '' ? null : { side } });
    } else if (action === 'hint') void post(ui, 'hint', {});
  });
  // A move misread, or read where a dead sensor hid another: the players say what they played.
  card.querySelector('form.correct')!.addEventListener('submit', (e) => {
    e.preventDefault();
    const ui = boards.get(id);
    if (!ui) return;
    const ply = Number(card.querySelector<HTMLInputElement>('.correct-ply')!.value);
    const moves = card.querySelector<HTMLInputElement>('.correct-moves')!.value.trim().split(/\s+/);
    void post(ui, 'correct', { ply, moves });
  });
  return card;
}

function positionOf(fen: string): Position | undefined {
  const setup = parseFen(fen);
  if (!setup.ok) return undefined;
  const pos = Position.fromSetup(setup.value);
  return pos.ok ? pos.value : undefined;
}

/** The page may move a piece: a simulated board, a game not over. */
function playable(ui: BoardUi): boolean {
  return controls && ui.snapshot.simulated && ui.snapshot.position.status !== 'over';
}

async function clickSquare(ui: BoardUi, square: Square): Promise<void> {
  if (!playable(ui)) return;
  const pos = positionOf(ui.snapshot.position.fen);
  if (!pos) return;
  const piece = pos.pieceAt(square);
  if (ui.selected !== null && ui.selected !== square && pos.legalDestinations(ui.selected).includes(square)) {
    const move = makeIccs({ from: ui.selected, to: square });
    ui.selected = null;
    render(ui);
    await post(ui, 'simulate', { move });
    return;
  }
  ui.selected = piece?.color === pos.turn && ui.selected !== square ? square : null;
  render(ui);
}

// --- drawing ------------------------------------------------------------------------------------

function render(ui: BoardUi): void {
  const { snapshot: s, card } = ui;
  const pos = s.position;
  card.querySelector('.name')!.textContent = s.id;
  const avail = card.querySelector<HTMLElement>('.avail')!;
  avail.className = `avail ${s.availability?.state ?? ''}`;
  avail.title = s.availability
    ? `${s.availability.state}${s.availability.reason ? `: ${s.availability.reason}` : ''}`
    : '';
  card.querySelector('.meta')!.textContent =
    `${s.driver}${s.simulated ? ' (click a piece, then where it goes)' : ''} · game ${pos.game} · ply ${pos.ply}`;
  card.querySelector('.message')!.textContent = ui.message;
  card.classList.toggle('can-hint', controls || playerBoard === s.id);
  renderResult(card.querySelector<HTMLElement>('.result')!, s.result, pos);
  renderClock(ui);
  renderStatus(card.querySelector<HTMLElement>('.status')!, pos, s.state);
  const hint = card.querySelector<HTMLElement>('.hint-box')!;
  hint.hidden = ui.hint === null;
  if (ui.hint) {
    const what = ui.hint.kind === 'engine' ? 'The engine plays' : 'Hint';
    const mate = ui.hint.mate;
    const evaluation =
      mate !== undefined ? (mate > 0 ? `mate in ${mate}` : `mated in ${-mate}`) : scoreText(ui.hint.score);
    hint.textContent = `${what}: ${noted(ui.hint)} (${evaluation}, depth ${ui.hint.depth})`;
  }
  renderAlerts(ui, card.querySelector<HTMLElement>('.alerts')!);
  renderMoves(card.querySelector<HTMLOListElement>('ol.moves')!, pos.startFen, s.moves);
  drawBoard(card.querySelector<SVGSVGElement>('svg.board')!, ui);
}

function noted(m: { iccs: string; wxf: string; zh: string }): string {
  return notation === 'iccs' ? m.iccs : notation === 'wxf' ? m.wxf : m.zh;
}

function renderResult(el: HTMLElement, result: ResultPayload | null, pos: PositionPayload): void {
  const text = result?.game === pos.game ? result.result : pos.result;
  const reason = result?.game === pos.game ? result.reason : pos.reason;
  el.hidden = text === '*' && pos.status !== 'over';
  const who =
    text === '1-0' ? 'Red wins' : text === '0-1' ? 'Black wins' : text === '1/2-1/2' ? 'Draw' : 'Ended';
  el.textContent = `${text} · ${who}${reason ? ` (${reason.replace(/_/g, ' ')})` : ''}`;
}

function renderClock(ui: BoardUi): void {
  const el = ui.card.querySelector<HTMLElement>('.clock')!;
  const clock = ui.snapshot.position.clock;
  el.hidden = !clock;
  if (!clock) return;
  const elapsed = ui.snapshot.position.status === 'playing' ? Date.now() - ui.clockAt : 0;
  for (const color of ['red', 'black'] as const) {
    const box = el.querySelector<HTMLElement>(`.${color}`)!;
    const ms = Math.max(0, clock[color] - (clock.running === color ? elapsed : 0));
    const total = Math.ceil(ms / 1000);
    box.textContent = `${color === 'red' ? '红' : '黑'} ${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
    box.classList.toggle('running', clock.running === color);
  }
}

const STATE_TEXT: Record<string, string> = {
  setup: 'Set the pieces up to start',
  awaiting_move: 'Waiting for a move',
  piece_lifted: 'A piece is lifted',
  pending_capture: 'A capture is under way',
  illegal: 'Illegal move on the board',
  out_of_sync: 'The board does not match the game',
  game_over: 'Game over',
};

function renderStatus(el: HTMLElement, pos: PositionPayload, state: StatePayload | null): void {
  const turn = document.createElement('span');
  turn.className = `turn-${pos.turn}`;
  turn.textContent = pos.turn === 'red' ? '红方 Red to move' : '黑方 Black to move';
  const parts: (string | Node)[] = [];
  if (pos.status === 'playing') parts.push(turn, pos.check ? ' · check!' : '');
  else parts.push(pos.status === 'setup' ? 'Setting up' : 'Game over');
  if (state && state.state !== 'awaiting_move') {
    let text = STATE_TEXT[state.state] ?? state.state;
    if (state.detail.lifted?.length) text += ` (${state.detail.lifted.join(', ')})`;
    if (state.detail.targets?.length) text += `; legal: ${state.detail.targets.join(', ')}`;
    if (state.detail.candidates?.length)
      text += `; candidates: ${state.detail.candidates.map((c) => c.join('→')).join(' or ')}`;
    parts.push(document.createElement('br'), text);
  }
  el.replaceChildren(...parts);
  el.dataset.state = state?.state ?? '';
}

function renderAlerts(ui: BoardUi, el: HTMLElement): void {
  el.replaceChildren(
    ...[...ui.alerts.values()].map((a) => {
      const div = document.createElement('div');
      div.className = `alert ${a.kind}`;
      div.dataset.kind = a.kind;
      if (a.kind === 'check') div.append('将军 · Check! ');
      if (a.from && a.to) {
        const strong = document.createElement('strong');
        strong.textContent = `${a.from}→${a.to}`;
        div.append(strong, ' ');
      }
      div.append(a.message ?? a.kind);
      const fixes = (a.corrections ?? []) as { text?: string }[];
      if (fixes.length > 0) {
        const ul = document.createElement('ul');
        for (const c of fixes) {
          const li = document.createElement('li');
          li.textContent = c.text ?? JSON.stringify(c);
          ul.append(li);
        }
        div.append(ul);
      }
      // Which sensor is dead the board cannot tell: the players, who know what they played, can.
      if (controls && a.sensors && a.candidates) div.append(candidateButtons(ui, a.candidates, a.sensors));
      return div;
    }),
  );
}

function candidateButtons(
  ui: BoardUi,
  candidates: readonly (readonly string[])[],
  sensors: readonly string[],
): HTMLElement {
  const p = document.createElement('p');
  p.className = 'candidates';
  p.append('It was: ');
  candidates.forEach((line, k) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.candidate = String(k);
    button.textContent = `${line.join(' ') || 'no move'} (${sensors[k]} dead)`;
    // (With its point: an answer to a doubt that has since ended is refused, not applied to the next.)
    button.addEventListener('click', () => void post(ui, 'resolve', { candidate: k, sensor: sensors[k] }));
    p.append(button, ' ');
  });
  return p;
}

function renderMoves(el: HTMLOListElement, startFen: string, moves: readonly string[]): void {
  const game = positionOf(startFen);
  const names: string[] = [];
  for (const iccs of moves) {
    const move = parseIccs(iccs);
    if (!game || !move.ok || !game.isLegal(move.value)) {
      names.push(iccs);
      continue;
    }
    names.push(makeMove(game, move.value, notation));
    game.play(move.value);
  }
  // Rows of a red move and a black one; a game may start with Black to move.
  const blackFirst = game !== undefined && positionOf(startFen)?.turn === 'black';
  const cells = blackFirst ? ['…', ...names] : names;
  const rows: HTMLLIElement[] = [];
  for (let i = 0; i < cells.length; i += 2) {
    const li = document.createElement('li');
    for (const [k, text] of [cells[i], cells[i + 1]].entries()) {
      if (text === undefined) continue;
      const span = document.createElement('span');
      span.textContent = text;
      span.className = k === 0 ? 'red-move' : 'black-move';
      if (i + k === cells.length - 1 && text !== '…') span.classList.add('last');
      li.append(span);
    }
    rows.push(li);
  }
  el.replaceChildren(...rows);
  el.dataset.notation = notation;
  el.scrollTop = el.scrollHeight;
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function drawBoard(root: SVGSVGElement, ui: BoardUi): void {
  const flipped = ui.flipped;
  const x = (file: number) => LEFT + (flipped ? 8 - file : file) * STEP;
  const y = (rank: number) => TOP + (flipped ? rank : 9 - rank) * STEP;
  const at = (sq: Square) => ({ cx: x(sq % 9), cy: y(Math.floor(sq / 9)) });
  const named = (name: string) => {
    const sq = parseSquare(name);
    return sq === undefined ? undefined : at(sq);
  };
  const s = ui.snapshot;
  const pos = positionOf(s.position.fen);
  const canPlay = playable(ui);
  const parts: SVGElement[] = [];

  // Wood, frame, grid.
  const defs = svg('defs', {});
  const grad = svg('radialGradient', { id: 'disc', cx: '40%', cy: '35%', r: '70%' });
  grad.append(
    svg('stop', { offset: '0%', 'stop-color': '#fff6e0' }),
    svg('stop', { offset: '100%', 'stop-color': '#e7c68e' }),
  );
  defs.append(grad);
  parts.push(defs, svg('rect', { class: 'wood', x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 14 }));
  parts.push(
    svg('rect', { class: 'frame', x: LEFT - 8, y: TOP - 8, width: STEP * 8 + 16, height: STEP * 9 + 16 }),
  );
  const grid = svg('g', { class: 'grid' });
  const line = (f1: number, r1: number, f2: number, r2: number) =>
    grid.append(svg('line', { x1: x(f1), y1: y(r1), x2: x(f2), y2: y(r2) }));
  for (let r = 0; r <= 9; r++) line(0, r, 8, r);
  for (let f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) line(f, 0, f, 9);
    else {
      line(f, 0, f, 4);
      line(f, 5, f, 9);
    }
  }
  for (const base of [0, 7]) {
    line(3, base, 5, base + 2);
    line(5, base, 3, base + 2);
  }
  // Corner marks of the cannons' and pawns' points.
  const marks: [number, number][] = [
    [1, 2],
    [7, 2],
    [1, 7],
    [7, 7],
    ...[0, 2, 4, 6, 8].flatMap((f): [number, number][] => [
      [f, 3],
      [f, 6],
    ]),
  ];
  for (const [f, r] of marks) {
    const cx = x(f);
    const cy = y(r);
    for (const dx of [-1, 1]) {
      if ((f === 0 && dx * (flipped ? -1 : 1) < 0) || (f === 8 && dx * (flipped ? -1 : 1) > 0)) continue;
      for (const dy of [-1, 1]) {
        const gx = cx + dx * 5;
        const gy = cy + dy * 5;
        grid.append(svg('path', { d: `M${gx + dx * 10},${gy} H${gx} V${gy + dy * 10}` }));
      }
    }
  }
  parts.push(grid);
  // The river's words stay where the viewer reads them: 楚河 on the left, 汉界 on the right.
  const riverY = (y(4) + y(5)) / 2;
  for (const [words, cx] of [
    ['楚河', LEFT + STEP * 2],
    ['汉界', LEFT + STEP * 6],
  ] as const) {
    const attrs = {
      class: 'river',
      x: cx,
      y: riverY,
      'text-anchor': 'middle',
      'dominant-baseline': 'central',
    };
    parts.push(svg('text', { ...attrs, textLength: 120, lengthAdjust: 'spacing' }, words));
  }
  // File numbers: Red counts from its right (一 at file i), Black from its right (1 at file a).
  const nearY = TOP + STEP * 9 + 38;
  const farY = TOP - 46;
  for (let f = 0; f <= 8; f++) {
    const redY = flipped ? farY : nearY;
    const blackY = flipped ? nearY : farY;
    parts.push(
      svg(
        'text',
        { class: 'label', x: x(f), y: redY, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
        RED_FILES[f]!,
      ),
    );
    parts.push(
      svg(
        'text',
        { class: 'label', x: x(f), y: blackY, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
        BLACK_FILES[f]!,
      ),
    );
    parts.push(
      svg('text', { class: 'label coord', x: x(f), y: nearY + 22, 'text-anchor': 'middle' }, 'abcdefghi'[f]!),
    );
  }
  for (let r = 0; r <= 9; r++) {
    parts.push(
      svg('text', { class: 'label coord', x: 14, y: y(r), 'dominant-baseline': 'central' }, String(r)),
    );
  }

  // Under the pieces: the last move, capture candidates.
  const last = s.position.lastMove ? parseIccs(s.position.lastMove) : undefined;
  if (last?.ok) {
    for (const sq of [last.value.from, last.value.to]) {
      const { cx, cy } = at(sq);
      parts.push(svg('rect', { class: 'last-move', x: cx - 29, y: cy - 29, width: 58, height: 58, rx: 8 }));
    }
  }

  // Points (click targets) and pieces.
  for (let sq = 0; sq < 90; sq++) {
    const { cx, cy } = at(sq);
    parts.push(
      svg('circle', {
        class: `point${canPlay ? ' playable' : ''}`,
        cx,
        cy,
        r: 28,
        'data-square': makeSquareName(sq),
      }),
    );
  }
  const state = s.state;
  const lifted = new Set(
    state?.state === 'piece_lifted' || state?.state === 'pending_capture' ? (state.detail.lifted ?? []) : [],
  );
  const checked = pos && s.position.check ? pos.kingSquare(pos.turn) : undefined;
  if (pos) {
    for (let sq = 0; sq < 90; sq++) {
      const piece = pos.pieceAt(sq);
      if (piece)
        parts.push(
          drawPiece(piece, sq, at(sq), {
            selected: ui.selected === sq,
            lifted: lifted.has(makeSquareName(sq)),
            inCheck: checked === sq,
            playable: canPlay && piece.color === pos.turn,
            ghost: s.position.status === 'setup',
          }),
        );
    }
  }

  // Over the pieces: targets, candidates, arrows.
  const targets = new Set<string>();
  if (ui.selected !== null && pos)
    for (const t of pos.legalDestinations(ui.selected)) targets.add(makeSquareName(t));
  else if (state?.state === 'piece_lifted') for (const t of state.detail.targets ?? []) targets.add(t);
  for (const name of targets) {
    const p = named(name);
    const sq = parseSquare(name);
    if (!p || sq === undefined) continue;
    parts.push(
      pos?.pieceAt(sq)
        ? svg('circle', { class: 'target capture', cx: p.cx, cy: p.cy, r: 28, 'data-target': name })
        : svg('circle', { class: 'target', cx: p.cx, cy: p.cy, r: 9, 'data-target': name }),
    );
  }
  if (state?.state === 'pending_capture') {
    for (const name of new Set((state.detail.candidates ?? []).flat())) {
      const p = named(name);
      if (p) parts.push(svg('circle', { class: 'candidate', cx: p.cx, cy: p.cy, r: 30 }));
    }
  }
  const arrow = (from: string, to: string, kind: string) => {
    const a = named(from);
    const b = named(to);
    if (!a || !b) return;
    const g = svg('g', { class: `arrow ${kind}` });
    const dx = b.cx - a.cx;
    const dy = b.cy - a.cy;
    const len = Math.hypot(dx, dy) || 1;
    const ux = dx / len;
    const uy = dy / len;
    const ex = b.cx - ux * 14;
    const ey = b.cy - uy * 14;
    g.append(
      svg('line', { x1: a.cx, y1: a.cy, x2: ex, y2: ey, class: `arrow ${kind}` }),
      svg('path', {
        d: `M${b.cx},${b.cy} L${ex - uy * 12 - ux * 8},${ey + ux * 12 - uy * 8} L${ex + uy * 12 - ux * 8},${ey - ux * 12 - uy * 8} Z`,
        class: `arrow ${kind} head`,
      }),
    );
    parts.push(g);
  };
  if (ui.hint) {
    const h = parseIccs(ui.hint.iccs);
    if (h.ok) arrow(makeSquareName(h.value.from), makeSquareName(h.value.to), 'hint');
  }
  for (const a of ui.alerts.values()) {
    if (a.kind === 'illegal_move' && a.from && a.to) arrow(a.from, a.to, 'illegal');
    for (const c of (a.corrections ?? []) as { kind?: string; from?: string; to?: string; at?: string }[]) {
      if (c.kind === 'move' && c.from && c.to) arrow(c.from, c.to, 'correction');
      else if (c.at) {
        const p = named(c.at);
        if (!p) continue;
        const d = 14;
        parts.push(
          c.kind === 'remove'
            ? svg('path', {
                class: 'mark remove',
                d: `M${p.cx - d},${p.cy - d} L${p.cx + d},${p.cy + d} M${p.cx + d},${p.cy - d} L${p.cx - d},${p.cy + d}`,
              })
            : svg('path', {
                class: 'mark add',
                d: `M${p.cx - d},${p.cy} H${p.cx + d} M${p.cx},${p.cy - d} V${p.cy + d}`,
              }),
        );
      }
    }
  }
  root.replaceChildren(...parts);
  root.setAttribute('aria-label', `board ${s.id}: ${s.position.fen}`);
}

function drawPiece(
  piece: Piece,
  sq: Square,
  { cx, cy }: { cx: number; cy: number },
  flags: { selected: boolean; lifted: boolean; inCheck: boolean; playable: boolean; ghost: boolean },
): SVGGElement {
  const classes = ['piece', piece.color];
  if (flags.selected) classes.push('selected');
  if (flags.lifted) classes.push('lifted');
  if (flags.inCheck) classes.push('in-check');
  if (flags.playable) classes.push('playable');
  // Setting up: where the pieces are to go, not where they are.
  if (flags.ghost) classes.push('ghost');
  const g = svg('g', {
    class: classes.join(' '),
    transform: `translate(${cx} ${cy})`,
    'data-square': makeSquareName(sq),
    'data-piece': `${piece.color} ${piece.role}`,
  });
  g.append(
    svg('circle', { class: 'disc', r: 26 }),
    svg('circle', { class: 'ring', r: 22 }),
    svg('text', { y: 1 }, GLYPH[piece.color][piece.role]),
  );
  return g;
}

// --- start --------------------------------------------------------------------------------------

function setNotation(n: NotationName): void {
  notation = n;
  localStorage.setItem('xqboard.notation', n);
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-notation]')) {
    b.setAttribute('aria-pressed', String(b.dataset.notation === n));
  }
  for (const ui of boards.values()) render(ui);
}

document.querySelector('.notation')!.addEventListener('click', (e) => {
  const n = (e.target as Element).closest<HTMLButtonElement>('[data-notation]')?.dataset.notation;
  if (n === 'iccs' || n === 'wxf' || n === 'chinese') setNotation(n);
});
setNotation(notation);
setInterval(() => {
  for (const ui of boards.values()) if (ui.snapshot.position.clock) renderClock(ui);
}, 250);
void loadSession();
void loadBoards().then(connect, (e: unknown) => {
  document.getElementById('connection')!.textContent = `cannot reach the controller: ${String(e)}`;
  setTimeout(() => location.reload(), 2000);
});

/** An engine score as players read it: pawns with a sign, or a mate in so many moves. */
function scoreText(centipawns: number): string {
  if (Math.abs(centipawns) >= 29000) {
    const plies = 30000 - Math.abs(centipawns);
    return `${centipawns > 0 ? 'mates' : 'mated'} in ${Math.ceil(plies / 2)}`;
  }
  const pawns = centipawns / 100;
  return `${pawns > 0 ? '+' : ''}${pawns.toFixed(1)}`;
}
