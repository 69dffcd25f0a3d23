/**
 * A board session's lifecycle as a state machine: a resumed game or a new one waits for the board
 * to show its position (resuming / setup), is played, is over, and the next game waits for the
 * board to be set up again. The move reader is a child actor invoked for each game: what it reads
 * (a move, the end of the game) arrives here as an event and is handled in one place, so nothing
 * re-enters the session from inside the reader. The effects (journal, bus) are the core's; they are
 * plain actions, run in order as the machine goes, so guards and invoked readers see them.
 */
import { and, assign, fromCallback, sendTo, setup } from 'xstate';
import type { Game } from '../game/game.js';
import type { Move, Square } from '../rules/index.js';
import type { Cells } from '../sensors/snapshot.js';
import type { MoveRecord } from '../tracker/game-port.js';
import type { TrackerEmitted, TrackerOptions } from '../tracker/machine.js';
import { Tracker } from '../tracker/tracker.js';
import type { Clock } from '../util/clock.js';

/** What the machine has done to the game and the record (session-core.ts). */
export interface LifecycleCore {
  /** Loads the board's unfinished game, if there is one, else prepares a new one; says which. */
  load(): Booted;
  readerInput(): ReaderInput;
  /** The game's journal starts (or goes on, resumed). */
  begin(): void;
  onReader(e: TrackerEmitted): void;
  /** The outcome may not be played past. */
  isFinal(): boolean;
  /** The ending is announced while play may go on past it. */
  announceEnd(): void;
  /** A game played past its ending and set up again at the start: close it. */
  setUpAgain(cells: Cells): boolean;
  /** Journals the end (or `*` abandoned), archives, ends the alerts. */
  close(abandoned: boolean): void;
  /** The next game; after an end, its reader starts only once the board changed. */
  prepare(fen: string | undefined, afterEnd: boolean): void;
  /** After an end: the board still shows the next game's position (wait for a change). */
  boardShowsNext(cells?: Cells): boolean;
}

/** What start found: a game to resume (ended already, with its last move), or none. */
export type Booted = 'resumed' | 'resumed_over' | 'new';

export interface ReaderInput {
  readonly game: Game;
  readonly options: TrackerOptions;
  readonly clock: Clock;
  /** What the board shows now: the reader's first reading. */
  readonly cells: Cells | undefined;
  readonly now: () => number;
  /** The session's veto on a move the reader commits (play against the engine). */
  readonly refuse?: (game: Game, move: Move) => string | undefined;
  /** Where each move is written before it counts as played (the journal). */
  readonly record?: MoveRecord;
}

export type ReaderCommand =
  | { type: 'snapshot'; t: number; cells: Cells }
  | { type: 'button'; t: number; side: 'red' | 'black' }
  | { type: 'options'; takebacks?: boolean; foulAfterMs?: number }
  /** The players' choice of a dead-sensor doubt's candidate; `reply` gets the reader's answer. */
  | {
      type: 'choose';
      candidate: number;
      /** The point the alert gave that candidate as dead (ties the answer to its alert). */
      sensor?: Square | undefined;
      reply: (answer: ReturnType<Tracker['choose']>) => void;
    }
  /** The players' correction of the record from `ply` on; `reply` gets the reader's answer. */
  | {
      type: 'correct';
      ply: number;
      line: readonly Move[];
      reply: (answer: ReturnType<Tracker['correct']>) => void;
    };

export type LifecycleEvent =
  /** Sent once the actor runs: load the game to resume, or prepare a new one. */
  | { type: 'boot' }
  /** A reading for the reader (game time). */
  | { type: 'sensor'; command: ReaderCommand & { type: 'snapshot' | 'button' } }
  | { type: 'options'; command: ReaderCommand & { type: 'options' } }
  | { type: 'choose'; command: ReaderCommand & { type: 'choose' } }
  | { type: 'correct'; command: ReaderCommand & { type: 'correct' } }
  | { type: 'reader'; event: TrackerEmitted }
  /** A new game (its FEN checked already). */
  | { type: 'new'; fen?: string | undefined }
  /** The game got an outcome off the board (resignation, draw, a flag). */
  | { type: 'ended' };

/** The move reader as a child actor: its events go to the parent, readings come from it. */
const reader = fromCallback<ReaderCommand, ReaderInput>(({ input, sendBack, receive }) => {
  const tracker = new Tracker(input.game, { ...input.options }, input.clock, input.record);
  tracker.port.refuse = input.refuse;
  let live = true;
  tracker.subscribe((event) => {
    if (live) sendBack({ type: 'reader', event });
  });
  tracker.start();
  if (input.cells !== undefined) tracker.send({ type: 'snapshot', t: input.now(), cells: input.cells });
  receive((c) => {
    if (c.type === 'options') {
      const { type: _, ...partial } = c;
      tracker.setOptions(partial);
    } else if (c.type === 'choose') c.reply(tracker.choose(c.candidate, c.sensor));
    else if (c.type === 'correct') c.reply(tracker.correct(c.ply, c.line));
    else tracker.send(c);
  });
  return () => {
    live = false;
    // The game may end inside one of the reader's own transitions: stop it after that one.
    queueMicrotask(() => tracker.stop());
  };
});

const readerIs =
  (type: TrackerEmitted['type']) =>
  ({ event }: { event: LifecycleEvent }): boolean =>
    event.type === 'reader' && event.event.type === type;

export const sessionMachine = setup({
  types: {
    context: {} as { core: LifecycleCore; booted: Booted | undefined },
    input: {} as { core: LifecycleCore },
    events: {} as LifecycleEvent,
  },
  actors: { reader },
  guards: {
    resumed: ({ context }) => context.booted === 'resumed',
    resumedOver: ({ context }) => context.booted === 'resumed_over',
    final: ({ context }) => context.core.isFinal(),
    gameStart: readerIs('gameStart'),
    gameOver: readerIs('gameOver'),
    setUpAgain: ({ context, event }) =>
      event.type === 'sensor' &&
      event.command.type === 'snapshot' &&
      context.core.setUpAgain(event.command.cells),
    boardShowsNext: ({ context }) => context.core.boardShowsNext(),
    boardChanged: ({ context, event }) =>
      event.type === 'sensor' &&
      event.command.type === 'snapshot' &&
      !context.core.boardShowsNext(event.command.cells),
  },
  actions: {
    load: assign({ booted: ({ context }) => context.core.load() }),
    forward: sendTo('reader', ({ event }) => (event as { command: ReaderCommand }).command),
    onReader: ({ context, event }) => {
      if (event.type === 'reader') context.core.onReader(event.event);
    },
    begin: ({ context }) => context.core.begin(),
    announceEnd: ({ context }) => context.core.announceEnd(),
    abandon: ({ context }) => context.core.close(true),
    close: ({ context }) => context.core.close(false),
    prepareNew: ({ context, event }) =>
      context.core.prepare(event.type === 'new' ? event.fen : undefined, false),
    prepareNext: ({ context }) => context.core.prepare(undefined, true),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ core: input.core, booted: undefined }),
  initial: 'boot',
  states: {
    /**
     * An unfinished game of this board in the archive is resumed, else a new one waits. Loading
     * waits for the actor to run: the core's actions then take effect as they are taken.
     */
    boot: { on: { boot: { target: 'loaded', actions: 'load' } } },
    loaded: {
      always: [
        { guard: 'resumed', target: 'game.resuming' },
        // The resumed game ended with its last journaled move, before its end record.
        { guard: 'resumedOver', target: 'over' },
        { target: 'game.setup' },
      ],
    },
    game: {
      invoke: { id: 'reader', src: 'reader', input: ({ context }) => context.core.readerInput() },
      on: {
        sensor: { actions: 'forward' },
        options: { actions: 'forward' },
        choose: { actions: 'forward' },
        correct: { actions: 'forward' },
        reader: { actions: 'onReader' },
        new: { target: 'game', reenter: true, actions: ['abandon', 'prepareNew'] },
      },
      initial: 'setup',
      states: {
        resuming: {
          on: {
            reader: [{ guard: 'gameStart', target: 'playing', actions: 'begin' }, { actions: 'onReader' }],
          },
        },
        setup: {
          on: {
            reader: [{ guard: 'gameStart', target: 'playing', actions: 'begin' }, { actions: 'onReader' }],
          },
        },
        playing: {
          on: {
            reader: [{ guard: and(['gameOver', 'final']), target: '#session.over' }, { actions: 'onReader' }],
            ended: [{ guard: 'final', target: '#session.over' }, { actions: 'announceEnd' }],
            sensor: [{ guard: 'setUpAgain', target: '#session.restart' }, { actions: 'forward' }],
          },
        },
      },
    },
    /** The game ended: recorded and archived; the next one waits for the board. */
    over: {
      entry: ['close', 'prepareNext'],
      always: [{ guard: 'boardShowsNext', target: 'waiting' }, { target: 'game.setup' }],
    },
    /** A game played past its ending, set up again: closed, and the next one read at once. */
    restart: { entry: ['close', 'prepareNew'], always: 'game.setup' },
    /** The board still shows the next game's position as the last one ended: wait for a change. */
    waiting: {
      on: {
        sensor: { guard: 'boardChanged', target: 'game.setup' },
        new: { target: 'game', actions: 'prepareNew' },
      },
    },
  },
});
