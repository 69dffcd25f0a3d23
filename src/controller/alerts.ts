/**
 * The alerts a board has raised and not ended, kept by the session so that every kind has an end
 * that reaches every viewer: the move reader ends its own kinds, the session ends `check` (the
 * reader never does) when the side is no longer in check, `record_failed` when a record is written
 * again, `storage` once every refused write is done, and all of them when the reader goes (a game ends or a new one starts).
 */
import type { Alert } from '../tracker/machine.js';
import type { Bus, SessionAlert } from './bus.js';

export class ActiveAlerts {
  private readonly active = new Map<string, SessionAlert>();

  constructor(
    private readonly board: string,
    private readonly bus: Bus,
  ) {}

  has(kind: string): boolean {
    return this.active.has(kind);
  }

  list(): SessionAlert[] {
    return [...this.active.values()];
  }

  /** Raised (again: a new message replaces the old one). */
  raise(alert: SessionAlert | Alert, t: number): void {
    this.active.set(alert.kind, alert);
    this.bus.emit('tracker.alert', { board: this.board, alert, t });
  }

  /** Ended; nothing is announced for a kind that is not active. */
  clear(kind: string, t: number): void {
    if (!this.active.delete(kind)) return;
    this.bus.emit('tracker.alertCleared', { board: this.board, kind, t });
  }

  clearAll(t: number): void {
    for (const kind of [...this.active.keys()]) this.clear(kind, t);
  }
}
