import {
  AVATAR_MAX_BYTES,
  type BirthPlace,
  type BirthPlaceRecord,
  meSchema,
  type ProfileFields,
  type ProfileUpdate,
  profileUpdateSchema,
} from '@astra/contracts';
import { birthPlaceRecord, findPlace } from '@astra/readings';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { AppDeps } from '../../dependencies.ts';
import { requireUser } from '../../http/auth.ts';
import { fieldsOf, HttpError, notFound } from '../../http/errors.ts';
import {
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import {
  AVATAR_ID,
  avatarIdOf,
  avatarUrlOf,
  findAvatar,
  renewAvatar,
  storeAvatar,
  tryReleaseUnusedAvatars,
} from '../../storage/avatarStore.ts';
import { profileOf } from '../accounts/queries.ts';
import { meView, subscriptionContextOf } from '../accounts/views.ts';
import { sniffImageType } from './imageType.ts';

/** The spec's words for the profile page's read-only e-mail. */
const EMAIL_READ_ONLY = 'Email cannot be changed. Contact support if needed.';

const tooLarge = () =>
  new HttpError(
    413,
    'payload_too_large',
    `The picture must be at most ${AVATAR_MAX_BYTES / 1024 / 1024} MB`,
  );
const notAnImage = () =>
  new HttpError(
    415,
    'unsupported_media_type',
    'The picture must be a PNG, JPEG, GIF or WebP image',
  );

const rawBody = express.raw({ type: () => true, limit: AVATAR_MAX_BYTES });

/** The raw bytes of any content type, up to the avatar limit (the type is judged by its bytes). */
const rawPicture: RequestHandler = (req, res, next) =>
  rawBody(req, res, (error?: unknown) => {
    if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
      return next(tooLarge());
    }
    next(error);
  });

/**
 * The birthplace a profile update leaves: the place chosen from the suggestions (its name and
 * country fill the free text the request leaves out); else, when the city or country changes,
 * the place of that name in the index, or null (the text stays, free); else unchanged.
 */
export function withBirthPlace(
  changes: Omit<ProfileUpdate, 'birthPlace'>,
  chosen: BirthPlace | null | undefined,
  current: Pick<ProfileFields, 'birthCity' | 'birthCountry'>,
): { fields: Omit<ProfileUpdate, 'birthPlace'>; birthPlace: BirthPlaceRecord | null | undefined } {
  if (chosen) {
    return {
      fields: {
        ...changes,
        birthCity: changes.birthCity ?? chosen.name,
        birthCountry: changes.birthCountry ?? chosen.countryName,
      },
      birthPlace: birthPlaceRecord(chosen),
    };
  }
  if (changes.birthCity === undefined && changes.birthCountry === undefined)
    return { fields: changes, birthPlace: undefined };
  const city = changes.birthCity === undefined ? current.birthCity : changes.birthCity;
  const country = changes.birthCountry === undefined ? current.birthCountry : changes.birthCountry;
  const found = city && country ? findPlace(city, country) : null;
  return { fields: changes, birthPlace: found ? birthPlaceRecord(found) : null };
}

const descriptors = {
  updateProfile: {
    method: 'patch',
    path: '/api/me',
    tag: 'Account',
    summary: 'Changes profile fields',
    auth: 'user',
    body: json(profileUpdateSchema),
    responses: ok(meSchema),
    errors: [],
    command: true,
  },
  setAvatar: {
    method: 'put',
    path: '/api/me/avatar',
    tag: 'Account',
    summary: "Sets the profile picture from the body's raw bytes",
    auth: 'user',
    body: { contentType: 'application/octet-stream', required: true },
    responses: ok(meSchema),
    errors: [
      { status: 413, code: 'payload_too_large', when: 'A picture above 2 MB' },
      { status: 415, code: 'unsupported_media_type', when: 'Not a PNG, JPEG, GIF or WebP image' },
    ],
    command: true,
  },
  removeAvatar: {
    method: 'delete',
    path: '/api/me/avatar',
    tag: 'Account',
    summary: 'Removes the profile picture',
    auth: 'user',
    responses: ok(meSchema),
    errors: [],
    command: true,
  },
  avatar: {
    method: 'get',
    path: '/api/avatars/{id}',
    tag: 'Account',
    summary: "A stored picture's bytes (immutable, cached for a year)",
    auth: 'none',
    responses: { 200: { description: 'The picture', contentType: 'image/*' } },
    errors: [notFoundWhen('No such picture')],
  },
} satisfies RouteDescriptors;

/** Editing one's profile: birth data and names, and the picture. */
export const profileRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger, read, appDb, consistency } = deps;
  const user = requireUser;

  /** The picture the user's stream names now (the write side, never a read model). */
  const currentAvatar = (userId: string) => async () =>
    avatarIdOf((await ledger.load('user', userId)).state.avatarUrl);

  /** After a write: the Me view as the read models now hold it. */
  const answerMe = async (req: Request, res: Response, position: bigint | null) => {
    await consistency.settle(req, position);
    const profile = await profileOf(read, req.user!.id);
    if (!profile) throw notFound('No such user');
    res.json(meView(profile, subscriptionContextOf(deps)));
  };

  route('updateProfile', user, async (req, res) => {
    // Strict: the e-mail (read-only) or any unknown field is a 400 naming it.
    const parsed = profileUpdateSchema.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(400, 'invalid_request', 'The request is not valid', {
        fields: fieldsOf(parsed.error).map((failure) =>
          failure.field === 'email' ? { field: 'email', message: EMAIL_READ_ONLY } : failure,
        ),
      });
    }
    const { birthPlace: chosen, ...changes } = parsed.data;
    const current = (await ledger.load('user', req.user!.id)).state;
    const { fields, birthPlace } = withBirthPlace(changes, chosen, current);
    const handled = await ledger.handle(
      'user',
      req.user!.id,
      { type: 'UpdateProfile', changes: fields, birthPlace },
      req.context,
    );
    await answerMe(req, res, handled.position);
  });

  route('setAvatar', user, rawPicture, async (req, res) => {
    const bytes: unknown = req.body;
    const contentType = Buffer.isBuffer(bytes) ? sniffImageType(bytes) : null;
    if (!Buffer.isBuffer(bytes) || !contentType) throw notAnImage();
    const userId = req.user!.id;
    // The bytes are stored before the event names them, and owned again after it: uploads at
    // the same time release each other's pictures, but never the one the last event names
    // (see `releaseUnusedAvatars`).
    const avatarId = await storeAvatar(appDb, userId, bytes, contentType);
    const handled = await ledger.handle(
      'user',
      userId,
      { type: 'ChangeAvatar', avatarUrl: avatarUrlOf(avatarId) },
      req.context,
    );
    await renewAvatar(appDb, userId, bytes, contentType);
    await tryReleaseUnusedAvatars(appDb, userId, currentAvatar(userId), req.log);
    await answerMe(req, res, handled.position);
  });

  route('removeAvatar', user, async (req, res) => {
    const userId = req.user!.id;
    const handled = await ledger.handle(
      'user',
      userId,
      { type: 'ChangeAvatar', avatarUrl: null },
      req.context,
    );
    await tryReleaseUnusedAvatars(appDb, userId, currentAvatar(userId), req.log);
    await answerMe(req, res, handled.position);
  });

  route('avatar', async (req, res) => {
    const id = String(req.params.id);
    const avatar = AVATAR_ID.test(id) ? await findAvatar(appDb, id) : undefined;
    if (!avatar) throw notFound('No such picture');
    // The address is the hash of the bytes: they never change, so they may be kept for a year.
    res.set({
      'Content-Type': avatar.contentType,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'",
      ETag: `"${id}"`,
    });
    res.send(avatar.bytes);
  });
});
