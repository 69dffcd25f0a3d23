/**
 * Move hints off the event loop: the engine's search runs in a worker_threads worker, so a hint
 * (up to 300 ms of search) never starves the move readers' 35 ms and 130 ms windows. One worker
 * serves every board of a controller, a request at a time, in order.
 *
 * This module is both sides: imported, it is the client (`HintEngine`); started as the worker's
 * script (built: this very file; from TypeScript sources, in tests: bundled by esbuild at run
 * time), it answers requests.
 */
import { isMainThread, parentPort, type Worker, workerData } from 'node:worker_threads';
import { workerOf } from '../controller/worker-script.js';
import { makeIccs } from '../rules/iccs.js';
import { Position } from '../rules/position.js';
import { searchBest } from './search.js';

export interface HintBudget {
  readonly maxDepth: number;
  readonly maxNodes: number;
  /** Time the worker may search (its own clock). */
  readonly deadlineMs: number;
}

export const HINT_BUDGET: HintBudget = { maxDepth: 8, maxNodes: 300_000, deadlineMs: 300 };

/** The engine's answer for a position: no move when the side to move has none. */
export interface EngineHint {
  readonly iccs: string | undefined;
  /** Centipawns from the side to move's view; ±(30000 − plies) for a forced mate. */
  readonly score: number;
  readonly depth: number;
}

interface Request {
  readonly id: number;
  readonly fen: string;
  readonly budget: HintBudget;
}
type Reply = { readonly id: number } & ({ readonly hint: EngineHint } | { readonly error: string });

const MARK = 'xqboardHintWorker';

/** The search for one request (the worker side; also usable in-thread). */
export function searchHint(fen: string, budget: HintBudget): EngineHint {
  const pos = Position.fromFen(fen);
  if (!pos.ok) throw new Error(`bad FEN ${fen}: ${pos.error.message}`);
  const r = searchBest(pos.value, {
    maxDepth: budget.maxDepth,
    maxNodes: budget.maxNodes,
    deadline: Date.now() + budget.deadlineMs,
  });
  return { iccs: r.move ? makeIccs(r.move) : undefined, score: r.score, depth: r.depth };
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true && parentPort) {
  const port = parentPort;
  port.on('message', (req: Request) => {
    let reply: Reply;
    try {
      reply = { id: req.id, hint: searchHint(req.fen, req.budget) };
    } catch (e) {
      reply = { id: req.id, error: (e as Error).message };
    }
    port.postMessage(reply);
  });
}

/** The worker: this module (its chunk, or the build's hint-worker entry; bundled from TypeScript). */
const spawn = (): Worker => workerOf(import.meta.url, 'hint-worker', { [MARK]: true });

export class HintEngine {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  /** The best move for the position, searched in the worker. */
  suggest(fen: string, budget: HintBudget = HINT_BUDGET): Promise<EngineHint> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (r) => ('hint' in r ? resolve(r.hint) : reject(new Error(r.error))));
      // A hint being searched keeps the process alive; an idle worker does not.
      worker.ref();
      worker.postMessage({ id, fen, budget } satisfies Request);
    });
  }

  /** Ends the worker; requests still waiting fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failAll('the hint engine was stopped');
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = spawn();
    worker.on('message', (r: Reply) => {
      const done = this.waiting.get(r.id);
      this.waiting.delete(r.id);
      if (this.waiting.size === 0) worker.unref();
      done?.(r);
    });
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(`the hint engine failed: ${e.message}`);
    });
    // A worker gone (out of memory, killed) fails what it had; the next hint starts another.
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(`the hint engine stopped (exit code ${code})`);
    });
    this.worker = worker;
    return worker;
  }

  private failAll(message: string): void {
    for (const [id, done] of this.waiting) done({ id, error: message });
    this.waiting.clear();
  }
}
