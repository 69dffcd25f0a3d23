/**
 * The one request API of the controller: a handler for each request name of the MQTT contract,
 * with that request's zod schema (contract.ts), called alike by MQTT (`bridge/request/<name>`),
 * HTTP (`POST /api/request/<name>` and the page's routes) and the terminal. Whatever the front end,
 * the same request gets the same answer and the same error (`code: message`).
 */

import type { EventMetadata } from '../broadcast/metadata.js';
import {
  isRequestName,
  parseRequest,
  REQUEST_NAMES,
  type RequestName,
  type RequestPayload,
  type ResponsePayload,
} from '../mqtt/contract.js';
import type { BoardSession } from './board-session.js';
import { oneHintAtATime } from './limits.js';

export interface RequestError {
  /** `bad_request`, `unknown_request`, `no_board`, `internal`, or the session's code. */
  readonly code: string;
  readonly message: string;
}

export type RequestResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: RequestError };

export interface RequestTarget {
  readonly sessions: ReadonlyMap<string, BoardSession>;
  /** The event metadata `event/meta` changes (without it, that request is refused). */
  readonly metadata?: EventMetadata;
  /** How long `game/new` on a simulated board waits for the board to show the new game. */
  readonly newGameWaitMs?: number;
}

type SessionResult = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
const fromSession = (r: SessionResult): RequestResult =>
  r.ok ? { ok: true, data: r.value } : { ok: false, error: r.error };
/** A game view as requests answer it: with its moves, without the PGN and the move times. */
const withoutPgn = <T extends { pgn?: string; times?: readonly number[] }>(
  view: T,
): Omit<T, 'pgn' | 'times'> => {
  const { pgn: _, times: __, ...rest } = view;
  return rest;
};

type Handler<N extends RequestName> = (
  request: RequestPayload<N>,
  session: BoardSession,
  target: RequestTarget,
) => RequestResult | Promise<RequestResult>;

/** Every request but `bridge/health` is for one board (`board`, or the only one). */
const HANDLERS: { readonly [N in Exclude<RequestName, 'bridge/health'>]: Handler<N> } = {
  'event/meta': (q, s, target) => {
    if (!target.metadata)
      return { ok: false, error: { code: 'unsupported', message: 'no event metadata here' } };
    const { transaction: _, board: __, ...change } = q;
    return { ok: true, data: target.metadata.set(s.id, change) };
  },
  'game/new': async (q, s, target) => {
    const { side, ...strength } = q.engine ?? {};
    const opponent = q.engine === undefined ? undefined : side ? { side, strength } : null;
    const r = s.newGame(q.fen, opponent);
    if (!r.ok) return fromSession(r);
    // A simulated board was set up for it: answer once its game is under way.
    if (s.simulator) await s.untilPlaying(target.newGameWaitMs ?? 2000);
    return { ok: true, data: withoutPgn(s.view()) };
  },
  'game/resign': (q, s) => fromSession(s.resign(q.side)),
  'game/draw': (q, s) => fromSession(s.draw(q.action, q.side)),
  'game/options': (q, s) => ({
    ok: true,
    data: s.setOptions({
      ...(q.takebacks !== undefined ? { takebacks: q.takebacks } : {}),
      ...(q.illegalMovePolicy !== undefined ? { illegalMovePolicy: q.illegalMovePolicy } : {}),
    }),
  }),
  'game/resolve': (q, s) => fromSession(s.resolve(q.candidate, q.sensor)),
  'game/correct': (q, s) => {
    const r = s.correct(q.ply, q.moves);
    return r.ok ? { ok: true, data: withoutPgn(r.value) } : fromSession(r);
  },
  'game/hint': async (_q, s) =>
    (await oneHintAtATime(s, async () => fromSession(await s.hint()))) ?? {
      ok: false,
      error: {
        code: 'busy',
        message: 'a hint for this board is being worked out; ask again when it is given',
      },
    },
  'game/get': (_q, s) => ({ ok: true, data: withoutPgn(s.view()) }),
  'board/simulate': async (q, s) =>
    fromSession(
      await s.simulate({
        ...(q.move !== undefined ? { move: q.move } : {}),
        ...(q.reset !== undefined ? { reset: q.reset } : {}),
        ...(q.fen !== undefined ? { fen: q.fen } : {}),
      }),
    ),
};

/**
 * One request: `payload` is the JSON text (MQTT, HTTP) or the object (terminal), checked by the
 * request's schema. `board` given by the front end (the HTTP route's, the MQTT topic's) must agree
 * with the payload's, and so must the topic's `side` (a player's requests carry both).
 */
export async function performRequest(
  target: RequestTarget,
  name: string,
  payload: string | Buffer | object,
  routeBoard?: string,
  routeSide?: 'red' | 'black',
): Promise<{ result: RequestResult; transaction: string | number | null }> {
  const text = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  if (!isRequestName(name)) {
    const message = `unknown request "${name}"; known: ${REQUEST_NAMES.join(', ')}`;
    return {
      result: { ok: false, error: { code: 'unknown_request', message } },
      transaction: transactionOf(text),
    };
  }
  const parsed = parseRequest(name, text);
  if (!parsed.ok) {
    return {
      result: { ok: false, error: { code: 'bad_request', message: parsed.message } },
      transaction: parsed.transaction,
    };
  }
  const transaction = parsed.value.transaction ?? null;
  const side = (parsed.value as { side?: string }).side;
  if (routeSide !== undefined && side !== undefined && side !== routeSide) {
    const message = `"side": "${side}" is not the side of the topic ("${routeSide}")`;
    return { result: { ok: false, error: { code: 'bad_request', message } }, transaction };
  }
  const request = routeSide !== undefined ? { ...parsed.value, side: routeSide } : parsed.value;
  try {
    return { result: await dispatch(target, name, request, routeBoard), transaction };
  } catch (e) {
    // A bug in a handler answers as an error; the controller goes on.
    return {
      result: { ok: false, error: { code: 'internal', message: `internal error: ${(e as Error).message}` } },
      transaction,
    };
  }
}

async function dispatch<N extends RequestName>(
  target: RequestTarget,
  name: N,
  request: RequestPayload<N>,
  routeBoard: string | undefined,
): Promise<RequestResult> {
  if (name === 'bridge/health') {
    return { ok: true, data: Object.fromEntries([...target.sessions].map(([id, s]) => [id, s.health()])) };
  }
  const asked = (request as { board?: string }).board;
  if (routeBoard !== undefined && asked !== undefined && asked !== routeBoard) {
    return {
      ok: false,
      error: {
        code: 'bad_request',
        message: `"board": "${asked}" is not the board of the URL ("${routeBoard}")`,
      },
    };
  }
  const found = sessionOf(target, asked ?? routeBoard);
  if (!found.ok) return found;
  const handler = HANDLERS[name as Exclude<RequestName, 'bridge/health'>] as Handler<RequestName>;
  return handler(request, found.session, target);
}

function sessionOf(
  target: RequestTarget,
  board: string | undefined,
): { ok: true; session: BoardSession } | { ok: false; error: RequestError } {
  const sessions = target.sessions;
  const ids = [...sessions.keys()].map((i) => `"${i}"`).join(', ');
  if (board === undefined) {
    const only = sessions.size === 1 ? sessions.values().next().value : undefined;
    return only
      ? { ok: true, session: only }
      : { ok: false, error: { code: 'no_board', message: `"board" is required: one of ${ids}` } };
  }
  const s = sessions.get(board);
  return s
    ? { ok: true, session: s }
    : { ok: false, error: { code: 'no_board', message: `"board": no board "${board}"; boards: ${ids}` } };
}

/** The `transaction` of a payload that is not checked (an unknown request's), if it has one. */
export function transactionOf(text: string | Buffer): string | number | null {
  try {
    const t = (JSON.parse(text.toString()) as { transaction?: unknown } | null)?.transaction;
    return typeof t === 'string' || typeof t === 'number' ? t : null;
  } catch {
    return null;
  }
}

/** The MQTT response (and the HTTP body) of a result: the error as `code: message`. */
export function responseOf(result: RequestResult, transaction: string | number | null): ResponsePayload {
  return result.ok
    ? { data: result.data, status: 'ok', transaction }
    : { data: {}, status: 'error', error: errorText(result.error), code: result.error.code, transaction };
}

/** Parse errors and board errors read as they always did; the sessions' errors carry their code. */
export function errorText(e: RequestError): string {
  return ['bad_request', 'unknown_request', 'no_board', 'internal'].includes(e.code)
    ? e.message
    : `${e.code}: ${e.message}`;
}

/** The HTTP status of a result. */
export function httpStatusOf(result: RequestResult): number {
  if (result.ok) return 200;
  const code = result.error.code;
  const access: Record<string, number> = { unauthorized: 401, forbidden: 403, busy: 409, rate_limited: 429 };
  return (
    access[code] ??
    (code === 'no_board' || code === 'unknown_request' ? 404 : code === 'internal' ? 500 : 400)
  );
}
