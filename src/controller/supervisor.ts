/**
 * Starts a sensor source and, when it fails to start, tries again after a wait that doubles (from
 * `initialMs` up to `maxMs`) until it starts or is stopped. The one place sources are retried.
 */
import type { SensorSource } from '../sensors/source.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';

export interface SupervisorOptions {
  readonly board: string;
  readonly source: SensorSource;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly retry?: { readonly initialMs: number; readonly maxMs: number } | undefined;
  /** A failed start (the board is announced offline with the reason). */
  readonly onFailure: (reason: string) => void;
}

export class SourceSupervisor {
  private waitMs: number;
  private cancel: (() => void) | undefined;
  private running = false;

  constructor(private readonly o: SupervisorOptions) {
    this.waitMs = o.retry?.initialMs ?? 1000;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.attempt();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.cancel?.();
    this.cancel = undefined;
    try {
      await this.o.source.stop();
    } catch (e) {
      this.o.logger.warn(`stopping the source: ${(e as Error).message}`);
    }
  }

  private async attempt(): Promise<void> {
    try {
      await this.o.source.start();
      this.waitMs = this.o.retry?.initialMs ?? 1000;
    } catch (e) {
      const reason = `the source did not start: ${(e as Error).message}`;
      this.o.logger.warn(`${reason}; retrying in ${this.waitMs} ms`);
      this.o.onFailure(reason);
      const wait = this.waitMs;
      this.waitMs = Math.min(wait * 2, this.o.retry?.maxMs ?? 30_000);
      this.cancel = this.o.clock.setTimer(() => {
        if (this.running) void this.attempt();
      }, wait);
    }
  }
}
