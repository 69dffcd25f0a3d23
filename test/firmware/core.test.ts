/**
 * The firmware core's host tests (firmware-bridge/test, C99 with gcc, ASan + UBSan), run through
 * make so `npm test` covers them. A missing toolchain fails the test with what to install.
 */
import { describe, expect, it } from 'vitest';
import { make } from './harness.js';

describe('firmware core (C, host build)', () => {
  it('passes every host unit test', () => {
    const out = make('test');
    const summary = /xq core tests: (\d+) tests, (\d+) checks, (\d+) failed/.exec(out);
    expect(summary, out).not.toBeNull();
    expect(Number(summary?.[3])).toBe(0);
    expect(Number(summary?.[1])).toBeGreaterThanOrEqual(28);
    expect(out).not.toMatch(/^FAIL/m);
  });
});
