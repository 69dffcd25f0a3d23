/**
 * Who may do what: the roles of the configuration (`access`) as topic rules, one table read by
 * the embedded broker (aedes hooks below), by the Mosquitto files `xqboard mosquitto-acl` writes
 * (mosquitto-acl.ts) and by the web server (the request rule).
 *
 * - viewer (anonymous by default): reads the board topics and `bridge/state|info`, writes nothing;
 * - player: a viewer that reads the responses and may ask its own board's hints and game, offer,
 *   accept or decline draws and resign, for its side;
 * - arbiter: every request on every board, reads everything ($SYS too);
 * - led: its WLED topic only; controller: everything.
 *
 * A player's requests carry the board (and the side) in the topic, so a broker that only knows
 * topics (Mosquitto's acl_file) can tell them apart: `<base>/bridge/request/game/resign/board1/red`.
 * The controller checks that the payload agrees with the topic (requests.ts).
 */
import { pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccessConfig, UserConfig } from '../config/schema.js';
import { REQUEST_NAMES, type RequestName } from './contract.js';

export type Role = UserConfig['role'];
export type Side = 'red' | 'black';

/** Who a client is once logged in (or not). */
export interface Account {
  /** null: anonymous. */
  readonly name: string | null;
  readonly role: Role;
  readonly board?: string;
  readonly side?: Side;
  readonly topic?: string;
}

export const ANONYMOUS_VIEWER: Account = { name: null, role: 'viewer' };

/** Requests a player may make on its own board; those with a side are made for its side. */
export const PLAYER_REQUESTS: readonly string[] = [
  'game/hint',
  'game/get',
  'game/draw',
  'game/resign',
  'game/resolve',
  'game/correct',
];
const PLAYER_REQUEST_SET: ReadonlySet<string> = new Set(PLAYER_REQUESTS);
/** The requests that take a `side` (and may have it in their topic). */
export const SIDED_REQUESTS: ReadonlySet<string> = new Set(['game/draw', 'game/resign']);

export interface RequestRoute {
  readonly name: RequestName | string;
  readonly board?: string;
  readonly side?: Side;
}

/**
 * A request topic read: `<base>/bridge/request/<name>[/<board>[/<side>]]`. Undefined when the
 * topic is not under the request prefix; an unknown name is returned as it is.
 */
export function parseRequestTopic(base: string, topic: string): RequestRoute | undefined {
  const prefix = `${base}/bridge/request/`;
  if (!topic.startsWith(prefix)) return undefined;
  const rest = topic.slice(prefix.length);
  const name = REQUEST_NAMES.find((n) => rest === n || rest.startsWith(`${n}/`));
  if (!name) return { name: rest };
  if (rest === name) return { name };
  const [board, side, ...more] = rest.slice(name.length + 1).split('/');
  if (more.length > 0 || !board) return { name: rest };
  if (side === undefined) return { name, board };
  if (!SIDED_REQUESTS.has(name) || (side !== 'red' && side !== 'black')) return { name: rest };
  return { name, board, side };
}

/** Whether `account` may make a request (board and side as its topic or route says them). */
export function mayRequest(account: Account, route: RequestRoute): boolean {
  if (account.role === 'arbiter' || account.role === 'controller') return true;
  if (account.role !== 'player' || !PLAYER_REQUEST_SET.has(route.name)) return false;
  if (route.board !== account.board) return false;
  if (!SIDED_REQUESTS.has(route.name)) return true;
  return route.side !== undefined && (account.side === undefined || account.side === route.side);
}

const under = (topic: string, root: string): boolean => topic === root || topic.startsWith(`${root}/`);

/** Whether `account` may receive a message of `topic`. */
export function mayRead(account: Account, base: string, topic: string): boolean {
  switch (account.role) {
    case 'controller':
    case 'arbiter':
      return true;
    case 'led':
      return account.topic !== undefined && under(topic, account.topic);
    default: {
      if (!topic.startsWith(`${base}/`)) return false;
      const rest = topic.slice(base.length + 1);
      if (rest === 'bridge/state' || rest === 'bridge/info') return true;
      if (account.role === 'player' && rest.startsWith('bridge/response/')) return true;
      // Every board's public topics (`<base>/<board>/…`); `bridge/` holds the requests.
      return !rest.startsWith('bridge/') && rest !== 'bridge';
    }
  }
}

/**
 * Whether `account` may publish on `topic`. `homeAssistantStatus`: Home Assistant's birth message
 * (`<prefix>/status`), which its account (an arbiter's) sends when it comes online.
 */
export function mayWrite(
  account: Account,
  base: string,
  topic: string,
  homeAssistantStatus?: string,
): boolean {
  if (account.role === 'controller') return true;
  if (account.role === 'arbiter' && topic === homeAssistantStatus) return true;
  if (account.role === 'led') return account.topic !== undefined && under(topic, account.topic);
  const route = parseRequestTopic(base, topic);
  return route !== undefined && mayRequest(account, route);
}

// ---------------------------------------------------------------------------------------------
// Logins

/** Mosquitto's `$7$`: PBKDF2-SHA512, 101 iterations, 12 bytes of salt (what mosquitto_passwd writes). */
export function hashPassword(password: string, iterations = 101): string {
  const salt = randomBytes(12);
  const hash = pbkdf2Sync(password, salt, iterations, 64, 'sha512');
  return `$7$${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

function checkHash(password: string, stored: string): boolean {
  const [, seven, iterations, salt, hash] = stored.split('$');
  if (seven !== '7' || !iterations || !salt || !hash) return false;
  const want = Buffer.from(hash, 'base64');
  const got = pbkdf2Sync(password, Buffer.from(salt, 'base64'), Number(iterations), want.length, 'sha512');
  return got.length === want.length && timingSafeEqual(got, want);
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const accountOf = (u: UserConfig): Account => ({
  name: u.name,
  role: u.role,
  ...(u.board !== undefined ? { board: u.board } : {}),
  ...(u.side !== undefined ? { side: u.side } : {}),
  ...(u.topic !== undefined ? { topic: u.topic } : {}),
});

/** The accounts of a configuration, and the controller's own. */
export class AccessList {
  private readonly users = new Map<string, UserConfig>();

  constructor(
    readonly config: AccessConfig,
    /** The controller's own login (its bridge's), with the controller role. */
    controller?: { readonly username: string; readonly password: string },
  ) {
    for (const u of config.users) this.users.set(u.name, u);
    if (controller) {
      this.users.set(controller.username, {
        name: controller.username,
        password: controller.password,
        role: 'controller',
      });
    }
  }

  /** The account of an anonymous client, or undefined when anonymous clients are refused. */
  get anonymous(): Account | undefined {
    const role = this.config.anonymous;
    return role === 'none' ? undefined : { name: null, role };
  }

  /** The account of a good login; undefined for an unknown name or a wrong password. */
  login(name: string, password: string): Account | undefined {
    const u = this.users.get(name);
    if (!u) {
      // As slow as a known name, so a wrong guess does not tell which names exist.
      checkHash(password, DUMMY_HASH);
      return undefined;
    }
    const good =
      u.passwordHash !== undefined ? checkHash(password, u.passwordHash) : same(password, u.password ?? '');
    return good ? accountOf(u) : undefined;
  }
}

const DUMMY_HASH = hashPassword('xqboard');

// ---------------------------------------------------------------------------------------------
// Failed logins: logged and slowed

/**
 * Each address's failed logins are answered one after another, each later than the one before
 * (0.5 s more a failure, at most 5 s between two answers), so guesses made in parallel wait as
 * long as guesses made in turn. Once the answers owed reach 30 s ahead the address is locked out:
 * its logins are refused without a password check until then. Forgotten after a quiet minute.
 */
export class LoginThrottle {
  /** How much later each failed login of an address is answered than the one before. */
  static readonly STEP_MS = 500;
  /** At most this long between two answers. */
  static readonly MAX_MS = 5000;
  /** Answers owed this far ahead lock the address out. */
  static readonly LOCK_MS = 30_000;

  private readonly failures = new Map<string, { count: number; last: number; until: number }>();

  constructor(
    private readonly stepMs = LoginThrottle.STEP_MS,
    private readonly maxMs = LoginThrottle.MAX_MS,
    private readonly lockMs = LoginThrottle.LOCK_MS,
  ) {}

  /** How long to wait before answering a failed login from `address` (and counts it). */
  failed(address: string, now = Date.now()): number {
    const f = this.failures.get(address);
    const fresh = !f || (now - f.last >= 60_000 && f.until <= now);
    const count = fresh ? 1 : f.count + 1;
    const until = Math.max(now, fresh ? now : f.until) + Math.min(this.stepMs * count, this.maxMs);
    this.failures.set(address, { count, last: now, until });
    if (this.failures.size > 10_000) {
      for (const [a, v] of this.failures) if (v.until < now) this.failures.delete(a);
    }
    return until - now;
  }

  /** Whether `address` is locked out now (its logins refused unchecked). */
  locked(address: string, now = Date.now()): boolean {
    const f = this.failures.get(address);
    return f !== undefined && f.until - now > this.lockMs;
  }
}
