/**
 * The embedded broker's access control: aedes' hooks applying the rules of access.ts.
 *
 * - logins: a known name with its password, or anonymous with `access.anonymous`'s role; a failed
 *   login is logged and answered later each time (LoginThrottle);
 * - a client id already connected is refused to anyone but the same account (nobody takes over
 *   another's session, nor the controller's);
 * - publishes a client may not make are acknowledged and dropped (as Mosquitto does: MQTT 3.1.1
 *   has no refusal for a PUBLISH), and so are retained requests and requests beyond the client's
 *   rate, those two answered with an error on the request's response topic;
 * - each message is delivered only to the clients that may read its topic, whatever they
 *   subscribed to (`$SYS` only to arbiters and the controller).
 */
import type { Aedes, Client } from 'aedes';
import { RATE_LIMITED, type RateLimiter } from '../controller/limits.js';
import { responseOf, transactionOf } from '../controller/requests.js';
import type { Logger } from '../util/log.js';
import {
  type AccessList,
  type Account,
  LoginThrottle,
  mayRead,
  mayWrite,
  parseRequestTopic,
} from './access.js';
import { bridgeTopics, RESPONSE_SPEC } from './contract.js';

export interface GuardOptions {
  readonly access: AccessList;
  readonly baseTopic: string;
  readonly limiter: RateLimiter;
  readonly logger: Logger;
  /** Home Assistant's birth topic, when discovery is on: its (arbiter) account may publish it. */
  readonly homeAssistantStatus?: string | undefined;
}

type Packet = { topic: string; payload: Buffer | string; retain: boolean; qos: 0 | 1 | 2 };

const returnCode = (message: string, code: 2 | 4 | 5) =>
  Object.assign(new Error(message), { returnCode: code }) as Error & { returnCode: never };

function addressOf(client: Client): string {
  const c = client as unknown as {
    conn?: { remoteAddress?: string };
    req?: { socket?: { remoteAddress?: string } };
  };
  return c.conn?.remoteAddress ?? c.req?.socket?.remoteAddress ?? 'unknown';
}

export function guardBroker(aedes: Aedes, options: GuardOptions): void {
  const { access, baseTopic, limiter, logger } = options;
  const accounts = new WeakMap<Client, Account>();
  const throttle = new LoginThrottle();
  /** Publishes acknowledged but not passed on. */
  const dropped = new WeakSet<object>();
  const responses = bridgeTopics(baseTopic);
  const publish = aedes.publish.bind(aedes);

  aedes.authenticate = (client, username, password, done) => {
    const address = addressOf(client);
    if (username && throttle.locked(address)) {
      logger.warn(`mqtt: login of "${username}" from ${address} refused unchecked: too many failed logins`);
      done(returnCode('too many failed logins: wait', 4), false);
      return;
    }
    const account =
      username === undefined || username === ''
        ? access.anonymous
        : access.login(username, password?.toString('utf8') ?? '');
    if (!account && !username) {
      // access.anonymous: none. No password was guessed: refused at once.
      done(returnCode('anonymous clients are not allowed: log in', 5), false);
      return;
    }
    if (!account) {
      const wait = throttle.failed(address);
      logger.warn(
        `mqtt: failed login of "${username}" from ${address} (client id "${client.id}"); answered in ${wait} ms`,
      );
      setTimeout(() => done(returnCode('bad user name or password', 4), false), wait).unref();
      return;
    }
    const holder = (aedes as unknown as { clients: Record<string, Client | undefined> }).clients[client.id];
    const held = holder ? accounts.get(holder) : undefined;
    if (holder && holder !== client && (account.name === null || held?.name !== account.name)) {
      logger.warn(`mqtt: ${address} asked for client id "${client.id}", which another client holds: refused`);
      done(returnCode(`client id "${client.id}" is in use`, 2), false);
      return;
    }
    accounts.set(client, account);
    done(null, true);
  };

  // Any subscription is granted, as Mosquitto grants it: what it delivers is filtered below.
  aedes.authorizeSubscribe = (client, sub, done) => done(null, accounts.has(client) ? sub : null);

  aedes.authorizeForward = (client, packet) => {
    const account = accounts.get(client);
    return account && mayRead(account, baseTopic, packet.topic) ? packet : null;
  };

  aedes.authorizePublish = (client, packet, done) => {
    // The broker's own messages (a will published after its client is gone) pass.
    if (!client) return done(null);
    const account = accounts.get(client);
    if (!account || !mayWrite(account, baseTopic, packet.topic, options.homeAssistantStatus)) {
      dropped.add(packet);
      return done(null);
    }
    const route = account.role === 'controller' ? undefined : parseRequestTopic(baseTopic, packet.topic);
    if (route) {
      const refusal = packet.retain
        ? {
            code: 'retained',
            message: 'a request must not be retained (it would be obeyed again at every reconnect)',
          }
        : !limiter.take(`mqtt:${client.id}`)
          ? RATE_LIMITED
          : undefined;
      if (refusal) {
        dropped.add(packet);
        answer(route.name, packet.payload, refusal);
      }
    }
    done(null);
  };

  // Dropped publishes stop here: acknowledged to their client, given to nobody, never retained.
  aedes.publish = ((packet: Packet, client: unknown, done?: (e?: Error | null) => void) => {
    if (dropped.has(packet)) {
      dropped.delete(packet);
      (typeof client === 'function' ? client : done)?.(null);
      return;
    }
    (publish as (...args: unknown[]) => void)(packet, client, done);
  }) as typeof aedes.publish;

  function answer(name: string, payload: Buffer | string, error: { code: string; message: string }): void {
    const response = responseOf({ ok: false, error }, transactionOf(payload));
    (publish as (...args: unknown[]) => void)(
      {
        cmd: 'publish',
        topic: responses.response(name),
        payload: Buffer.from(JSON.stringify(response)),
        qos: RESPONSE_SPEC.qos,
        retain: RESPONSE_SPEC.retain,
        dup: false,
      },
      null,
      () => {},
    );
  }
}
