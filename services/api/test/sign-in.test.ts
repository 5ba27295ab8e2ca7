import { generateKeyPairSync } from 'node:crypto';
import { readModels } from '@astra/projections';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import {
  Client,
  eventCount,
  freePort,
  OPERATOR_SETTINGS,
  startTestServer,
  type TestServer,
} from './support.ts';

/** What the mock's userinfo endpoint says about the person signing in (OpenID claims). */
interface GoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  picture?: string;
}

const account = (name: string, email: string, extra: Partial<GoogleAccount> = {}) => ({
  sub: `google-${email}`,
  email,
  email_verified: true,
  name,
  picture: `https://lh3.googleusercontent.com/a/${encodeURIComponent(email)}`,
  ...extra,
});

const cookiePair = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith(`${name}=`))
    ?.split(';')[0];

const setCookieLine = (response: Response, name: string) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));

describe('sign-in with Google (passport-google-oauth20 against a mock OAuth server)', () => {
  let server: TestServer;
  let google: OAuth2Server;
  let signingIn: GoogleAccount = account('Nobody', 'nobody@example.com');

  beforeAll(async () => {
    google = new OAuth2Server();
    await google.issuer.keys.generate('RS256');
    await google.start(0, '127.0.0.1');
    google.service.on('beforeUserinfo', (response: { body: unknown }) => {
      response.body = signingIn;
    });
    // Google sends the browser back to PUBLIC_URL, so it must name the server's real port.
    const port = await freePort();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    server = await startTestServer({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      GOOGLE_CLIENT_ID: 'astra-test-client',
      GOOGLE_CLIENT_SECRET: 'astra-test-secret',
      GOOGLE_AUTHORIZATION_URL: `${google.issuer.url}/authorize`,
      GOOGLE_TOKEN_URL: `${google.issuer.url}/token`,
      GOOGLE_USERINFO_URL: `${google.issuer.url}/userinfo`,
      APPLE_CLIENT_ID: 'com.example.astra.web',
      APPLE_TEAM_ID: 'TEAM123456',
      APPLE_KEY_ID: 'KEY1234567',
      APPLE_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
  });
  afterAll(async () => {
    await server?.close();
    await google?.stop();
  });

  /** Leaves for "Google" as a browser would, following every redirect by hand. */
  async function startGoogleSignIn(returnUrl?: string) {
    const query = returnUrl === undefined ? '' : `?returnUrl=${encodeURIComponent(returnUrl)}`;
    const start = await fetch(`${server.url}/api/auth/google${query}`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const stateCookie = cookiePair(start, 'astra.signin.google');
    expect(stateCookie).toBeDefined();
    const authorize = new URL(start.headers.get('location')!);
    // The provider signs the person in and sends the browser back with a code and the state.
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    return {
      start,
      authorize,
      stateCookie: stateCookie!,
      callback: consent.headers.get('location')!,
    };
  }

  /** Comes back from "Google" to our callback; where the browser is sent next. */
  async function finishGoogleSignIn(callback: string, cookie?: string) {
    const answer = await fetch(callback, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!, server.url);
    const client = new Client(server.url);
    client.cookie = cookiePair(answer, 'astra.sid');
    return { answer, location, client, query: location.searchParams };
  }

  async function signInWithGoogle(who: GoogleAccount, returnUrl?: string) {
    signingIn = who;
    const started = await startGoogleSignIn(returnUrl);
    return finishGoogleSignIn(started.callback, started.stateCookie);
  }

  it('lists the configured providers', async () => {
    expect((await server.client().get('/api/auth/providers')).body).toEqual({
      google: true,
      apple: true,
      dev: true,
    });
  });

  it('sends the browser to Google with PKCE, state, consent and a signed short-lived cookie', async () => {
    const { start, authorize } = await startGoogleSignIn('/library');
    expect(authorize.origin).toBe(google.issuer.url);
    const params = authorize.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe('astra-test-client');
    expect(params.get('redirect_uri')).toBe(`${server.url}/api/auth/google/callback`);
    expect(params.get('scope')).toBe('profile email');
    expect(params.get('prompt')).toBe('consent');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{43}$/);
    const cookie = setCookieLine(start, 'astra.signin.google')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/google/);
    expect(cookie).toMatch(/Max-Age=600/);
    // Neither the verifier nor the state travels in the clear to anyone but this browser.
    expect(cookie).not.toContain(params.get('code_challenge')!);
    expect(start.headers.get('cache-control')).toBe('no-store');
  });

  it('registers on the first Google sign-in with the free credits once; the next is the same user', async () => {
    const ada = account('Ada Lovelace', 'Ada@Example.com');
    const first = await signInWithGoogle(ada, '/library?tab=recent');
    expect(first.location.pathname).toBe('/auth/callback');
    expect(first.query.get('returnUrl')).toBe('/library?tab=recent');
    expect(first.query.get('error')).toBeNull();
    const session = setCookieLine(first.answer, 'astra.sid')!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    // The state cookie is spent.
    expect(setCookieLine(first.answer, 'astra.signin.google')).toMatch(/Expires=Thu, 01 Jan 1970/);

    const me = (await first.client.get('/api/me')).body;
    expect(me).toMatchObject({
      email: 'ada@example.com',
      fullName: 'Ada Lovelace',
      firstName: 'Ada',
      lastName: 'Lovelace',
      avatarUrl: ada.picture,
      remainingCredits: 10,
      totalCredits: 10,
      birthDate: null,
      status: 'active',
    });

    const again = await signInWithGoogle(ada);
    expect(again.query.get('returnUrl')).toBe('/app');
    const meAgain = (await again.client.get('/api/me')).body;
    expect(meAgain.id).toBe(me.id);
    expect(meAgain.remainingCredits).toBe(10);
    const ledger = (await again.client.get('/api/me/ledger')).body;
    expect(ledger.items.map((item: { type: string }) => item.type)).toEqual([
      'FreeCreditsGranted',
      'CreditAccountOpened',
    ]);
    // Signing in on a second device leaves the first one signed in.
    expect((await first.client.get('/api/me')).status).toBe(200);
  });

  it('lets ten simultaneous first Google sign-ins of one address in, as one user with one free allotment', async () => {
    signingIn = account('Rush Hour', 'rush.hour@example.com');
    const started = [];
    for (let i = 0; i < 10; i++) started.push(await startGoogleSignIn());
    // Each browser asks for its account as soon as it is back, as the web app does.
    const finished = await Promise.all(
      started.map(async ({ callback, stateCookie }) => {
        const done = await finishGoogleSignIn(callback, stateCookie);
        return { ...done, me: await done.client.get('/api/me') };
      }),
    );
    expect(finished.map(({ query }) => query.get('error'))).toEqual(Array(10).fill(null));
    const views = finished.map(({ me }) => me);
    expect(views.map((view) => view.status)).toEqual(Array(10).fill(200));
    expect(new Set(views.map((view) => view.body.id)).size).toBe(1);
    for (const view of views) {
      expect(view.body).toMatchObject({ remainingCredits: 10, totalCredits: 10 });
    }
    const ledger = (await finished[0]!.client.get('/api/me/ledger')).body;
    expect(ledger.items.map((item: { type: string }) => item.type)).toEqual([
      'FreeCreditsGranted',
      'CreditAccountOpened',
    ]);
  });

  it('honours only same-site return URLs: other sites end at /app (no open redirect)', async () => {
    for (const returnUrl of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const { location, query } = await signInWithGoogle(
        account('Grace Hopper', 'grace@example.com'),
        returnUrl,
      );
      expect(location.origin, returnUrl).toBe(server.url);
      expect(location.pathname).toBe('/auth/callback');
      expect(query.get('returnUrl'), returnUrl).toBe('/app');
    }
  });

  it('sends a cancelled sign-in to the callback page with the reason, never a JSON page', async () => {
    const { stateCookie, authorize } = await startGoogleSignIn();
    const state = authorize.searchParams.get('state')!;
    const { query, location, answer } = await finishGoogleSignIn(
      `${server.url}/api/auth/google/callback?error=access_denied&state=${state}`,
      stateCookie,
    );
    expect(location.pathname).toBe('/auth/callback');
    expect(query.get('error')).toBe('access_denied');
    expect(query.get('error_description')).toMatch(/cancelled/);
    expect(cookiePair(answer, 'astra.sid')).toBeUndefined();
  });

  it('refuses a callback without the state cookie of the browser that started it (login CSRF)', async () => {
    signingIn = account('Mallory', 'mallory@example.com');
    const before = await eventCount(server);
    const { callback } = await startGoogleSignIn('/library');
    const withoutCookie = await finishGoogleSignIn(callback);
    expect(withoutCookie.query.get('error')).toBe('invalid_request');
    expect(withoutCookie.query.get('error_description')).toMatch(/code verifier/);
    expect(withoutCookie.client.cookie).toBeUndefined();

    // Another sign-in's cookie does not fit this state either.
    const other = await startGoogleSignIn();
    const mine = await startGoogleSignIn();
    const swapped = await finishGoogleSignIn(mine.callback, other.stateCookie);
    expect(swapped.query.get('error')).toBe('invalid_request');

    const forged = await finishGoogleSignIn(
      mine.callback,
      `astra.signin.google=${Buffer.from('{"state":"x"}').toString('base64url')}.forged`,
    );
    expect(forged.query.get('error')).toBe('invalid_request');
    expect(await eventCount(server)).toBe(before);
  });

  it('refuses a Google account whose e-mail address is not verified, and writes nothing', async () => {
    const before = await eventCount(server);
    const { query, client } = await signInWithGoogle(
      account('Unverified', 'unverified@example.com', { email_verified: false }),
    );
    expect(query.get('error')).toBe('email_not_verified');
    expect(query.get('error_description')).toMatch(/not verified/);
    expect(client.cookie).toBeUndefined();
    expect(await eventCount(server)).toBe(before);
  });

  it('turns a provider failure into the callback page with its code, with no details', async () => {
    signingIn = account('Token Trouble', 'token@example.com');
    const { callback, stateCookie } = await startGoogleSignIn();
    google.service.once('beforeResponse', (response: { body: unknown; statusCode: number }) => {
      response.body = { error: 'invalid_grant', error_description: 'stack at Object.<anonymous>' };
      response.statusCode = 400;
    });
    const { query, answer } = await finishGoogleSignIn(callback, stateCookie);
    expect(query.get('error')).toBe('invalid_grant');
    expect(query.get('error_description')).toBe('Authentication failed. Please try again.');
    expect(await answer.text()).not.toMatch(/stack|anonymous|\.ts|\.js/);
  });

  it('deleting the account, then signing in with Google again, makes a new user with no free credits', async () => {
    const phoenix = account('Phoenix Wright', 'phoenix@example.com');
    const first = await signInWithGoogle(phoenix);
    const old = (await first.client.get('/api/me')).body;
    expect(old.remainingCredits).toBe(10);
    expect(await first.client.delete('/api/me')).toMatchObject({
      status: 200,
      body: { ok: true, message: 'Account Deleted' },
    });

    const reborn = await signInWithGoogle(phoenix);
    const me = (await reborn.client.get('/api/me')).body;
    expect(me.id).not.toBe(old.id);
    expect(me).toMatchObject({
      email: 'phoenix@example.com',
      remainingCredits: 0,
      totalCredits: 0,
    });

    const admin = server.client();
    await admin.signInAsAdmin();
    const ledger = (await admin.get(`/api/admin/users/${old.id}/ledger`)).body;
    expect(ledger.items.map((i: { type: string; amount: number }) => [i.type, i.amount])).toEqual([
      ['CreditAccountClosed', 0],
      ['CreditsForfeited', -10],
      ['FreeCreditsGranted', 10],
      ['CreditAccountOpened', 0],
    ]);
    const profile = await readModels(server.deps.db)
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', old.id)
      .executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ status: 'deleted', remaining_credits: 0 });
    expect(profile.cancellation_date).not.toBeNull();
  });

  describe('Sign in with Apple (configured; Apple itself is not reachable from tests)', () => {
    it('sends the browser to Apple with state, nonce, form_post and a SameSite=None cookie', async () => {
      const start = await fetch(`${server.url}/api/auth/apple?returnUrl=/pricing`, {
        redirect: 'manual',
      });
      expect(start.status).toBe(302);
      const location = new URL(start.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(
        'https://appleid.apple.com/auth/authorize',
      );
      expect(Object.fromEntries(location.searchParams)).toMatchObject({
        client_id: 'com.example.astra.web',
        response_type: 'code',
        response_mode: 'form_post',
        redirect_uri: `${server.url}/api/auth/apple/callback`,
        scope: 'name email',
      });
      expect(location.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
      expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
      const cookie = setCookieLine(start, 'astra.signin.apple')!;
      expect(cookie).toMatch(/SameSite=None/i);
      expect(cookie).toMatch(/Secure/i);
      expect(cookie).toMatch(/Path=\/api\/auth\/apple/);
    });

    it("takes Apple's cross-site form post, but only with the state its cookie holds", async () => {
      const start = await fetch(`${server.url}/api/auth/apple`, { redirect: 'manual' });
      const cookie = cookiePair(start, 'astra.signin.apple')!;
      const fromApple = {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://appleid.apple.com',
        'sec-fetch-site': 'cross-site',
        cookie,
      };
      const post = (body: string, headers: Record<string, string> = fromApple) =>
        fetch(`${server.url}/api/auth/apple/callback`, {
          method: 'POST',
          redirect: 'manual',
          headers,
          body,
        });
      const wrongState = await post('code=c0de&state=not-the-state');
      expect(wrongState.status).toBe(302);
      const refused = new URL(wrongState.headers.get('location')!, server.url);
      expect(refused.pathname).toBe('/auth/callback');
      expect(refused.searchParams.get('error')).toBe('invalid_request');

      const cancelled = await post('error=user_cancelled_authorize');
      expect(
        new URL(cancelled.headers.get('location')!, server.url).searchParams.get('error'),
      ).toBe('access_denied');

      // The exemption is exactly that one route.
      const elsewhere = await fetch(`${server.url}/api/auth/logout`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      });
      expect(elsewhere.status).toBe(403);
    });
  });
});

describe('sign-in configuration', () => {
  it('names a provider configured only in part, and wants PUBLIC_URL with one in production', () => {
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow(
      /GOOGLE_CLIENT_SECRET: is required when GOOGLE_CLIENT_ID is set/,
    );
    expect(() => loadConfig({ APPLE_CLIENT_ID: 'id', APPLE_KEY_ID: 'key' })).toThrow(
      /APPLE_TEAM_ID: is required when APPLE_CLIENT_ID, APPLE_KEY_ID are set/,
    );
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-enough-secret',
      STRIPE_SECRET_KEY: 'sk_test_unused',
      STRIPE_WEBHOOK_SECRET: 'whsec_unused',
      DATA_KEY_SECRET: 'the-master-secret-of-the-data-keys',
      SMTP_URL: 'smtp://mail.astra-readings.test:587',
      ...OPERATOR_SETTINGS,
    };
    expect(() => loadConfig({ ...production, ...google })).toThrow(/PUBLIC_URL: is required/);
    const { DATA_KEY_SECRET: _secret, ...keyless } = production;
    expect(() => loadConfig({ ...keyless, PUBLIC_URL: 'https://astra.example/' })).toThrow(
      /DATA_KEY_SECRET: is required when NODE_ENV=production/,
    );
    // Production sends its receipts: it refuses to start without a mail server.
    const { SMTP_URL: _smtp, ...mailless } = production;
    expect(() => loadConfig({ ...mailless, PUBLIC_URL: 'https://astra.example/' })).toThrow(
      /SMTP_URL: is required when NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({
        ...production,
        SMTP_URL: 'http://mail.example',
        PUBLIC_URL: 'https://astra.example/',
      }),
    ).toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(
      loadConfig({ ...production, ...google, PUBLIC_URL: 'https://astra.example/' }).PUBLIC_URL,
    ).toBe('https://astra.example');
    expect(loadConfig({ PORT: '4000' }).PUBLIC_URL).toBe('http://localhost:4000');
    expect(
      loadConfig({
        APPLE_PRIVATE_KEY: 'a\\nb',
        APPLE_CLIENT_ID: 'c',
        APPLE_TEAM_ID: 't',
        APPLE_KEY_ID: 'k',
      }).APPLE_PRIVATE_KEY,
    ).toBe('a\nb');
  });
});
