import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventCount, memberWith, startTestServer, type TestServer } from './support.ts';

/** C. G. Jung: born in Kesswil, a village neither place list has. */
const jung = (patch: Record<string, unknown> = {}) => ({
  firstName: 'Carl',
  lastName: 'Jung',
  birthDate: '1875-07-26',
  birthTime: '19:32',
  city: 'Kesswil',
  country: 'Switzerland',
  latitude: 47.5957,
  longitude: 9.3257,
  ...patch,
});

const fieldsOf = (body: { fields?: { field: string }[] }) =>
  (body.fields ?? []).map((f) => f.field).sort();

describe('birth inputs: a place by its coordinates, an unknown birth time (HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('names the time zone of coordinates before anything is bought', async () => {
    const client = server.client();
    const answer = await client.get(
      '/api/places/at?latitude=47.5957&longitude=9.3257&label=Kesswil',
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.place).toMatchObject({
      name: 'Kesswil',
      country: 'CH',
      countryName: 'Switzerland',
      latitude: 47.5957,
      longitude: 9.3257,
      timezone: 'Europe/Zurich',
      label: 'Kesswil, Switzerland',
      standardTimeSince: '1853-07-16',
    });
    const bad = await client.get('/api/places/at?latitude=91&longitude=east');
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['latitude', 'longitude']);
    expect((await client.get('/api/places/at?latitude=&longitude=9')).status).toBe(400);
  });

  it('draws a natal chart for Kesswil by its coordinates, the zone the server’s', async () => {
    const { member } = await memberWith(server, 100);
    const answer = await member.post('/api/readings/natal-chart', jung());
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.result.birthInfo.place).toMatchObject({
      name: 'Kesswil',
      country: 'CH',
      timezone: 'Europe/Zurich',
      latitude: 47.5957,
      longitude: 9.3257,
    });
    // 1875: Switzerland kept Bern mean time (from 1853, Europe/Zurich's history).
    expect(answer.body.result.birthTime).toMatchObject({
      offsetSource: 'zone',
      utcOffset: '+00:29:46',
      utc: '1875-07-26T19:02:14Z',
    });
    expect(answer.body.result.chart.ascendant).toBeDefined();
  });

  it('refuses bad coordinates with their fields, and charges nothing', async () => {
    const { member } = await memberWith(server, 100);
    const before = await eventCount(server);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ latitude: 95 }, ['latitude']],
      [{ longitude: -181 }, ['longitude']],
      [{ latitude: '47.5957' }, ['latitude']],
      [{ latitude: 47.5957, longitude: undefined }, ['longitude']],
      [
        { latitude: 123, longitude: 456, birthTime: '25:00' },
        ['birthTime', 'latitude', 'longitude'],
      ],
    ];
    for (const [patch, fields] of cases) {
      const answer = await member.post('/api/readings/natal-chart', jung(patch));
      expect(answer.status, JSON.stringify(patch)).toBe(400);
      expect(fieldsOf(answer.body), JSON.stringify(patch)).toEqual(fields);
    }
    expect(await eventCount(server)).toBe(before);
    expect((await member.get('/api/me')).body.remainingCredits).toBe(100);
  });

  it('draws a chart without a birth time: noon, no houses, the Moon’s uncertainty said', async () => {
    const { member } = await memberWith(server, 100);
    const { birthTime: _none, ...noTime } = jung();
    const answer = await member.post('/api/readings/natal-chart', { ...noTime, timeUnknown: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { result } = answer.body;
    expect(result.birthInfo).toMatchObject({ timeUnknown: true, birthTime: '12:00' });
    expect(result.birthTime.local).toBe('1875-07-26T12:00:00');
    expect(result.houseSystem).toBeNull();
    expect(result.chart.ascendant).toBeUndefined();
    expect(result.chart.first_house).toBeUndefined();
    expect(result.chart.moon.house).toBeNull();
    expect(result.moonRange.signs).toEqual(['Taurus']);
    expect(result.fullReport).toContain('The Ascendant, the Midheaven and the houses depend on');
    expect(result.fullReport).toContain('The Moon moves 12–15° a day');
  });

  it('takes a compatibility with one person’s time unknown', async () => {
    const { member } = await memberWith(server, 100);
    const { birthTime: _none, ...noTime } = jung();
    const answer = await member.post('/api/readings/compatibility', {
      person1: { ...jung(), firstName: 'Emma', birthDate: '1882-03-30', birthTime: '10:00' },
      person2: { ...noTime, timeUnknown: true },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.result.person2).toMatchObject({ timeUnknown: true });
    expect(answer.body.result.charts.person2.ascendant).toBeUndefined();
    expect(answer.body.result.full_report).toContain('Without Carl’s birth time');
  });

  it('refuses a time and timeUnknown together, or neither, naming birthTime', async () => {
    const { member } = await memberWith(server, 100);
    const before = await eventCount(server);
    const { birthTime: _none, ...noTime } = jung();
    const both = await member.post('/api/readings/natal-chart', jung({ timeUnknown: true }));
    expect(both.status).toBe(400);
    expect(fieldsOf(both.body)).toEqual(['birthTime']);
    const neither = await member.post('/api/readings/natal-chart', noTime);
    expect(fieldsOf(neither.body)).toEqual(['birthTime']);
    const stillNamed = await member.post('/api/readings/natal-chart', { ...noTime, firstName: '' });
    expect(fieldsOf(stillNamed.body)).toEqual(['birthTime', 'firstName']);
    const compatibility = await member.post('/api/readings/compatibility', {
      person1: jung(),
      person2: { ...noTime, timeUnknown: 'yes' },
    });
    expect(fieldsOf(compatibility.body)).toEqual(['person2.birthTime', 'person2.timeUnknown']);
    expect(await eventCount(server)).toBe(before);
  });

  it('keeps "I don’t know my birth time" on the profile, and refuses anything but true or false', async () => {
    const client = server.client();
    await client.signIn(`no-time-${Math.random().toString(36).slice(2)}@example.com`);
    expect((await client.get('/api/me')).body.birthTimeUnknown).toBe(false);
    const saved = await client.patch('/api/me', { birthTime: null, birthTimeUnknown: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ birthTime: null, birthTimeUnknown: true });
    expect((await client.get('/api/me')).body.birthTimeUnknown).toBe(true);
    const refused = await client.patch('/api/me', { birthTimeUnknown: 'yes' });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual(['birthTimeUnknown']);
    const known = await client.patch('/api/me', { birthTime: '07:30', birthTimeUnknown: false });
    expect(known.body).toMatchObject({ birthTime: '07:30', birthTimeUnknown: false });
  });
});
