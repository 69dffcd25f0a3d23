/**
 * Who is asking the web server: the page's controls (every POST) need a login, and come from the
 * page's own origin.
 *
 * - `Authorization: Bearer <token>`: the token printed when the controller starts (an arbiter's
 *   rights), or one given by `POST /api/login` for a configured name and password;
 * - `Authorization: Basic` with a configured name and password (scripts, curl);
 * - nothing: the anonymous role (`access.anonymous`, a viewer unless the configuration says more).
 *
 * A POST whose `Origin` (or `Sec-Fetch-Site`) says it comes from another site is refused whatever
 * it carries, so a page elsewhere cannot drive the controller through a visitor's browser.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AccessList, Account } from '../mqtt/access.js';
import { LoginThrottle } from '../mqtt/access.js';

export const TOKEN_ACCOUNT: Account = { name: 'token', role: 'arbiter' };

export type Who =
  | { ok: true; account: Account; login: boolean }
  | { ok: false; status: number; error: string };

export class WebAuth {
  /** Printed at start: whoever has it is an arbiter until the controller stops. */
  readonly token = randomBytes(18).toString('base64url');
  private readonly sessions = new Map<string, Account>();
  private readonly throttle = new LoginThrottle();

  constructor(private readonly access: AccessList) {}

  /** Refuses a request made by a page of another origin. */
  sameOrigin(req: IncomingMessage): { ok: true } | { ok: false; error: string } {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      let host: string | undefined;
      try {
        host = new URL(origin).host;
      } catch {
        host = undefined;
      }
      if (host !== req.headers.host)
        return { ok: false, error: `requests from ${origin} are refused (another origin)` };
    } else if (origin === 'null') return { ok: false, error: 'requests from an opaque origin are refused' };
    const site = req.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      return { ok: false, error: 'requests from another site are refused' };
    }
    return { ok: true };
  }

  /** The account of a request (anonymous without credentials); bad credentials are an error. */
  async who(req: IncomingMessage): Promise<Who> {
    const header = req.headers.authorization;
    if (!header) {
      const anonymous = this.access.anonymous;
      return anonymous
        ? { ok: true, account: anonymous, login: false }
        : { ok: false, status: 401, error: 'log in first' };
    }
    const [scheme, value = ''] = header.split(' ', 2);
    if (this.throttle.locked(req.socket.remoteAddress ?? 'unknown')) {
      return { ok: false, status: 429, error: 'too many failed logins from this address: wait a little' };
    }
    if (scheme?.toLowerCase() === 'bearer') {
      const account = value === this.token ? TOKEN_ACCOUNT : this.sessions.get(value);
      if (account) return { ok: true, account, login: true };
      return this.failed(req, 'the token is not (or no longer) valid: log in again');
    }
    if (scheme?.toLowerCase() === 'basic') {
      const text = Buffer.from(value, 'base64').toString('utf8');
      const colon = text.indexOf(':');
      return this.login(req, text.slice(0, colon), text.slice(colon + 1)).then((r) =>
        r.ok ? { ok: true, account: r.account, login: true } : r,
      );
    }
    return { ok: false, status: 401, error: `unknown authorization "${scheme}": use Bearer or Basic` };
  }

  /** `POST /api/login`: a name and password for a session token. */
  async login(
    req: IncomingMessage,
    name: string,
    password: string,
  ): Promise<{ ok: true; account: Account; token: string } | { ok: false; status: number; error: string }> {
    const address = req.socket.remoteAddress ?? 'unknown';
    if (this.throttle.locked(address)) {
      return { ok: false, status: 429, error: 'too many failed logins from this address: wait a little' };
    }
    const account = name ? this.access.login(name, password) : undefined;
    if (!account || account.role === 'led' || account.role === 'controller') {
      return this.failed(req, 'wrong name or password', name);
    }
    const token = randomBytes(18).toString('base64url');
    if (this.sessions.size > 10_000) this.sessions.clear();
    this.sessions.set(token, account);
    return { ok: true, account, token };
  }

  /** A failed login: logged, and answered later the more an address fails. */
  private async failed(
    req: IncomingMessage,
    error: string,
    name?: string,
  ): Promise<{ ok: false; status: 401; error: string }> {
    const address = req.socket.remoteAddress ?? 'unknown';
    const wait = this.throttle.failed(address);
    this.onFailure?.(
      `web: failed login${name ? ` of "${name}"` : ''} from ${address}; answered in ${wait} ms`,
    );
    await new Promise((r) => setTimeout(r, wait));
    return { ok: false, status: 401, error };
  }

  onFailure: ((message: string) => void) | undefined;
}
