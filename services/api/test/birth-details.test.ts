import { siteInfoSchema } from '@astra/contracts';
import { streams } from '@astra/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import {
  eventCount,
  memberWith,
  OPERATOR_SETTINGS,
  startTestServer,
  type TestServer,
} from './support.ts';

const person = (patch: Record<string, unknown> = {}) => ({
  firstName: 'Albert',
  lastName: 'Einstein',
  birthDate: '1879-03-14',
  birthTime: '11:30',
  city: 'Ulm',
  country: 'Germany',
  ...patch,
});

/** The user's stream as the app reads it (personal fields opened by the store). */
const userEventsOf = async (server: TestServer, userId: string) => {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  for await (const event of server.deps.ledger.store.readStream(streams.user(userId))) {
    events.push({ type: event.type, data: event.data as Record<string, unknown> });
  }
  return events;
};

describe('every birth date, places in the profile, the session and the site over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  describe('birth dates from 1800 for charts, any real date for numerology', () => {
    it('draws Einstein’s 1879 chart in Ulm’s local mean time, as Astro-Databank does', async () => {
      const { member } = await memberWith(server, 100);
      const answer = await member.post('/api/readings/natal-chart', person());
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      const { birthTime, chart, fullReport } = answer.body.result;
      expect(birthTime).toMatchObject({
        offsetSource: 'local_mean_time_of_place',
        utc: '1879-03-14T10:50:02Z',
        utcOffset: '+00:39:58',
      });
      expect(chart.sun.sign).toBe('Pisces');
      expect(chart.ascendant.sign).toBe('Cancer');
      expect(fullReport).toContain('local mean time');
    });

    it('takes a compatibility of two people born before 1900, and refuses 1799', async () => {
      const { member } = await memberWith(server, 100);
      const couple = {
        person1: person(),
        person2: person({
          firstName: 'Mileva',
          lastName: 'Marić',
          birthDate: '1875-12-19',
          birthTime: '12:00',
          city: 'Titel',
          country: 'Serbia',
        }),
      };
      const answer = await member.post('/api/readings/compatibility', couple);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.result.charts.person2.sun.sign).toBe('Sagittarius');

      const before = await eventCount(server);
      const tooEarly = await member.post('/api/readings/compatibility', {
        ...couple,
        person2: { ...couple.person2, birthDate: '1799-12-31' },
      });
      expect(tooEarly.status).toBe(400);
      expect(tooEarly.body.fields).toEqual([
        { field: 'person2.birthDate', message: 'must be in 1800 or later' },
      ]);
      expect(await eventCount(server)).toBe(before);
    });

    it('refuses the first hours of 1800 that the ephemeris files do not cover, spending nothing', async () => {
      const { member } = await memberWith(server, 100);
      const answer = await member.post(
        '/api/readings/natal-chart',
        person({ birthDate: '1800-01-01', birthTime: '00:30', city: 'Tokyo', country: 'Japan' }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.fields).toEqual([
        { field: 'birthDate', message: expect.stringContaining('ephemeris begins') },
      ]);
      expect((await member.get('/api/me')).body.remainingCredits).toBe(100);
    });

    it('computes a life path for any real date, even centuries back', async () => {
      const { member } = await memberWith(server, 20);
      const answer = await member.post('/api/readings/life-path', {
        firstName: 'William',
        lastName: 'Conqueror',
        birthDate: '1028-09-01',
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      // 9 + 1 + (1+0+2+8 = 11, a master number) = 21 → 3
      expect(answer.body.result.lifePathNumber).toBe(3);
      const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const refused = await member.post('/api/readings/life-path', {
        firstName: 'A',
        lastName: 'B',
        birthDate: future,
      });
      expect(refused.body.fields).toEqual([
        { field: 'birthDate', message: 'must not be in the future' },
      ]);
    });

    it('keeps a profile birth date from 1800 on', async () => {
      const client = server.client();
      await client.signIn('victorian@example.com');
      expect((await client.patch('/api/me', { birthDate: '1850-06-01' })).body.birthDate).toBe(
        '1850-06-01',
      );
      expect((await client.patch('/api/me', { birthDate: '1799-06-01' })).status).toBe(400);
    });
  });

  describe('places in the profile', () => {
    it('answers place suggestions with the day their zone began standard time', async () => {
      const answer = await server.client().get('/api/places?q=Ulm, Germany');
      expect(answer.body.items[0]).toMatchObject({
        name: 'Ulm',
        country: 'DE',
        timezone: 'Europe/Berlin',
        standardTimeSince: '1893-04-01',
      });
    });

    it('keeps a chosen place with its coordinates and zone, on the user stream', async () => {
      const client = server.client();
      const me = await client.signIn('place-chooser@example.com');
      const [ulm] = (await client.get('/api/places?q=Ulm, Germany')).body.items;
      const { standardTimeSince: _derived, ...chosen } = ulm;
      const saved = await client.patch('/api/me', { birthPlace: chosen });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).toMatchObject({
        birthCity: 'Ulm',
        birthCountry: 'Germany',
        birthPlace: { ...ulm, latitude: expect.closeTo(48.4, 1) },
      });
      expect((await client.get('/api/me')).body.birthPlace).toEqual(saved.body.birthPlace);
      const events = await userEventsOf(server, me.id);
      expect(events.map((e) => e.type)).toEqual([
        'UserRegistered',
        'UserProfileUpdated',
        'UserBirthPlaceChanged',
      ]);
      expect(events[2]!.data.birthPlace).toEqual(chosen);

      // The same place again changes nothing.
      const before = await eventCount(server);
      expect((await client.patch('/api/me', { birthPlace: chosen })).status).toBe(200);
      expect(await eventCount(server)).toBe(before);
    });

    it('finds a typed city and country by name, and keeps an unknown one as free text', async () => {
      const client = server.client();
      await client.signIn('place-typist@example.com');
      const found = await client.patch('/api/me', {
        birthCity: 'Zürich',
        birthCountry: 'Switzerland',
      });
      expect(found.body.birthPlace).toMatchObject({
        name: 'Zürich',
        country: 'CH',
        timezone: 'Europe/Zurich',
      });
      const unknown = await client.patch('/api/me', { birthCity: 'Zur' });
      expect(unknown.body).toMatchObject({
        birthCity: 'Zur',
        birthCountry: 'Switzerland',
        birthPlace: null,
      });
      const cleared = await client.patch('/api/me', { birthCity: 'Basel' });
      expect(cleared.body.birthPlace).toMatchObject({ name: 'Basel', country: 'CH' });
      const gone = await client.patch('/api/me', { birthCity: null });
      expect(gone.body).toMatchObject({ birthCity: null, birthPlace: null });
    });

    it('refuses a chosen place that is not one, naming its fields, and writes nothing', async () => {
      const client = server.client();
      await client.signIn('place-forger@example.com');
      const before = await eventCount(server);
      const answer = await client.patch('/api/me', {
        birthPlace: {
          name: 'Atlantis',
          country: 'Atlantis',
          countryName: 'Atlantis',
          latitude: 123,
          longitude: 0,
          timezone: 'Ocean/Atlantis',
          label: 'Atlantis',
        },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
        'birthPlace.country',
        'birthPlace.latitude',
        'birthPlace.timezone',
      ]);
      expect(await eventCount(server)).toBe(before);
    });
  });

  describe('the session, for the web app', () => {
    it('answers a visitor 200 with no user, while GET /api/me keeps its 401', async () => {
      const visitor = server.client();
      expect(await visitor.get('/api/session')).toMatchObject({
        status: 200,
        body: { user: null },
      });
      expect((await visitor.get('/api/me')).status).toBe(401);
    });

    it('answers a signed-in user with the Me object, and null again after signing out', async () => {
      const client = server.client();
      const me = await client.signIn('session@example.com', 'Sam Session');
      const session = await client.get('/api/session');
      expect(session.status).toBe(200);
      expect(session.body.user).toEqual((await client.get('/api/me')).body);
      expect(session.body.user.id).toBe(me.id);
      await client.post('/api/auth/logout');
      expect((await client.get('/api/session')).body).toEqual({ user: null });
    });
  });

  describe('the operator’s details', () => {
    it('serves development stand-ins, marked as such, when nothing is configured', async () => {
      const answer = await server.client().get('/api/site');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        developmentDefaults: true,
        supportEmail: 'support@astra.example',
        socialLinks: [],
      });
    });

    it('serves the configured details and social links', async () => {
      const configured = await startTestServer({
        ...OPERATOR_SETTINGS,
        OPERATOR_REPRESENTATIVE: 'Vera Stern',
        OPERATOR_VAT_ID: 'DE123456789',
        SOCIAL_LINKS:
          'Instagram=https://www.instagram.com/astra.readings, YouTube=https://www.youtube.com/@astra',
      });
      try {
        const answer = await configured.client().get('/api/site');
        expect(siteInfoSchema.parse(answer.body)).toEqual({
          operator: {
            name: 'Astra Readings GmbH',
            address: ['Sternstraße 7', '10115 Berlin', 'Germany'],
            email: 'hello@astra-readings.test',
            representative: 'Vera Stern',
            register: null,
            vatId: 'DE123456789',
          },
          supportEmail: 'support@astra-readings.test',
          socialLinks: [
            { label: 'Instagram', url: 'https://www.instagram.com/astra.readings' },
            { label: 'YouTube', url: 'https://www.youtube.com/@astra' },
          ],
          developmentDefaults: false,
          mail: 'development_mailbox',
        });
      } finally {
        await configured.close();
      }
    });

    it('refuses to start in production while they are unset, naming each', () => {
      const production = {
        NODE_ENV: 'production',
        SESSION_SECRET: 'a-long-enough-production-secret',
        PUBLIC_URL: 'https://astra.example',
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        DATA_KEY_SECRET: 'the-master-secret-of-the-data-keys',
        SMTP_URL: 'smtp://mail.astra-readings.test:587',
      };
      expect(() => loadConfig(production)).toThrow(ConfigError);
      for (const setting of Object.keys(OPERATOR_SETTINGS)) {
        expect(() => loadConfig(production)).toThrow(
          new RegExp(`${setting}: is required when NODE_ENV=production`),
        );
      }
      expect(() => loadConfig({ ...production, ...OPERATOR_SETTINGS })).not.toThrow();
      expect(() => loadConfig({ SOCIAL_LINKS: 'Instagram=http://insecure.example' })).toThrow(
        /SOCIAL_LINKS/,
      );
    });
  });
});
