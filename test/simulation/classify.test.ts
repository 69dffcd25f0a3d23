// The classifier of a reader's record against the truth, on hand-built timelines.
import { describe, expect, it } from 'vitest';
import { classify, type ReaderEvent } from '../../src/simulation/classify.js';
import type { TruthEvent } from '../../src/simulation/real-play.js';

const G = ['h2e2', 'h9g7', 'h0g2', 'i9h9'];
/** Truth: move k (1-based) complete at 1000 + 2000 (k - 1) ms. */
const truth: TruthEvent[] = G.map((iccs, i) => ({ t: 1000 + 2000 * i, kind: 'move', ply: i + 1, iccs }));
const END = 10_000;
const move = (ply: number, t: number, iccs = G[ply - 1]!): ReaderEvent => ({ type: 'move', ply, iccs, t });
const retract = (ply: number, t: number): ReaderEvent => ({ type: 'retract', ply, t });
const alert = (kind: string, t: number, square?: string): ReaderEvent => ({
  type: 'alert',
  t,
  alert: square ? { kind, square } : { kind },
});
const cleared = (kind: string, t: number): ReaderEvent => ({ type: 'alertCleared', kind, t });
/** The reader records every move 130 ms after it is complete. */
const onTime = (): ReaderEvent[] => G.map((_, i) => move(i + 1, 1130 + 2000 * i));

describe('classify', () => {
  it('an exact game: every move recorded, a little late', () => {
    const c = classify({ truth, emitted: onTime(), end: END });
    expect(c.kind).toBe('exact');
    expect(c.episodes).toEqual([]);
    expect(c.reader).toEqual(G);
  });

  it('a transient 130 ms lag two moves behind is no episode', () => {
    // Moves 3 and 4 complete 50 ms apart (a fast reply); the reader has neither for 130 ms.
    const fast: TruthEvent[] = [...truth.slice(0, 2), { ...truth[2]!, t: 5000 }, { ...truth[3]!, t: 5050 }];
    const emitted = [move(1, 1130), move(2, 3130), move(3, 5180), move(4, 5200)];
    const c = classify({ truth: fast, emitted, end: END });
    expect(c.kind).toBe('exact');
  });

  it('a lag two moves behind for a second is an episode', () => {
    const fast: TruthEvent[] = [...truth.slice(0, 2), { ...truth[2]!, t: 5000 }, { ...truth[3]!, t: 5050 }];
    const emitted = [move(1, 1130), move(2, 3130), move(3, 6100), move(4, 6120)];
    const c = classify({ truth: fast, emitted, end: END });
    expect(c.kind).toBe('silent');
    expect(c.episodes).toHaveLength(1);
    expect(c.episodes[0]).toMatchObject({
      start: 5050,
      end: 6100,
      ply: 3,
      reader: [],
      game: ['h0g2', 'i9h9'],
    });
  });

  it('an invented move, put right later, with an alert in time: alerted', () => {
    // The reader invents a reply at 2000 and puts it right at 3500 (retract, then the real move).
    const emitted = [
      move(1, 1130),
      move(2, 2000, 'b9c7'),
      alert('out_of_sync', 2600),
      retract(2, 3500),
      move(2, 3500),
      cleared('out_of_sync', 3500),
      move(3, 5130),
      move(4, 7130),
    ];
    const c = classify({ truth, emitted, end: END });
    expect(c.kind).toBe('alerted');
    expect(c.episodes[0]).toMatchObject({ start: 2000, end: 3500, ply: 2, reader: ['b9c7'], game: [] });
    expect(c.episodes[0]!.alert).toEqual({ kind: 'out_of_sync', t: 2600 });
    expect(c.reader).toEqual(G);
  });

  it('the same invented move without an alert: silent', () => {
    const emitted = [move(1, 1130), move(2, 2000, 'b9c7'), retract(2, 3500), move(2, 3500), move(3, 5130)];
    const c = classify({ truth, emitted: [...emitted, move(4, 7130)], end: END });
    expect(c.kind).toBe('silent');
    expect(c.episodes[0]!.alert).toBeUndefined();
  });

  it('a check alert covers nothing', () => {
    const emitted = [
      move(1, 1130),
      move(2, 2000, 'b9c7'),
      alert('check', 2100),
      retract(2, 3500),
      move(2, 3500),
    ];
    const c = classify({ truth, emitted: [...emitted, move(3, 5130), move(4, 7130)], end: END });
    expect(c.kind).toBe('silent');
  });

  it('an alert raised 3 s after the episode starts is late: silent', () => {
    const emitted = [move(1, 1130), move(2, 2000, 'b9c7'), alert('out_of_sync', 5001)];
    const c = classify({ truth, emitted, end: END });
    expect(c.kind).toBe('silent');
    expect(c.episodes[0]).toMatchObject({ start: 2000, end: undefined });
  });

  it('an alert standing since before the episode covers it; one cleared before does not', () => {
    const wrong = [move(1, 1130), move(2, 5000, 'b9c7')];
    const standing = classify({ truth, emitted: [alert('sensor_fault', 900), ...wrong], end: END });
    expect(standing.kind).toBe('alerted');
    const gone = classify({
      truth,
      emitted: [alert('sensor_fault', 900), cleared('sensor_fault', 1000), ...wrong],
      end: END,
    });
    expect(gone.kind).toBe('silent');
  });

  it('a wrong move revised 600 ms later stays exact', () => {
    // A hesitating slide: recorded at its resting square, revised when it goes on.
    const emitted = [
      move(1, 1130),
      move(2, 2900, 'h9h7'),
      retract(2, 3500),
      move(2, 3550),
      move(3, 5130),
      move(4, 7130),
    ];
    const c = classify({ truth, emitted, end: END });
    expect(c.kind).toBe('exact');
  });

  it('a move missed at the end is an episode; an alert in time makes it alerted', () => {
    const missed = onTime().slice(0, 3);
    const c = classify({ truth, emitted: missed, end: END });
    expect(c.kind).toBe('silent');
    expect(c.episodes).toEqual([
      { start: 7000, end: undefined, ply: 4, reader: [], game: ['i9h9'], alert: undefined },
    ]);
    expect(classify({ truth, emitted: [...missed, alert('out_of_sync', 9000)], end: END }).kind).toBe(
      'alerted',
    );
  });

  it('a move missed at the end after an episode counts from the end of that episode', () => {
    // The reader is a move behind from 3000 on and never catches up: two behind from 5000 to 6000
    // and from 7000 to 8000 (both covered by an alert at 5600, standing), then move 4 missing at
    // the end. That last episode starts at 8000, when the last one ended, not at 3000: a lag of a
    // move before the episodes was no error, and what they covered is theirs.
    const emitted = [move(1, 1130), alert('ambiguous', 5600), move(2, 6000), move(3, 8000)];
    const c = classify({ truth, emitted, end: END });
    expect(c.episodes.map((e) => [e.start, e.end])).toEqual([
      [5000, 6000],
      [7000, 8000],
      [8000, undefined],
    ]);
    expect(c.kind).toBe('alerted');
    // (An alert ended as the last episode starts, and none after: silent.)
    expect(classify({ truth, emitted: [...emitted, cleared('ambiguous', 8000)], end: END }).kind).toBe(
      'silent',
    );
  });

  it('a game that never started: one episode from the second move on, silent', () => {
    const c = classify({ truth, emitted: [], end: END });
    expect(c.kind).toBe('silent');
    expect(c.episodes[0]).toMatchObject({ start: 3000, end: undefined, ply: 1 });
  });

  it('a move the sensors could not show counts from when they did (seen)', () => {
    // Moves 2 and 3 are captures swapped in one scan (occupancy): shown only by move 4's landing.
    const unseen: TruthEvent[] = truth.map((e) =>
      e.kind === 'move' && (e.ply === 2 || e.ply === 3) ? { ...e, seen: 7000 } : e,
    );
    const emitted = [move(1, 1130), move(2, 7100), move(3, 7100), move(4, 7100)];
    expect(classify({ truth: unseen, emitted, end: END }).kind).toBe('exact');
    expect(classify({ truth, emitted, end: END }).kind).toBe('silent');
  });

  it('a takeback the frames did not show counts from when they did', () => {
    // Move 2 taken back at 3200 and played again at 4500; the frames showing it back were lost.
    const again: TruthEvent[] = [
      ...truth.slice(0, 2),
      { t: 3200, kind: 'retract', ply: 2, seen: 4500 },
      { t: 4500, kind: 'move', ply: 2, iccs: G[1]! },
      ...truth.slice(2),
    ];
    const emitted = onTime();
    expect(classify({ truth: again, emitted, end: END }).kind).toBe('exact');
    // Shown at once, a takeback the reader misses for 1.3 s is a silent error.
    const shown = again.map((e) => (e.kind === 'retract' ? { t: e.t, kind: e.kind, ply: e.ply } : e));
    expect(classify({ truth: shown, emitted, end: END }).kind).toBe('silent');
  });

  it('a reader that sees an unshown move sooner than the generator thinks is not wrong', () => {
    const unseen: TruthEvent[] = truth.map((e) =>
      e.kind === 'move' && e.ply === 2 ? { ...e, seen: 5000 } : e,
    );
    const early = [move(1, 1130), move(2, 3200), move(3, 5130), move(4, 7130)];
    expect(classify({ truth: unseen, emitted: early, end: END }).kind).toBe('exact');
    // Before it was played, it is invented.
    const invented = [move(1, 1130), move(2, 1500), move(3, 5130), move(4, 7130)];
    expect(classify({ truth: unseen, emitted: invented, end: END }).kind).toBe('silent');
  });

  it('a dead square named within 10 plies of its first use', () => {
    const long: TruthEvent[] = Array.from({ length: 30 }, (_, i) => ({
      t: 1000 * (i + 1),
      kind: 'move',
      ply: i + 1,
      iccs: `a${i % 10}b${i % 10}`,
    }));
    const dead = { iccs: 'e5', fromT: 0, firstUsePly: 5 };
    // Ply 15 completes at 15 000 ms: the deadline.
    const named = (t: number) =>
      classify({ truth: long, emitted: [alert('sensor_fault', t, 'e5')], end: 31_000, dead }).deadNamed;
    expect(named(14_000)).toBe(true);
    expect(named(15_000)).toBe(true);
    expect(named(15_001)).toBe(false);
    const other = classify({ truth: long, emitted: [alert('sensor_fault', 2000, 'e6')], end: 31_000, dead });
    expect(other.deadNamed).toBe(false);
    const unused = classify({
      truth: long,
      emitted: [alert('sensor_fault', 2000, 'e5')],
      end: 31_000,
      dead: { iccs: 'e5', fromT: 0 },
    });
    expect(unused.deadNamed).toBeUndefined();
    expect(unused.deadNamedAt).toBe(2000);
  });
});
