import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppDb } from '../storage/appDatabase.ts';
import { HttpError } from './errors.ts';

const KEY = /^[\w.:-]{1,200}$/;
const KEPT_HOURS = 24;

/** Answers are replayed for a day; older keys are forgotten. */
export const purgeIdempotencyKeys = (db: AppDb) =>
  db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', new Date(Date.now() - KEPT_HOURS * 3_600_000))
    .execute();

/**
 * `Idempotency-Key` on commands: the first request with a key runs and its answer is stored;
 * the same key with the same request replays that answer and applies nothing again. A key
 * reused for a different request is refused, and so is one whose first request still runs.
 * Sign-in routes are not commands of the ledger: a replay could not give back a session.
 */
export const idempotency =
  (db: AppDb): RequestHandler =>
  async (req, res, next) => {
    const header = req.get('idempotency-key');
    // Answers are matched by their JSON body: a body of another kind (a picture) is not keyed.
    if (
      !header ||
      req.method === 'GET' ||
      req.method === 'HEAD' ||
      req.path.startsWith('/auth/') ||
      req.is('application/json') === false
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
    const requestHash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');

    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ key, request_hash: requestHash, created_at: new Date() })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const first = await db
        .selectFrom('idempotency_keys')
        .selectAll()
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
      if (first.status === null) {
        return next(
          new HttpError(
            409,
            'request_in_progress',
            'A request with this Idempotency-Key is still running',
          ),
        );
      }
      res.set('Idempotent-Replayed', 'true');
      res.status(first.status).json(first.body);
      return;
    }

    // Keep the answer: final ones are replayed; a server failure frees the key for a retry.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const status = res.statusCode;
      const stored =
        status >= 500
          ? db.deleteFrom('idempotency_keys').where('key', '=', key).execute()
          : db
              .updateTable('idempotency_keys')
              .set({ status, body: JSON.stringify(body ?? null) })
              .where('key', '=', key)
              .execute();
      stored.then(
        () => json(body),
        (error) => {
          console.error(error);
          json(body);
        },
      );
      return res;
    };
    next();
  };
