/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The viewer page: a static page that reads the public MQTT mirror (`<public>/<board>/…`, see
 * publicTopics in src/mqtt/contract.ts) from any broker over WebSocket, so a broadcast is served
 * by the broker, not the controller. `viewer.html?broker=wss://host/mqtt&base=xqboard/public`
 * shows every board of the event (small live boards, players, clocks, results);
 * `&board=<id>` shows one board with its moves. Served by the controller, it finds the embedded
 * broker's WebSocket port in `viewer.json`. Works at 390 px wide.
 */
import mqtt from 'mqtt';
import type { PublicGamePayload, PublicMovePayload, PublicStatusPayload } from '../../mqtt/contract.js';
import { type Color, makeSquareName, parseFen, parseSquare } from '../../rules/index.js';
import { GLYPH } from './glyphs.js';

interface BoardView {
  readonly id: string;
  game?: PublicGamePayload;
  status?: PublicStatusPayload;
  /** When `status` arrived (the running clock counts down from it). */
  statusAt: number;
  availability?: { state: string };
  readonly moves: Map<number, PublicMovePayload>;
}

const params = new URLSearchParams(location.search);
const boards = new Map<string, BoardView>();
const only = params.get('board');
let dirty = false;

async function settings(): Promise<{ broker: string; base: string }> {
  let served: { wsPort?: number; base?: string } = {};
  if (!params.get('broker') || !params.get('base')) {
    // Served by the controller: it says where its broker's WebSocket is.
    served = await fetch('viewer.json')
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}));
  }
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const broker =
    params.get('broker') ??
    (served.wsPort
      ? `${scheme}://${location.hostname}:${served.wsPort}`
      : `${scheme}://${location.host}/mqtt`);
  return { broker, base: params.get('base') ?? served.base ?? 'xqboard/public' };
}

function boardOf(id: string): BoardView {
  let b = boards.get(id);
  if (!b) {
    b = { id, statusAt: 0, moves: new Map() };
    boards.set(id, b);
  }
  return b;
}

function onMessage(base: string, topic: string, payload: Uint8Array): void {
  const rest = topic.slice(base.length + 1).split('/');
  const [id, kind, ply] = rest;
  if (!id || !kind) return;
  const text = new TextDecoder().decode(payload);
  const b = boardOf(id);
  try {
    if (kind === 'moves' && ply) {
      if (text === '') b.moves.delete(Number(ply));
      else b.moves.set(Number(ply), JSON.parse(text) as PublicMovePayload);
    } else if (text === '') return;
    else if (kind === 'game') b.game = JSON.parse(text) as PublicGamePayload;
    else if (kind === 'status') {
      b.status = JSON.parse(text) as PublicStatusPayload;
      b.statusAt = Date.now();
    } else if (kind === 'availability') b.availability = JSON.parse(text) as { state: string };
  } catch {
    return;
  }
  schedule();
}

/** The moves of the current game, 1..n without a gap. */
function movesOf(b: BoardView): PublicMovePayload[] {
  const out: PublicMovePayload[] = [];
  const game = b.status?.game ?? b.game?.game;
  for (let ply = 1; ; ply++) {
    const m = b.moves.get(ply);
    if (!m || m.game !== game) break;
    out.push(m);
  }
  return out;
}

// --- drawing ----------------------------------------------------------------------------------

const STEP = 40;
const PAD = 24;
const W = PAD * 2 + STEP * 8;
const H = PAD * 2 + STEP * 9;

function boardSvg(fen: string, last: string | null, small: boolean): string {
  const x = (f: number) => PAD + f * STEP;
  const y = (r: number) => PAD + (9 - r) * STEP;
  const parts: string[] = [
    `<rect class="wood" x="0" y="0" width="${W}" height="${H}" rx="8"/>`,
    '<g class="grid">',
  ];
  for (let r = 0; r <= 9; r++) parts.push(`<line x1="${x(0)}" y1="${y(r)}" x2="${x(8)}" y2="${y(r)}"/>`);
  for (let f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) parts.push(`<line x1="${x(f)}" y1="${y(0)}" x2="${x(f)}" y2="${y(9)}"/>`);
    else {
      parts.push(`<line x1="${x(f)}" y1="${y(0)}" x2="${x(f)}" y2="${y(4)}"/>`);
      parts.push(`<line x1="${x(f)}" y1="${y(5)}" x2="${x(f)}" y2="${y(9)}"/>`);
    }
  }
  for (const b of [0, 7]) {
    parts.push(`<line x1="${x(3)}" y1="${y(b)}" x2="${x(5)}" y2="${y(b + 2)}"/>`);
    parts.push(`<line x1="${x(5)}" y1="${y(b)}" x2="${x(3)}" y2="${y(b + 2)}"/>`);
  }
  parts.push('</g>');
  if (last && last.length === 4) {
    for (const name of [last.slice(0, 2), last.slice(2)]) {
      const sq = parseSquare(name);
      if (sq !== undefined)
        parts.push(`<circle class="last" cx="${x(sq % 9)}" cy="${y(Math.floor(sq / 9))}" r="19"/>`);
    }
  }
  const setup = parseFen(fen);
  if (setup.ok) {
    setup.value.board.forEach((p, sq) => {
      if (!p) return;
      const cx = x(sq % 9);
      const cy = y(Math.floor(sq / 9));
      parts.push(
        `<g class="piece ${p.color}" data-square="${makeSquareName(sq)}"><circle class="disc" cx="${cx}" cy="${cy}" r="17"/>` +
          `<circle class="ring" cx="${cx}" cy="${cy}" r="14"/>` +
          (small ? '' : `<text x="${cx}" y="${cy}">${GLYPH[p.color][p.role]}</text>`) +
          '</g>',
      );
    });
  }
  return `<svg class="vboard${small ? ' small' : ''}" viewBox="0 0 ${W} ${H}" role="img" aria-label="board">${parts.join('')}</svg>`;
}

const html = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function player(b: BoardView, side: Color): string {
  const p = b.game?.meta[side];
  if (!p) return `<span class="player ${side}">?</span>`;
  const extra = [p.rating, p.team].filter((v) => v !== undefined).join(', ');
  return `<span class="player ${side}">${html(p.name)}${extra ? ` <small>(${html(String(extra))})</small>` : ''}</span>`;
}

function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

function clocks(b: BoardView): string {
  const c = b.status?.clock;
  if (!c) return '';
  const left = (side: Color) =>
    c[side] - (c.running === side && b.status?.status === 'playing' ? Date.now() - b.statusAt : 0);
  return `<div class="vclocks">${(['red', 'black'] as const)
    .map(
      (side) =>
        `<span class="vclock ${side}${c.running === side ? ' running' : ''}" data-side="${side}">${clockText(left(side))}</span>`,
    )
    .join('')}</div>`;
}

function resultText(b: BoardView): string {
  const s = b.status;
  if (!s) return 'waiting…';
  if (s.status === 'over')
    return `${s.result}${b.game?.reason ? ` (${b.game.reason.replace(/_/g, ' ')})` : ''}`;
  if (s.status === 'setup') return 'setting up';
  return `${s.turn === 'red' ? 'Red' : 'Black'} to move${s.check ? ', check' : ''}`;
}

function link(id: string | null): string {
  const q = new URLSearchParams(params);
  if (id === null) q.delete('board');
  else q.set('board', id);
  return `?${q.toString()}`;
}

const order = (a: BoardView, b: BoardView): number =>
  (a.game?.meta.number ?? 1e9) - (b.game?.meta.number ?? 1e9) || a.id.localeCompare(b.id);

function render(): void {
  dirty = false;
  const main = document.getElementById('main')!;
  const list = [...boards.values()].filter((b) => b.game || b.status).sort(order);
  const event = list.find((b) => b.game?.meta.event)?.game?.meta;
  document.getElementById('event')!.textContent = event
    ? [event.event, event.site, event.round ? `round ${event.round}` : ''].filter(Boolean).join(' · ')
    : '';
  if (only) {
    const b = boards.get(only);
    main.className = 'vsingle';
    if (!b) {
      main.innerHTML = `<p class="vwait">Waiting for board ${html(only)}…</p>`;
      return;
    }
    const moves = movesOf(b);
    const rows: string[] = [];
    for (let i = 0; i < moves.length; i += 2) {
      const red = moves[i]!;
      const black = moves[i + 1];
      rows.push(
        `<li><span class="n">${i / 2 + 1}.</span> <span data-iccs="${red.iccs}">${html(red.zh)}</span>` +
          (black ? ` <span data-iccs="${black.iccs}">${html(black.zh)}</span>` : '') +
          '</li>',
      );
    }
    main.innerHTML =
      `<a class="back" href="${link(null)}">← all boards</a>` +
      `<section class="vboardpage" data-board="${html(b.id)}" data-ply="${moves.length}">` +
      `<h2>Board ${b.game?.meta.number ?? html(b.id)}</h2>` +
      `<div class="players">${player(b, 'black')}</div>` +
      boardSvg(b.status?.fen ?? b.game?.startFen ?? '', b.status?.lastMove ?? null, false) +
      `<div class="players">${player(b, 'red')}</div>` +
      clocks(b) +
      `<p class="vresult">${html(resultText(b))}</p>` +
      `<ol class="vmoves">${rows.join('')}</ol></section>`;
    return;
  }
  main.className = 'voverview';
  main.innerHTML = list
    .map((b) => {
      const moves = movesOf(b);
      const last = moves.at(-1);
      return (
        `<a class="vcard" href="${link(b.id)}" data-board="${html(b.id)}" data-ply="${moves.length}">` +
        `<div class="vtitle">Board ${b.game?.meta.number ?? html(b.id)}${b.availability?.state === 'offline' ? ' <em>offline</em>' : ''}</div>` +
        `<div class="players">${player(b, 'red')}${player(b, 'black')}</div>` +
        boardSvg(b.status?.fen ?? b.game?.startFen ?? '', b.status?.lastMove ?? null, true) +
        clocks(b) +
        `<div class="vlast">${last ? `${last.ply}. ${html(last.zh)}` : ''} <span class="vresult">${html(resultText(b))}</span></div>` +
        '</a>'
      );
    })
    .join('');
}

function schedule(): void {
  if (dirty) return;
  dirty = true;
  requestAnimationFrame(render);
}

async function main(): Promise<void> {
  const { broker, base } = await settings();
  const state = document.getElementById('connection')!;
  const client = mqtt.connect(broker, { protocolVersion: 4, reconnectPeriod: 2000, clean: true });
  client.on('connect', () => {
    state.textContent = 'live';
    state.className = 'connection live';
    client.subscribe(only ? `${base}/${only}/#` : `${base}/#`, { qos: 1 });
  });
  client.on('close', () => {
    state.textContent = 'reconnecting…';
    state.className = 'connection down';
  });
  client.on('message', (topic, payload) => onMessage(base, topic, payload));
  // Running clocks count down between messages.
  setInterval(() => {
    for (const b of boards.values()) if (b.status?.clock?.running) return schedule();
  }, 1000);
}

void main();
