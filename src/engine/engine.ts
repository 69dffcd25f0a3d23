/**
 * One engine interface for every engine xqboard drives: a position given as the game's start and
 * its moves (so the engine sees repetitions), limits by time, depth or nodes, cancellation. One
 * client speaks both protocols: UCI (Fairy-Stockfish, Pikafish) and UCCI (ElephantEye and the
 * engines that speak it); the engine behind it is a process (transport.ts) or the embedded
 * Fairy-Stockfish WebAssembly in a worker thread (fairy.ts).
 *
 * Searches are queued, one at a time. An engine that dies is started again and the search it was
 * doing is tried once more; one that does not answer in time is stopped, then killed (restarted on
 * the next search). Each of those is reported (`onEvent`) so the controller can raise an alert.
 *
 * Starting is not a search: a slow start (the WebAssembly engine compiles and sets itself up on a
 * busy machine) is waited for. A search that comes while the engine starts waits for it up to
 * `startMs`, then answers `engine_starting` (ask again) while the start goes on; only a start that
 * has not finished in `startLimitMs` is taken for a hung engine and killed (tried again on the
 * next search).
 */

export type Dialect = 'uci' | 'ucci';

export interface SearchLimits {
  /** Think this long (ms). */
  readonly movetimeMs?: number;
  readonly depth?: number;
  readonly nodes?: number;
  /** UCI `Skill Level` (0–20) for this search; engines without the option ignore it. */
  readonly skill?: number;
}

export interface SearchRequest {
  /** The game's start position (FEN). */
  readonly fen: string;
  /** The game's moves so far, ICCS. */
  readonly moves: readonly string[];
  readonly limits: SearchLimits;
  /** Aborting stops the search (the engine is told `stop`); the result is then `cancelled`. */
  readonly signal?: AbortSignal;
}

/** The engine's evaluation for the side to move: centipawns, or mate in `mate` moves (negative: mated). */
export type Score = { readonly cp: number } | { readonly mate: number };

export interface SearchResult {
  /** ICCS; undefined when the side to move has no move (`bestmove (none)`, `nobestmove`). */
  readonly move: string | undefined;
  readonly score: Score | undefined;
  /** Depth of the last `info` line with a depth (0 without one). */
  readonly depth: number;
  readonly nodes: number | undefined;
  /** Principal variation, ICCS. */
  readonly pv: readonly string[];
  /** The search was cancelled: its move is the engine's best so far, if any. */
  readonly cancelled: boolean;
  /** Wall time from `go` to `bestmove` (ms). */
  readonly ms: number;
}

export interface Engine {
  /** The engine's `id name` once it started, else the configured label. */
  readonly name: string;
  search(request: SearchRequest): Promise<SearchResult>;
  /** Ends the engine (a worker is terminated, a process killed); searches waiting fail. */
  close(): Promise<void>;
}

export type EngineEvent =
  | { readonly type: 'started'; readonly name: string; readonly ms: number }
  | { readonly type: 'crashed'; readonly message: string }
  | { readonly type: 'timeout'; readonly message: string };

export type EngineErrorCode =
  | 'engine_crashed'
  | 'engine_timeout'
  | 'engine_starting'
  | 'engine_failed'
  | 'engine_closed';

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A running engine's lines, both ways. */
export interface LineTransport {
  send(line: string): void;
  onLine(listener: (line: string) => void): void;
  /** Called once when the engine is gone by itself (crash, exit); not after `kill`. */
  onExit(listener: (reason: string) => void): void;
  kill(): Promise<void>;
}

/**
 * How the engine writes squares: ICCS ranks 0–9 (Pikafish, UCCI), or ranks 1–10 (Fairy-Stockfish
 * in UCI mode: `h3e3` is ICCS `h2e2`); `auto`: ranks 1–10 when the engine's name is Fairy-Stockfish.
 */
export type SquareStyle = 'iccs' | 'ranks1' | 'auto';

export interface ProtocolOptions {
  readonly dialect: Dialect;
  /** Starts the engine (a process, a worker); called again after a crash or a timeout. */
  readonly spawn: () => LineTransport;
  /** Name until the engine says its own. */
  readonly label: string;
  /** Options sent after the handshake (UCI `setoption name N value V`, UCCI `setoption N V`). */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  readonly squares?: SquareStyle;
  /**
   * How long a search waits for the engine to start (`uci` → `uciok`, then `isready` → `readyok`)
   * before it is answered `engine_starting`; the start goes on. Default 30 s: the embedded engine
   * takes about 1 s on an idle machine, 10 s on a loaded 2-core one.
   */
  readonly startMs?: number;
  /** A start not finished in this long is a hung engine: it is killed (tried again next time). Default 120 s. */
  readonly startLimitMs?: number;
  /** Time beyond a search's own movetime before it counts as not answering, ms. Default 5 s. */
  readonly graceMs?: number;
  /** Time limit of a search without a movetime (depth, nodes), ms. Default 60 s. */
  readonly searchMs?: number;
  readonly onEvent?: (event: EngineEvent) => void;
}

const NONE = new Set(['(none)', '0000', 'none', '(null)']);

const toEngineSquares = (iccs: string, ranks1: boolean): string =>
  ranks1 ? `${iccs[0]}${Number(iccs[1]) + 1}${iccs[2]}${Number(iccs[3]) + 1}` : iccs;

/** An engine's move in ICCS, or undefined when it is not one. */
function fromEngineSquares(move: string, ranks1: boolean): string | undefined {
  const m = /^([a-i])(10|\d)([a-i])(10|\d)$/.exec(move.toLowerCase());
  if (!m) return undefined;
  const shift = ranks1 ? 1 : 0;
  const a = Number(m[2]) - shift;
  const b = Number(m[4]) - shift;
  if (a < 0 || a > 9 || b < 0 || b > 9) return undefined;
  return `${m[1]}${a}${m[3]}${b}`;
}

interface Waiter {
  readonly until: (line: string) => boolean;
  readonly resolve: (line: string) => void;
  readonly reject: (e: Error) => void;
}

/** A UCI or UCCI engine: see the module comment. */
export class ProtocolEngine implements Engine {
  private transport: LineTransport | undefined;
  private starting: Promise<LineTransport> | undefined;
  private waiter: Waiter | undefined;
  private onInfo: ((line: string) => void) | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private idName: string | undefined;
  private ranks1 = false;
  private skill: number | undefined;
  private hasSkill = false;
  /** UCCI times in milliseconds (the engine has `usemillisec`, now on); otherwise in seconds. */
  private ucciMillis = false;
  private closed = false;

  constructor(private readonly o: ProtocolOptions) {}

  get name(): string {
    return this.idName ?? this.o.label;
  }

  search(request: SearchRequest): Promise<SearchResult> {
    const run = this.queue.then(() => this.searchNow(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const t = this.transport ?? (await this.starting?.catch(() => undefined));
    this.transport = undefined;
    this.starting = undefined;
    this.fail(new EngineError('engine_closed', `${this.name} was stopped`));
    await t?.kill();
  }

  private async searchNow(request: SearchRequest): Promise<SearchResult> {
    if (request.signal?.aborted) return cancelledResult();
    for (let attempt = 1; ; attempt++) {
      try {
        const t = await this.started(request.signal);
        if (t === undefined) return cancelledResult();
        return await this.go(t, request);
      } catch (e) {
        // A crash in the middle of a search: the engine is started again and asked once more.
        if (e instanceof EngineError && e.code === 'engine_crashed' && attempt === 1 && !this.closed)
          continue;
        throw e;
      }
    }
  }

  /**
   * The started engine, waited for up to `startMs` (the start goes on after that: the search is
   * answered `engine_starting`); undefined when the search was cancelled meanwhile.
   */
  private async started(signal: AbortSignal | undefined): Promise<LineTransport | undefined> {
    const starting = this.ensure();
    if (this.transport && !this.starting) return starting;
    const patience = this.o.startMs ?? 30_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        starting,
        new Promise<undefined>((resolve, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new EngineError(
                  'engine_starting',
                  `${this.o.label} is still starting (${Math.round(patience / 1000)} s so far): ask again in a moment`,
                ),
              ),
            patience,
          );
          onAbort = () => resolve(undefined);
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private ensure(): Promise<LineTransport> {
    if (this.closed) return Promise.reject(new EngineError('engine_closed', `${this.name} was stopped`));
    // A search that stopped waiting leaves the start going on: the next one waits for the same.
    if (this.starting) return this.starting;
    if (this.transport) return Promise.resolve(this.transport);
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async start(): Promise<LineTransport> {
    const started = performance.now();
    let t: LineTransport;
    try {
      t = this.o.spawn();
    } catch (e) {
      throw new EngineError('engine_failed', `${this.o.label} could not be started: ${(e as Error).message}`);
    }
    t.onLine((line) => this.line(line));
    t.onExit((reason) => {
      if (this.transport !== t && this.transport !== undefined) return;
      this.transport = undefined;
      const message = `${this.name} stopped (${reason})`;
      this.o.onEvent?.({ type: 'crashed', message });
      this.fail(new EngineError('engine_crashed', message));
    });
    this.transport = t;
    const ucci = this.o.dialect === 'ucci';
    const startMs = this.o.startLimitMs ?? 120_000;
    try {
      const options = new Set<string>();
      this.onInfo = (line) => {
        const id = /^id name (.+)$/.exec(line);
        // Build details in brackets (`Fairy-Stockfish [commit: …] LB`) stay out of PGN headers.
        if (id)
          this.idName = id[1]!
            .replace(/\[[^\]]*\]/g, ' ')
            .replace(/\s+/g, ' ')
            .trim();
        const opt = /^option (?:name )?(.+?) type /.exec(line);
        if (opt) options.add(opt[1]!.trim());
      };
      await this.request(t, ucci ? 'ucci' : 'uci', (l) => l === (ucci ? 'ucciok' : 'uciok'), startMs);
      this.onInfo = undefined;
      const style = this.o.squares ?? 'auto';
      const fairy = /fairy-stockfish/i.test(this.idName ?? '');
      this.ranks1 = !ucci && (style === 'ranks1' || (style === 'auto' && fairy));
      this.hasSkill = !ucci && options.has('Skill Level');
      this.skill = undefined;
      this.ucciMillis = ucci && options.has('usemillisec');
      if (this.ucciMillis) this.setOption(t, 'usemillisec', true);
      const given = { ...(fairy && !ucci ? { UCI_Variant: 'xiangqi' } : {}), ...this.o.options };
      for (const [name, value] of Object.entries(given)) this.setOption(t, name, value);
      await this.request(t, 'isready', (l) => l === 'readyok', startMs);
    } catch (e) {
      this.transport = undefined;
      this.onInfo = undefined;
      await t.kill();
      if (e instanceof EngineError && e.code === 'engine_timeout') {
        const message = `${this.o.label} did not answer the ${ucci ? 'UCCI' : 'UCI'} handshake within ${startMs} ms`;
        this.o.onEvent?.({ type: 'timeout', message });
        throw new EngineError('engine_timeout', message);
      }
      throw e;
    }
    this.o.onEvent?.({ type: 'started', name: this.name, ms: performance.now() - started });
    return t;
  }

  private setOption(t: LineTransport, name: string, value: string | number | boolean): void {
    t.send(
      this.o.dialect === 'ucci' ? `setoption ${name} ${value}` : `setoption name ${name} value ${value}`,
    );
  }

  private async go(t: LineTransport, request: SearchRequest): Promise<SearchResult> {
    // Cancelled while the engine was starting: nothing to search.
    if (request.signal?.aborted) return cancelledResult();
    const { limits } = request;
    const ucci = this.o.dialect === 'ucci';
    if (this.hasSkill && limits.skill !== this.skill) {
      this.setOption(t, 'Skill Level', limits.skill ?? 20);
      this.skill = limits.skill;
    }
    const moves = request.moves.map((m) => toEngineSquares(m, this.ranks1));
    t.send(`position fen ${request.fen}${moves.length > 0 ? ` moves ${moves.join(' ')}` : ''}`);
    const parts: string[] = [];
    if (limits.depth !== undefined) parts.push(`depth ${limits.depth}`);
    if (limits.nodes !== undefined) parts.push(`nodes ${limits.nodes}`);
    if (limits.movetimeMs !== undefined) {
      const time = this.ucciMillis ? limits.movetimeMs : Math.max(1, Math.round(limits.movetimeMs / 1000));
      parts.push(ucci ? `time ${time} movestogo 1` : `movetime ${limits.movetimeMs}`);
    }
    if (parts.length === 0) parts.push(ucci ? 'depth 8' : 'movetime 1000');

    let depth = 0;
    let score: Score | undefined;
    let nodes: number | undefined;
    let pv: string[] = [];
    this.onInfo = (line) => {
      if (!line.startsWith('info ')) return;
      const words = line.split(/\s+/);
      const d = words.indexOf('depth');
      if (d < 0 || words.includes('currmove')) return;
      depth = Number(words[d + 1]) || depth;
      const s = words.indexOf('score');
      if (s >= 0) {
        const kind = words[s + 1];
        if (kind === 'cp') score = { cp: Number(words[s + 2]) };
        else if (kind === 'mate') score = { mate: Number(words[s + 2]) };
        else if (kind !== undefined && /^-?\d+$/.test(kind)) score = { cp: Number(kind) };
      }
      const n = words.indexOf('nodes');
      if (n >= 0) nodes = Number(words[n + 1]);
      const p = words.indexOf('pv');
      if (p >= 0) {
        pv = words
          .slice(p + 1)
          .map((m) => fromEngineSquares(m, this.ranks1))
          .filter((m): m is string => m !== undefined);
      }
    };

    const grace = this.o.graceMs ?? 5000;
    const budget = limits.movetimeMs !== undefined ? limits.movetimeMs + grace : (this.o.searchMs ?? 60_000);
    const started = performance.now();
    let cancelled = false;
    const stop = () => {
      cancelled = true;
      t.send('stop');
    };
    request.signal?.addEventListener('abort', stop, { once: true });
    let line: string;
    try {
      const done = (l: string) => l.startsWith('bestmove') || l.startsWith('nobestmove');
      try {
        line = await this.request(t, `go ${parts.join(' ')}`, done, budget);
      } catch (e) {
        if (!(e instanceof EngineError && e.code === 'engine_timeout')) throw e;
        // Not answering: `stop`, a last chance, then the engine goes (restarted next time).
        try {
          line = await this.request(t, 'stop', done, Math.min(grace, 2000));
        } catch {
          this.transport = undefined;
          await t.kill();
          const message = `${this.name} did not answer a search within ${budget} ms: it is restarted for the next one`;
          this.o.onEvent?.({ type: 'timeout', message });
          throw new EngineError('engine_timeout', message);
        }
      }
    } finally {
      request.signal?.removeEventListener('abort', stop);
      this.onInfo = undefined;
    }
    const word = line.split(/\s+/)[1];
    const move =
      line.startsWith('nobestmove') || word === undefined || NONE.has(word)
        ? undefined
        : fromEngineSquares(word, this.ranks1);
    if (word !== undefined && !NONE.has(word) && !line.startsWith('nobestmove') && move === undefined) {
      throw new EngineError('engine_failed', `${this.name} answered '${line}': not a xiangqi move`);
    }
    return { move, score, depth, nodes, pv, cancelled, ms: performance.now() - started };
  }

  private line(line: string): void {
    const text = line.trim();
    if (text === '') return;
    this.onInfo?.(text);
    const w = this.waiter;
    if (w?.until(text)) {
      this.waiter = undefined;
      w.resolve(text);
    }
  }

  /** Sends a command; resolves with the first line `until` accepts, or fails after `ms`. */
  private request(
    t: LineTransport,
    command: string,
    until: (l: string) => boolean,
    ms: number,
  ): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.waiter !== waiter) return;
        this.waiter = undefined;
        reject(new EngineError('engine_timeout', `no answer to '${command}' within ${ms} ms`));
      }, ms);
      const waiter: Waiter = {
        until,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.waiter = waiter;
      t.send(command);
    });
  }

  private fail(e: Error): void {
    const w = this.waiter;
    this.waiter = undefined;
    w?.reject(e);
  }
}

function cancelledResult(): SearchResult {
  return { move: undefined, score: undefined, depth: 0, nodes: undefined, pv: [], cancelled: true, ms: 0 };
}
