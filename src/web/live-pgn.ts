/**
 * Live PGN over HTTP, as broadcast relays poll it: `GET /boards/<id>/live.pgn` (one board's game)
 * and `GET /event/live.pgn` (every board, by board number, one game after another), as the public
 * sees them (the broadcast delay applies). Each answer has an `ETag`; a poll with that tag in
 * `If-None-Match` is answered 304 with no body, so polling between moves costs nothing.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DelayedFeed } from '../broadcast/delay.js';
import type { EventMetadata } from '../broadcast/metadata.js';

const BOARD_PGN = /^\/boards\/([^/]+)\/live\.pgn$/;
const EVENT_PGN = '/event/live.pgn';

export class LivePgn {
  /** Per board: the PGN text the tag was made of, and the tag. */
  private readonly tags = new Map<string, { text: string; etag: string }>();

  constructor(
    private readonly feed: DelayedFeed,
    private readonly boardIds: () => readonly string[],
    private readonly metadata?: EventMetadata,
  ) {}

  /** Whether `path` is a live PGN route. */
  static handles(path: string): boolean {
    return path === EVENT_PGN || BOARD_PGN.test(path);
  }

  serve(req: IncomingMessage, res: ServerResponse, path: string): void {
    let body: { text: string; etag: string } | undefined;
    if (path === EVENT_PGN) body = this.event();
    else {
      const id = decodeURIComponent(BOARD_PGN.exec(path)![1]!);
      body = this.board(id);
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`no board "${id}"; boards: ${this.boardIds().join(', ')}\n`);
        return;
      }
    }
    const headers = {
      etag: body.etag,
      'cache-control': 'no-cache',
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag',
    };
    if (etagMatches(req.headers['if-none-match'], body.etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': 'application/x-chess-pgn; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : body.text);
  }

  /** A board's PGN as the public sees it now; undefined for a board that does not exist. */
  board(id: string): { text: string; etag: string } | undefined {
    if (!this.boardIds().includes(id)) return undefined;
    const text = this.feed.last(id, 'pgn') ?? '';
    const known = this.tags.get(id);
    if (known?.text === text) return known;
    const made = { text, etag: `"${createHash('sha1').update(text).digest('base64url')}"` };
    this.tags.set(id, made);
    return made;
  }

  /** Every board's PGN, by board number (then id), a blank line between games. */
  event(): { text: string; etag: string } {
    const number = (id: string): number => this.metadata?.of(id).number ?? Number.MAX_SAFE_INTEGER;
    const ids = [...this.boardIds()].sort((a, b) => number(a) - number(b) || a.localeCompare(b));
    const parts = ids.flatMap((id) => {
      const b = this.board(id);
      return b && b.text !== '' ? [b] : [];
    });
    const text = parts.map((p) => p.text).join('\n');
    const etag = `"${createHash('sha1')
      .update(parts.map((p) => p.etag).join(','))
      .digest('base64url')}"`;
    return { text, etag };
  }
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}
