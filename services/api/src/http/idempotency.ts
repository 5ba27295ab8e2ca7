import { createHash, randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { type ColumnType, type Kysely, sql } from 'kysely';
import { APP_SCHEMA, type AppDb } from '../storage/appDatabase.ts';
import type { AppTables } from '../storage/schema.ts';
import { HEARTBEAT_SECONDS, PROCESS_GONE_SECONDS } from './apiProcess.ts';
import { HttpError } from './errors.ts';
import { takesRawBody } from './rawBodies.ts';

const KEY = /^[\w.:-]{1,200}$/;
const KEPT_HOURS = 24;
/**
 * How long a pending claim is held without word from its request, on the database's clock (one
 * clock for every API replica). A running request renews it every half lease. A claim is freed
 * sooner when its process is gone (see `processGone`); the lease is the bound for a request
 * that hangs in a live process, and for claims that name no process (from before migration 007).
 */
export const LEASE_SECONDS = 5 * 60;

/** The claim's lease and holder (migration 005) and its process (007), beside `AppTables`. */
type Claims = Kysely<{
  idempotency_keys: AppTables['idempotency_keys'] & {
    lease_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
    claim_token: string | null;
    process_id: string | null;
  };
}>;

const leaseEnd = sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})`;
/** A claim's lease has run out (one from before leases: counted from when it was made). */
const leaseOver = sql<boolean>`coalesce(lease_until, created_at + make_interval(secs => ${LEASE_SECONDS})) < now()`;
const processes = sql.table(`${APP_SCHEMA}.api_processes`);
/**
 * The claim's process is gone: it has not beaten for `PROCESS_GONE_SECONDS` (killed, cut off), or
 * its row is gone (removed on its clean shutdown, or at the start of a PGlite process, the only
 * one its database can have). The process asking is alive, whatever its row says.
 */
const processGone = (me: string) =>
  sql<boolean>`(process_id IS NOT NULL AND process_id <> ${me} AND NOT EXISTS (
    SELECT 1 FROM ${processes} p WHERE p.id = process_id
      AND p.heartbeat_at > now() - make_interval(secs => ${PROCESS_GONE_SECONDS})))`;

/** Answers are replayed for a day; older keys are forgotten. */
export const purgeIdempotencyKeys = (db: AppDb) =>
  db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(Date.now() - KEPT_HOURS * 3_600_000))
    .execute();

/**
 * `Idempotency-Key` on commands: the first request with a key runs and its answer is stored;
 * the same key with the same request replays that answer and applies nothing again. A key
 * reused for a different request is refused, and so is one whose first request still runs
 * (`409 request_in_progress`, with a `Retry-After` of seconds). A claim names its process
 * (`ApiProcess`, `processId`) and holds a lease that its request renews; a claim whose request was
 * cut off is taken over by the next retry as soon as its process is gone (no beat for
 * `PROCESS_GONE_SECONDS`), or its lease ran out, and the request runs again: the commands behind
 * these routes are idempotent by their own ids, so the retry learns the outcome without applying
 * it twice. Only the claim's current holder records an answer. Sign-in routes are not commands of
 * the ledger: a replay could not give back a session.
 */
export const idempotency =
  (appDb: AppDb, processId: string): RequestHandler =>
  async (req, res, next) => {
    const db = appDb as unknown as Claims;
    const header = req.get('idempotency-key');
    // Answers are matched by their JSON body: a body of another kind (a picture) is not keyed.
    if (
      !header ||
      req.method === 'GET' ||
      req.method === 'HEAD' ||
      req.path.startsWith('/auth/') ||
      req.is('application/json') === false ||
      takesRawBody(req)
    ) {
      return next();
    }
    if (!KEY.test(header)) {
      return next(
        new HttpError(
          400,
          'invalid_request',
          'Idempotency-Key must be 1-200 letters, digits or .:_-',
        ),
      );
    }
    const key = `${req.session?.userId ?? 'anonymous'}:${header}`;
    req.idempotencyKey = key;
    const requestHash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const token = randomUUID();

    let claimed = await db
      .insertInto('idempotency_keys')
      .values({
        key,
        request_hash: requestHash,
        created_at: new Date(),
        lease_until: leaseEnd,
        claim_token: token,
        process_id: processId,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const first = await db
        .selectFrom('idempotency_keys')
        .select([
          'request_hash',
          'status',
          'body',
          'process_id',
          sql<number>`ceil(extract(epoch from (coalesce(lease_until, created_at + make_interval(secs => ${LEASE_SECONDS})) - now())))`.as(
            'lease_left',
          ),
        ])
        .where('key', '=', key)
        .executeTakeFirst();
      if (!first)
        return next(new HttpError(409, 'request_in_progress', 'Please retry this request'));
      if (first.request_hash !== requestHash) {
        return next(
          new HttpError(
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was used for a different request',
          ),
        );
      }
      if (first.status !== null) {
        res.set('Idempotent-Replayed', 'true');
        res.status(first.status).json(first.body);
        return;
      }
      // Pending: its request was cut off if its process is gone or its lease ran out. One retry
      // takes it over.
      claimed = await db
        .updateTable('idempotency_keys')
        .set({ lease_until: leaseEnd, claim_token: token, process_id: processId })
        .where('key', '=', key)
        .where('status', 'is', null)
        .where('request_hash', '=', requestHash)
        .where(sql<boolean>`(${leaseOver} OR ${processGone(processId)})`)
        .returning('key')
        .executeTakeFirst();
      if (!claimed) {
        // A live process answers soon, or stops beating and its claim is taken over: ask again
        // in a beat. A claim that names no process waits for its lease.
        const leaseLeft = Math.max(1, Number(first.lease_left) || 1);
        res.set(
          'Retry-After',
          String(first.process_id === null ? leaseLeft : Math.min(leaseLeft, HEARTBEAT_SECONDS)),
        );
        return next(
          new HttpError(
            409,
            'request_in_progress',
            'A request with this Idempotency-Key is still running',
          ),
        );
      }
      req.log?.warn(
        { idempotencyKey: header },
        'Idempotency-Key: its first request was cut off (its process gone, or its lease over); running it again.',
      );
    }

    // Held while the request runs: renewed every half lease, released with the answer.
    const mine = () =>
      db.updateTable('idempotency_keys').where('key', '=', key).where('claim_token', '=', token);
    const renewal = setInterval(() => {
      void mine()
        .set({ lease_until: leaseEnd })
        .where('status', 'is', null)
        .execute()
        .catch(() => {});
    }, LEASE_SECONDS * 500);
    renewal.unref();
    res.once('close', () => clearInterval(renewal));

    // Keep the answer: final ones are replayed; a server failure frees the key for a retry.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      clearInterval(renewal);
      const status = res.statusCode;
      const stored =
        status >= 500
          ? db
              .deleteFrom('idempotency_keys')
              .where('key', '=', key)
              .where('claim_token', '=', token)
              .execute()
          : mine()
              .set({ status, body: JSON.stringify(body ?? null), lease_until: null })
              .execute();
      stored.then(
        () => json(body),
        (error) => {
          req.log?.error({ err: error }, 'Storing the answer of an Idempotency-Key failed');
          json(body);
        },
      );
      return res;
    };
    next();
  };
