/**
 * The web view, a controller extension: a node:http server with the page (dist/web/, built from
 * src/web/page/ by scripts/build.mjs), GET /api/boards (every board's retained payloads), GET
 * /events (Server-Sent Events carrying the controller's feed: the MQTT contract's payloads with
 * the same `seq`, see events.ts) and requests: POST /api/request/<name> for any request of the
 * contract, and the page's POST /api/boards/:id/simulate | hint | new. All go to the controller's
 * request API (src/controller/requests.ts), so they answer as MQTT does; a bad body is answered
 * 400 with `{status:"error", error}` naming the field, never a crash.
 *
 * Like the embedded MQTT broker it listens on every interface by default (`web.host`): a tablet
 * beside the board shows the page. Reading is open to whoever reaches it; every POST (the
 * controls) needs a login with the rights for that request (auth.ts: the token printed at start,
 * or a configured name and password, POST /api/login) and the page's own origin, and is
 * rate-limited per address. A port in use is a coded error naming `web.port`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControllerContext, Extension } from '../controller/extension.js';
import type { FeedMessage } from '../controller/feed.js';
import { RATE_LIMITED, type RateLimiter } from '../controller/limits.js';
import { httpStatusOf, performRequest, responseOf } from '../controller/requests.js';
import { type AccessList, type Account, mayRequest, SIDED_REQUESTS, type Side } from '../mqtt/access.js';
import type { RequestName, ResponsePayload } from '../mqtt/contract.js';
import { positionPayload } from '../mqtt/payloads.js';
import { type CodedError, err, ok, type Result } from '../util/result.js';
import { WebAuth } from './auth.js';
import type { BoardSnapshot, BoardsResponse } from './events.js';
import { LivePgn } from './live-pgn.js';

export type WebServerErrorCode = 'port_in_use' | 'listen_failed';
export interface WebServerError extends CodedError<WebServerErrorCode> {
  readonly port: number;
  readonly key: 'web.port';
}

export interface WebServerOptions {
  /** 0 picks a free port. */
  readonly port: number;
  /** Interface to listen on (default: all, as the embedded MQTT broker). */
  readonly host?: string;
  /** Where index.html, style.css and app.js are (default: the package's dist/web). */
  readonly assetsDir?: string;
  readonly version?: string;
  /** Who may use the controls (absent: everyone may, the tests of the page alone). */
  readonly access?: AccessList;
  /** Requests per address. */
  readonly limiter?: RateLimiter;
  /** What the viewer page (viewer.html) reads from `viewer.json`: the broker's WebSocket port, the public base. */
  readonly viewer?: { readonly wsPort?: number; readonly base: string };
}

export interface WebAddress {
  readonly port: number;
}

const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.js.map': { file: 'app.js.map', type: 'application/json; charset=utf-8' },
  '/viewer.html': { file: 'viewer.html', type: 'text/html; charset=utf-8' },
  '/viewer.js': { file: 'viewer.js', type: 'text/javascript; charset=utf-8' },
};

const BODY_LIMIT = 16 * 1024;
const PING_MS = 15_000;

/** What each POST route does, and the contract request whose schema checks its body. */
const ACTIONS = {
  simulate: 'board/simulate',
  hint: 'game/hint',
  new: 'game/new',
  resolve: 'game/resolve',
  correct: 'game/correct',
} as const satisfies Record<string, RequestName>;

type Answer = { status: number; body: ResponsePayload };
const failure = (status: number, error: string, code?: string): Answer => ({
  status,
  body: { data: {}, status: 'error', error, ...(code !== undefined ? { code } : {}), transaction: null },
});

export class WebServer implements Extension {
  readonly name = 'web';
  private server: Server | undefined;
  private readonly streams = new Set<ServerResponse>();
  private unsubscribeFeed: (() => void) | undefined;
  private ping: NodeJS.Timeout | undefined;
  private eventId = 0;
  private readonly auth: WebAuth | undefined;
  private readonly livePgn: LivePgn | undefined;

  constructor(
    private readonly context: ControllerContext,
    private readonly options: WebServerOptions,
  ) {
    const feed = context.publicFeed;
    this.livePgn = feed && new LivePgn(feed, () => [...context.sessions.keys()], context.metadata);
    this.auth = options.access ? new WebAuth(options.access) : undefined;
    if (this.auth) this.auth.onFailure = (m) => context.logger.warn(m);
  }

  /** The token printed at start: an arbiter's rights on the page (`/#token=…`). */
  get token(): string | undefined {
    return this.auth?.token;
  }

  /** Opens the port (before the boards start, so a port in use stops the controller early). */
  async listen(): Promise<Result<WebAddress, WebServerError>> {
    const server = createServer((req, res) => this.route(req, res));
    const port = this.options.port;
    return new Promise((resolve) => {
      const onError = (e: NodeJS.ErrnoException) => {
        server.close();
        resolve(
          e.code === 'EADDRINUSE'
            ? err({
                code: 'port_in_use',
                port,
                key: 'web.port',
                message: `port ${port} (web.port) is already in use by another program (another xqboard?)`,
              })
            : err({
                code: 'listen_failed',
                port,
                key: 'web.port',
                message: `cannot listen on port ${port} (web.port): ${e.message}`,
              }),
        );
      };
      server.once('error', onError);
      server.listen(port, this.options.host, () => {
        server.off('error', onError);
        server.on('error', (e) => this.context.logger.warn(`web: ${e.message}`));
        this.server = server;
        const address = server.address();
        resolve(ok({ port: typeof address === 'object' && address ? address.port : port }));
      });
    });
  }

  /** Starts following the bus (the port is opened by `listen`, or here if it was not). */
  async start(): Promise<void> {
    if (!this.server) {
      const opened = await this.listen();
      if (!opened.ok) {
        this.context.logger.error(`web: ${opened.error.message}`);
        return;
      }
    }
    this.unsubscribeFeed = this.context.feed.subscribe((m) => {
      for (const res of this.streams) this.write(res, m);
    });
    this.ping = setInterval(() => {
      for (const res of this.streams) res.write(': ping\n\n');
    }, PING_MS);
    this.ping.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = undefined;
    if (this.ping) clearInterval(this.ping);
    for (const res of this.streams) res.end();
    this.streams.clear();
    const server = this.server;
    this.server = undefined;
    if (server) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    }
  }

  // --- routes -----------------------------------------------------------------------------------

  private route(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    try {
      const reading = req.method === 'GET' || req.method === 'HEAD';
      const streaming = req.method === 'GET' && path === '/events';
      const asset = ASSETS[path];
      const action = /^\/api\/boards\/([^/]+)\/([a-z]+)$/.exec(path);
      const request = /^\/api\/(?:request\/(.+)|(login))$/.exec(path);
      if (streaming) this.events(req, res);
      else if (reading && this.livePgn && LivePgn.handles(path)) this.livePgn.serve(req, res, path);
      else if (reading && path === '/api/boards') this.json(res, { status: 200, body: this.boards() });
      else if (reading && path === '/api/session') void this.session(req).then((a) => this.json(res, a));
      else if (reading && path === '/viewer.json')
        this.json(res, { status: 200, body: this.options.viewer ?? {} });
      else if (reading && asset) this.asset(res, asset);
      else if ((action || request) && req.method !== 'POST') {
        res.setHeader('allow', 'POST');
        this.json(res, failure(405, `${req.method} ${path}: use POST`));
      } else if (action) this.action(req, res, action[2]!, safeDecode(action[1]!));
      else if (request) this.action(req, res, request[2] ? '/login' : safeDecode(request[1]!), undefined);
      else this.json(res, failure(404, `${req.method} ${path}: no such page`));
    } catch (e) {
      // A bug answers 500; the controller goes on.
      this.context.logger.error(`web: ${req.method} ${path}: ${(e as Error).stack ?? e}`);
      if (!res.headersSent) this.json(res, failure(500, `internal error: ${(e as Error).message}`));
      else res.end();
    }
  }

  private boards(): BoardsResponse {
    return {
      version: this.options.version ?? '0.0.0',
      boards: this.context.config.boards.flatMap((b) => {
        const session = this.context.sessions.get(b.id);
        if (!session) return [];
        const feed = this.context.feed;
        const view = session.view();
        const snapshot: BoardSnapshot = {
          id: b.id,
          driver: b.source.driver,
          sensing: b.source.sensing ?? 'occupancy',
          simulated: session.simulator !== undefined,
          availability: feed.last(b.id, 'availability') ?? null,
          // The session's game now, numbered as last published.
          position: { ...positionPayload(view), seq: feed.seqOf(b.id, 'position') },
          moves: view.moves,
          state: feed.last(b.id, 'state') ?? null,
          result: feed.last(b.id, 'result') ?? null,
          alerts: feed.activeAlerts(b.id),
        };
        return [snapshot];
      }),
    };
  }

  private events(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // Reconnect soon after a restart; then the retained payloads, as MQTT gives a new subscriber.
    res.write('retry: 1000\n\n');
    for (const m of this.context.feed.retained()) this.write(res, m);
    this.streams.add(res);
    req.on('close', () => this.streams.delete(res));
  }

  /** One feed message as an event (the page keeps its own move list: no PGN, no records). */
  private write(res: ServerResponse, m: FeedMessage): void {
    if (m.topic === 'pgn' || m.topic === 'moves') return;
    this.eventId++;
    res.write(
      `id: ${this.eventId}\nevent: ${m.topic}\ndata: ${JSON.stringify({ board: m.board, payload: m.payload })}\n\n`,
    );
  }

  private asset(res: ServerResponse, asset: { file: string; type: string }): void {
    const dir = this.options.assetsDir ?? defaultAssetsDir();
    const path = join(dir, asset.file);
    if (!existsSync(path)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`xqboard: the web page is not built (${path} is missing): run npm run build\n`);
      return;
    }
    res.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache' });
    res.end(readFileSync(path));
  }

  /** A POST: `name` is a route of the page (`simulate`…) or a request name; `board` the URL's. */
  private action(req: IncomingMessage, res: ServerResponse, name: string, board: string | undefined): void {
    let size = 0;
    const chunks: Buffer[] = [];
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (tooLarge)
        return this.json(res, failure(413, `the request body is larger than ${BODY_LIMIT} bytes`));
      void this.perform(req, name, board, Buffer.concat(chunks).toString('utf8')).then((answer) =>
        this.json(res, answer),
      );
    });
  }

  /** `GET /api/session`: who the page is logged in as (a token no longer valid: 401). */
  private async session(req: IncomingMessage): Promise<Answer> {
    const who = await this.auth?.who(req);
    if (who && !who.ok) return failure(who.status, who.error, 'unauthorized');
    const account = who?.account ?? { name: null, role: 'arbiter' };
    return { status: 200, body: { data: sessionView(account), status: 'ok', transaction: null } };
  }

  /** `POST /api/login` `{"name","password"}`: a token for the page. */
  private async login(req: IncomingMessage, body: string): Promise<Answer> {
    if (!this.auth) return failure(404, 'no logins: the controls are open');
    const { name, password } = (looseJson(body) ?? {}) as { name?: unknown; password?: unknown };
    if (typeof name !== 'string' || typeof password !== 'string') {
      return failure(400, 'give "name" and "password" (strings)', 'bad_request');
    }
    const r = await this.auth.login(req, name, password);
    if (!r.ok) return failure(r.status, r.error, 'unauthorized');
    return {
      status: 200,
      body: { data: { token: r.token, ...sessionView(r.account) }, status: 'ok', transaction: null },
    };
  }

  /** Only the page's own origin, with a login that has the rights, within the rate. */
  private async allowed(req: IncomingMessage, request: string, board: string | undefined, body: string) {
    const auth = this.auth;
    if (!auth) return { ok: true as const, side: undefined };
    const origin = auth.sameOrigin(req);
    if (!origin.ok) return { ok: false as const, answer: failure(403, origin.error, 'forbidden') };
    const who = await auth.who(req);
    if (!who.ok) return { ok: false as const, answer: failure(who.status, who.error, 'unauthorized') };
    const account = who.account;
    const json = (looseJson(body) ?? {}) as { board?: unknown; side?: unknown };
    const only = this.context.sessions.size === 1 ? [...this.context.sessions.keys()][0] : undefined;
    const onBoard = board ?? (typeof json.board === 'string' ? json.board : only);
    const asked = json.side === 'red' || json.side === 'black' ? (json.side as Side) : undefined;
    // A player's draw and resign are for its side when the request does not say.
    const side =
      asked ?? (SIDED_REQUESTS.has(request) && account.role === 'player' ? account.side : undefined);
    if (
      !mayRequest(account, {
        name: request,
        ...(onBoard ? { board: onBoard } : {}),
        ...(side ? { side } : {}),
      })
    ) {
      const answer = who.login
        ? failure(
            403,
            `${account.name ?? 'this login'} (${account.role}) may not ${request}${onBoard ? ` on ${onBoard}` : ''}`,
            'forbidden',
          )
        : failure(401, `log in to ${request} (the controls need an arbiter's login)`, 'unauthorized');
      return { ok: false as const, answer };
    }
    if (this.options.limiter && !this.options.limiter.take(`web:${req.socket.remoteAddress}`)) {
      return { ok: false as const, answer: failure(429, RATE_LIMITED.message, RATE_LIMITED.code) };
    }
    return { ok: true as const, side: asked === undefined ? side : undefined };
  }

  private async perform(
    req: IncomingMessage,
    name: string,
    board: string | undefined,
    body: string,
  ): Promise<Answer> {
    if (name === '/login') {
      const origin = this.auth?.sameOrigin(req);
      if (origin && !origin.ok) return failure(403, origin.error, 'forbidden');
      return this.login(req, body);
    }
    let request: string = name;
    if (board !== undefined) {
      if (!Object.hasOwn(ACTIONS, name)) {
        return failure(404, `no action "${name}"; actions: ${Object.keys(ACTIONS).join(', ')}`);
      }
      request = ACTIONS[name as keyof typeof ACTIONS];
    }
    const allowed = await this.allowed(req, request, board, body);
    if (!allowed.ok) return allowed.answer;
    const { result, transaction } = await performRequest(this.context, request, body, board, allowed.side);
    if (!result.ok && result.error.code === 'internal') {
      this.context.logger.error(`web: POST ${name}: ${result.error.message}`);
    }
    return { status: httpStatusOf(result), body: responseOf(result, transaction) };
  }

  private json(res: ServerResponse, answer: { status: number; body: unknown }): void {
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-cache',
    });
    res.end(JSON.stringify(answer.body));
  }
}

function sessionView(account: Account) {
  return {
    name: account.name,
    role: account.role,
    ...(account.board !== undefined ? { board: account.board } : {}),
    ...(account.side !== undefined ? { side: account.side } : {}),
  };
}

/** A body read only to see who it is for (the request's own schema checks it afterwards). */
function looseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A board id from the URL; a malformed escape is kept as is (and names no board). */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The package's dist/web, found from this module (src/web/ in tests, dist/chunks/ when built). */
function defaultAssetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return join(dir, 'dist', 'web');
}
