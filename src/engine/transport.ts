/**
 * Where an engine runs: a native engine is a child process (lines on stdin/stdout); the embedded
 * Fairy-Stockfish is its WebAssembly build in a worker_threads worker, so neither its loading nor
 * its search ever runs on the controller's event loop (the move readers' timers keep firing).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { resolvePackage } from '../util/require.js';
import type { LineTransport } from './engine.js';

/** An engine program (`path args…`) speaking on its standard input and output. */
export function processTransport(path: string, args: readonly string[] = [], cwd?: string): LineTransport {
  const child = spawn(path, [...args], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
  let killed = false;
  let exited = false;
  let onExit: ((reason: string) => void) | undefined;
  let exitReason: string | undefined;
  const gone = (reason: string) => {
    if (exited) return;
    exited = true;
    if (killed) return;
    if (onExit) onExit(reason);
    else exitReason = reason;
  };
  child.on('error', (e) => gone(e.message));
  child.on('exit', (code, signal) => gone(signal ? `killed by ${signal}` : `exit code ${code}`));
  // Writing to an engine that just died fails the pipe: the exit handler says so.
  child.stdin.on('error', () => {});
  const lines = createInterface({ input: child.stdout });
  return {
    send: (line) => {
      if (!exited) child.stdin.write(`${line}\n`);
    },
    onLine: (listener) => lines.on('line', listener),
    onExit: (listener) => {
      onExit = listener;
      if (exitReason !== undefined) queueMicrotask(() => listener(exitReason!));
    },
    kill: async () => {
      killed = true;
      if (exited) return;
      const done = new Promise<void>((r) => child.once('exit', () => r()));
      child.stdin.end('quit\n');
      const hard = setTimeout(() => child.kill('SIGKILL'), 500);
      await done;
      clearTimeout(hard);
    },
  };
}

/**
 * The worker's script, run as CommonJS source (`eval`): nothing of ours is loaded in it, so the
 * same code works built and from TypeScript. Node's global fetch breaks the Emscripten loader
 * (field notes): it goes first. `quit` would exit the whole process: it is never passed on; the
 * worker is terminated instead. Lines that come before the engine has loaded wait for it.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
delete globalThis.fetch;
let engine;
const early = [];
parentPort.on('message', (line) => {
  if (/^\\s*quit\\s*$/.test(line)) return;
  if (engine) engine.postMessage(line);
  else early.push(line);
});
require(workerData.script)().then((sf) => {
  sf.addMessageListener((line) => parentPort.postMessage(String(line)));
  engine = sf;
  for (const line of early.splice(0)) sf.postMessage(line);
}, (e) => { throw e; });
`;

/** Fairy-Stockfish WebAssembly (npm fairy-stockfish-nnue.wasm) in a worker thread. */
export function fairyTransport(): LineTransport {
  const script = resolvePackage('fairy-stockfish-nnue.wasm/stockfish.js');
  const worker = new Worker(WORKER, { eval: true, workerData: { script } });
  let killed = false;
  let onExit: ((reason: string) => void) | undefined;
  let lineListener: ((line: string) => void) | undefined;
  let failure: string | undefined;
  worker.on('message', (line: string) => lineListener?.(line));
  worker.on('error', (e) => {
    failure = e.message;
  });
  worker.on('exit', (code) => {
    if (!killed) onExit?.(failure ?? `worker exit code ${code}`);
  });
  return {
    send: (line) => worker.postMessage(line),
    onLine: (listener) => {
      lineListener = listener;
    },
    onExit: (listener) => {
      onExit = listener;
    },
    kill: async () => {
      killed = true;
      await worker.terminate();
    },
  };
}
