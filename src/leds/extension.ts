/**
 * The LEDs extension: keeps what each board's LEDs should show (from the bus), computes the frame
 * with `ledFrame`, and sends it when it changes — to WLED over MQTT, or to LEDs on the board's own
 * microcontroller through the serial protocol's LED frame. WLED may drop a command that comes
 * while it is busy, so frames are sent at most every `minIntervalMs`, the latest one winning.
 */
import type { BoardConfig } from '../config/schema.js';
import type { ControllerContext, Extension, MqttPublisher } from '../controller/extension.js';
import { WLED_SPEC, wledApiTopic, wledStatusTopic } from '../mqtt/contract.js';
import { makeSquareName, parseFen } from '../rules/index.js';
import type { Command } from '../sensors/protocol.js';
import { type Clock, systemClock } from '../util/clock.js';
import { type LedState, ledFrame, rgbBytes } from './frame.js';
import { wledPower, wledSegmentCommands } from './wled.js';

export interface LedsOptions {
  /** Needed by boards with WLED. */
  readonly mqtt?: MqttPublisher;
  readonly clock?: Clock;
  readonly minIntervalMs?: number;
}

interface BoardLeds {
  readonly config: NonNullable<BoardConfig['leds']>;
  state: LedState;
  lastSent: string | undefined;
  powered: boolean;
  sentAt: number;
  cancelPending: (() => void) | undefined;
}

/** A source that accepts firmware commands (the serial driver). */
interface CommandSink {
  send(command: Command): number | undefined;
}

const hasSend = (s: unknown): s is CommandSink =>
  typeof s === 'object' && s !== null && typeof (s as { send?: unknown }).send === 'function';

export class LedsExtension implements Extension {
  readonly name = 'leds';
  private readonly boards = new Map<string, BoardLeds>();
  private readonly unsubscribers: (() => void)[] = [];
  private readonly clock: Clock;

  constructor(
    private readonly context: ControllerContext,
    private readonly options: LedsOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  async start(): Promise<void> {
    for (const b of this.context.config.boards) {
      if (!b.leds || b.leds.driver === 'none') continue;
      if (b.leds.driver === 'wled' && !this.options.mqtt) {
        this.context.logger.child({ board: b.id }).warn('WLED needs MQTT; its LEDs stay dark');
        continue;
      }
      this.boards.set(b.id, {
        config: b.leds,
        state: {},
        lastSent: undefined,
        powered: false,
        sentAt: Number.NEGATIVE_INFINITY,
        cancelPending: undefined,
      });
    }
    if (this.boards.size === 0) return;
    for (const [id, leds] of this.boards) {
      if (leds.config.driver !== 'wled' || !this.options.mqtt) continue;
      // WLED says `online` (retained) on <topic>/status when it (re)starts: it has forgotten the
      // frame, so power and frame go again.
      this.unsubscribers.push(
        this.options.mqtt.subscribe(wledStatusTopic(leds.config.topic), (payload) => {
          if (payload.toString() !== 'online') return;
          leds.powered = false;
          leds.lastSent = undefined;
          leds.sentAt = Number.NEGATIVE_INFINITY;
          this.schedule(id, leds);
        }),
      );
    }
    const { bus } = this.context;
    const update = (board: string, change: (s: LedState) => LedState) => {
      const leds = this.boards.get(board);
      if (!leds) return;
      leds.state = change(leds.state);
      this.schedule(board, leds);
    };
    this.unsubscribers.push(
      bus.on('tracker.state', (e) => update(e.board, (s) => ({ ...s, state: e.state, detail: e.detail }))),
      bus.on('tracker.alert', (e) => {
        // What the reader cannot tell, and a sensor it no longer believes, stay lit while said.
        if (e.alert.kind === 'ambiguous') {
          const doubt = e.alert.candidates ?? [];
          const suspects = e.alert.check ?? [];
          update(e.board, (s) => ({ ...s, doubt, suspects }));
          return;
        }
        if (e.alert.kind === 'sensor_fault') {
          const square = e.alert.square;
          if (square) update(e.board, (s) => ({ ...s, faults: [...(s.faults ?? []), square] }));
          return;
        }
        if (e.alert.kind !== 'illegal_move') return;
        const { from, to, legalTargets } = e.alert;
        update(e.board, (s) => ({
          ...s,
          illegal: {
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
            ...(legalTargets ? { legalTargets } : {}),
          },
        }));
      }),
      bus.on('game.hint', (e) =>
        update(e.board, (s) => (e.kind === 'engine' ? { ...s, expected: e.iccs } : { ...s, hint: e.iccs })),
      ),
      bus.on('tracker.alertCleared', (e) => {
        if (e.kind === 'ambiguous') update(e.board, ({ doubt: _, suspects: __, ...s }) => s);
        else if (e.kind === 'sensor_fault') update(e.board, ({ faults: _, ...s }) => s);
        else if (e.kind === 'illegal_move') update(e.board, ({ illegal: _, ...s }) => s);
      }),
      ...(['game.view', 'game.move', 'game.retract', 'game.over'] as const).map((name) =>
        bus.on(name, (e) =>
          update(e.board, ({ lastMove: _l, check: _c, hint: _h, expected: _e, ...s }) => {
            const check = e.view.check ? kingInCheck(e.view.fen) : undefined;
            // A move or a takeback ends the lift that made it (the reader's new state follows).
            const settled = name === 'game.move' || name === 'game.retract';
            return {
              ...s,
              ...(settled ? { state: 'awaiting_move' as const, detail: {} } : {}),
              ...(e.view.lastMove ? { lastMove: e.view.lastMove } : {}),
              ...(check ? { check } : {}),
            };
          }),
        ),
      ),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribers.splice(0)) u();
    for (const [id, leds] of this.boards) {
      leds.cancelPending?.();
      // Dark when the controller stops: stale guidance is worse than none.
      this.send(id, leds, new Array(90).fill('000000'));
    }
    this.boards.clear();
  }

  /** The frame a board's LEDs show now (tests, status pages). */
  frame(board: string): string[] | undefined {
    const leds = this.boards.get(board);
    return leds ? ledFrame(leds.state) : undefined;
  }

  private schedule(board: string, leds: BoardLeds): void {
    if (leds.cancelPending) return;
    const wait = leds.sentAt + (this.options.minIntervalMs ?? 100) - this.clock.now();
    if (wait <= 0) {
      this.send(board, leds, ledFrame(leds.state));
      return;
    }
    leds.cancelPending = this.clock.setTimer(() => {
      leds.cancelPending = undefined;
      this.send(board, leds, ledFrame(leds.state));
    }, wait);
  }

  private send(board: string, leds: BoardLeds, frame: string[]): void {
    const key = frame.join('');
    if (key === leds.lastSent) return;
    leds.lastSent = key;
    leds.sentAt = this.clock.now();
    const config = leds.config;
    if (config.driver === 'wled') {
      const topic = wledApiTopic(config.topic);
      const mqtt = this.options.mqtt!;
      if (!leds.powered) {
        mqtt.publish(topic, JSON.stringify(wledPower(config.brightness)), WLED_SPEC);
        leds.powered = true;
      }
      for (const command of wledSegmentCommands(frame, config)) {
        mqtt.publish(topic, JSON.stringify(command), WLED_SPEC);
      }
    } else if (config.driver === 'serial') {
      const source = this.context.sessions.get(board)?.source;
      if (!hasSend(source)) return;
      // Undefined while the link is down: the next frame after it comes back is sent.
      if (source.send({ type: 'led_frame', rgb: rgbBytes(frame, config.brightness) }) === undefined) {
        leds.lastSent = undefined;
      }
    }
  }
}

/** The square of the general of the side to move (the one in check). */
function kingInCheck(fen: string): string | undefined {
  const setup = parseFen(fen);
  if (!setup.ok) return undefined;
  const sq = setup.value.board.findIndex((p) => p?.role === 'king' && p.color === setup.value.turn);
  return sq >= 0 ? makeSquareName(sq) : undefined;
}
