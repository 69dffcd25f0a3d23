/** Collects a source's events and waits for the next one that matches (tests only). */
import type { SensorEvent, SensorSource } from '../../../src/sensors/source.js';

export class EventLog {
  readonly events: SensorEvent[] = [];
  private waiters: { match: (e: SensorEvent) => boolean; resolve: (e: SensorEvent) => void }[] = [];
  readonly unsubscribe: () => void;

  constructor(source: SensorSource) {
    this.unsubscribe = source.subscribe((e) => {
      this.events.push(e);
      for (const w of [...this.waiters]) {
        if (w.match(e)) {
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(e);
        }
      }
    });
  }

  /** The next event (after this call) that matches; the test's own timeout catches a hang. */
  next<T extends SensorEvent['type']>(
    type: T,
    match: (e: Extract<SensorEvent, { type: T }>) => boolean = () => true,
  ): Promise<Extract<SensorEvent, { type: T }>> {
    return new Promise((resolve) => {
      this.waiters.push({
        match: (e) => e.type === type && match(e as Extract<SensorEvent, { type: T }>),
        resolve: (e) => resolve(e as Extract<SensorEvent, { type: T }>),
      });
    });
  }

  /** The latest event of a type seen so far, or a wait for the first. */
  latestOrNext<T extends SensorEvent['type']>(
    type: T,
    match: (e: Extract<SensorEvent, { type: T }>) => boolean = () => true,
  ): Promise<Extract<SensorEvent, { type: T }>> {
    const seen = this.events.filter(
      (e): e is Extract<SensorEvent, { type: T }> =>
        e.type === type && match(e as Extract<SensorEvent, { type: T }>),
    );
    const last = seen[seen.length - 1];
    return last ? Promise.resolve(last) : this.next(type, match);
  }

  of<T extends SensorEvent['type']>(type: T): Extract<SensorEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<SensorEvent, { type: T }> => e.type === type);
  }
}
