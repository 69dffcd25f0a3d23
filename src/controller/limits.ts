/**
 * Limits on requests: a token bucket per client (a web address, an MQTT client id), and at most
 * one hint per board at a time (a second one while the engine thinks is answered `busy` at once,
 * so a burst of hint requests cannot queue up seconds of engine work).
 */

/** `burst` requests at once, then `perMinute`; each key on its own. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly perMinute: number,
  ) {}

  /** Takes one request's token for `key`: false when it has none left. */
  take(key: string, now = Date.now()): boolean {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.perMinute) / 60_000);
    b.at = now;
    // Many clients that come and go: full buckets are forgotten.
    if (this.buckets.size > 10_000) {
      for (const [k, v] of this.buckets) if (v.tokens >= this.burst) this.buckets.delete(k);
    }
    this.buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

export const RATE_LIMITED = {
  code: 'rate_limited',
  message: 'too many requests from this client; wait a little',
} as const;

const thinking = new WeakSet<object>();

/**
 * Runs `hint` unless one runs already for `board` (any object that stands for it): then answers
 * undefined at once.
 */
export async function oneHintAtATime<T>(board: object, hint: () => Promise<T>): Promise<T | undefined> {
  if (thinking.has(board)) return undefined;
  thinking.add(board);
  try {
    return await hint();
  } finally {
    thinking.delete(board);
  }
}
