/**
 * Event metadata: the event, site and round of every board of this controller, and per board its
 * number and players. From the configuration first; an arbiter's `event/meta` request changes it
 * while the controller runs (the game under way gets it too: PGN tags, the retained `position`,
 * the page, the archive through its journal).
 */
import type { BoardConfig, EventConfig } from '../config/schema.js';
import type { BoardMeta, PlayerMeta, RequestPayload } from '../mqtt/contract.js';

export type MetaRequest = Omit<RequestPayload<'event/meta'>, 'transaction' | 'board'>;

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export class EventMetadata {
  private event: { event?: string; site?: string; round?: string };
  private readonly boards = new Map<string, { number?: number; red?: PlayerMeta; black?: PlayerMeta }>();
  private readonly listeners = new Set<(board: string, meta: BoardMeta) => void>();

  constructor(event: EventConfig, boards: readonly BoardConfig[]) {
    this.event = compact({ event: event.name, site: event.site, round: event.round });
    for (const b of boards) this.boards.set(b.id, compact({ number: b.number, red: b.red, black: b.black }));
  }

  /** A board's metadata now. */
  of(board: string): BoardMeta {
    return compact({ ...this.event, ...this.boards.get(board) });
  }

  /** Called with each board whose metadata changed; returns the unsubscribe. */
  onChange(listener: (board: string, meta: BoardMeta) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Applies a request: event fields for every board, board fields for `board`. */
  set(board: string, request: MetaRequest): BoardMeta {
    const changed = new Set<string>();
    const { event, site, round } = request;
    if (event !== undefined || site !== undefined || round !== undefined) {
      this.event = { ...this.event, ...compact({ event, site, round }) };
      for (const id of this.boards.keys()) changed.add(id);
    }
    if (request.number !== undefined || request.red !== undefined || request.black !== undefined) {
      const own = { ...this.boards.get(board) };
      if (request.number !== undefined) own.number = request.number;
      for (const side of ['red', 'black'] as const) {
        const p = request[side];
        if (p === null) delete own[side];
        else if (p !== undefined) own[side] = compact(p);
      }
      this.boards.set(board, own);
      changed.add(board);
    }
    for (const id of changed) for (const l of [...this.listeners]) l(id, this.of(id));
    return this.of(board);
  }
}

/** The PGN tags of a board's metadata (xqbase names); what is not known is left out. */
export function pgnTags(meta: BoardMeta): Record<string, string> {
  const tags: Record<string, string> = {};
  if (meta.event !== undefined) tags.Event = meta.event;
  if (meta.site !== undefined) tags.Site = meta.site;
  if (meta.round !== undefined) tags.Round = meta.round;
  if (meta.red) tags.Red = meta.red.name;
  if (meta.black) tags.Black = meta.black.name;
  for (const [side, name] of [
    ['red', 'Red'],
    ['black', 'Black'],
  ] as const) {
    const p = meta[side];
    if (p?.rating !== undefined) tags[`${name}Elo`] = String(p.rating);
    if (p?.team !== undefined) tags[`${name}Team`] = p.team;
  }
  if (meta.number !== undefined) tags.BoardNumber = String(meta.number);
  return tags;
}
