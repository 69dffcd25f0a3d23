/**
 * The hint engine's worker thread: hints are searched off the event loop (timers keep firing
 * while it thinks), answered in order, and a worker that dies fails what it had while the next
 * hint starts another.
 */
import { describe, expect, it } from 'vitest';
import { HintEngine } from '../../src/engine/hints.js';
import { INITIAL_FEN } from '../../src/rules/index.js';

describe('hint engine', () => {
  it('searches in a worker: the event loop keeps running while it thinks', async () => {
    const engine = new HintEngine();
    try {
      await engine.suggest(INITIAL_FEN, { maxDepth: 1, maxNodes: 1000, deadlineMs: 100 }); // warm up
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      const started = Date.now();
      const hint = await engine.suggest(INITIAL_FEN, { maxDepth: 30, maxNodes: 10_000_000, deadlineMs: 300 });
      clearInterval(timer);
      expect(hint.iccs).toMatch(/^[a-i]\d[a-i]\d$/);
      // ~300 ms of search: a 5 ms timer fired all along (it would not have fired once in-thread).
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(ticks).toBeGreaterThan(10);
    } finally {
      await engine.close();
    }
  });

  it('a worker that dies fails its requests, and the next hint gets a new worker', async () => {
    const engine = new HintEngine();
    try {
      const pending = engine.suggest(INITIAL_FEN, { maxDepth: 30, maxNodes: 10_000_000, deadlineMs: 2000 });
      await new Promise((r) => setTimeout(r, 50));
      await (engine as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await expect(pending).rejects.toThrow(/hint engine stopped/);
      const next = await engine.suggest(INITIAL_FEN, { maxDepth: 2, maxNodes: 10_000, deadlineMs: 200 });
      expect(next.iccs).toMatch(/^[a-i]\d[a-i]\d$/);
    } finally {
      await engine.close();
    }
  });
});
