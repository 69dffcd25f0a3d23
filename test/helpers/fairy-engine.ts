/**
 * Fairy-Stockfish (npm fairy-stockfish-nnue.wasm), the WebAssembly UCI engine, in this process,
 * set to xiangqi, driven line by line: the rules benchmark's perft side by side (the controller's
 * engine client, src/engine/engine.ts, answers searches, not perft).
 */
import { createRequire } from 'node:module';

interface StockfishModule {
  postMessage(command: string): void;
  addMessageListener(listener: (line: string) => void): void;
  terminate(): void;
}

/** One Fairy-Stockfish engine in this process. Never send `quit`: it exits the whole process; `stop()` terminates it. */
export class FairyStockfish {
  /** The pending request's line handler; output nobody waits for is dropped, not printed. */
  private onLine: ((line: string) => void) | undefined;

  private constructor(private readonly module: StockfishModule) {
    module.addMessageListener((line) => this.onLine?.(line));
  }

  static async start(): Promise<FairyStockfish> {
    // Its Emscripten loader mistakes Node's global fetch for a browser's (field notes): hide it while loading.
    const g = globalThis as { fetch?: unknown };
    const savedFetch = g.fetch;
    delete g.fetch;
    try {
      const factory = createRequire(import.meta.url)(
        'fairy-stockfish-nnue.wasm/stockfish.js',
      ) as () => Promise<StockfishModule>;
      const engine = new FairyStockfish(await factory());
      await engine.request('uci', /^uciok$/);
      engine.module.postMessage('setoption name UCI_Variant value xiangqi');
      await engine.request('isready', /^readyok$/);
      return engine;
    } finally {
      g.fetch = savedFetch;
    }
  }

  /** Sends a command that has no answer. */
  send(command: string): void {
    this.module.postMessage(command);
  }

  /** Sends a command and resolves with the first output line matching `until`. */
  request(command: string, until: RegExp): Promise<string> {
    return new Promise((resolve) => {
      this.onLine = (line) => {
        if (!until.test(line)) return;
        this.onLine = undefined;
        resolve(line);
      };
      this.module.postMessage(command);
    });
  }

  /** `go perft depth` on a FEN: nodes and the milliseconds from the command to the answer. */
  async perft(fen: string, depth: number): Promise<{ nodes: number; ms: number }> {
    this.module.postMessage(`position fen ${fen}`);
    await this.request('isready', /^readyok$/);
    const started = performance.now();
    const line = await this.request(`go perft ${depth}`, /^Nodes searched: \d+/);
    const ms = performance.now() - started;
    return { nodes: Number(/\d+/.exec(line)![0]), ms };
  }

  stop(): void {
    this.module.terminate();
  }
}
