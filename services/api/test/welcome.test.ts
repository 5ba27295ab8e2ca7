import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { forms } from './readingForms.ts';
import { startTestServer, type TestServer } from './support.ts';

/**
 * The landing page promises "free welcome credits for your first reading": with the product's
 * default grant, a new account can pay for any first reading, the natal chart (the dearest)
 * included, and `GET /api/apps` says how many credits a new account gets.
 */
describe('the welcome grant (product default)', () => {
  const welcome = loadConfig({}).FREE_CREDITS;
  let server: TestServer;
  beforeAll(async () => {
    // The test servers pin the fixtures' grant of 10; this one runs the product default.
    server = await startTestServer({ FREE_CREDITS: String(welcome) });
  });
  afterAll(() => server?.close());

  it('covers every reading on the catalogue, and the catalogue says how many credits it is', async () => {
    const apps = await server.client().get('/api/apps');
    expect(apps.status).toBe(200);
    expect(apps.body.welcomeCredits).toBe(welcome);
    const costs = (apps.body.items as { creditCost: number }[]).map((app) => app.creditCost);
    expect(costs).toHaveLength(5);
    expect(welcome).toBeGreaterThanOrEqual(Math.max(...costs));
  });

  it('buys a new account its first natal chart', async () => {
    const member = server.client();
    const me = await member.signIn('newcomer@example.com', 'Maya Rivers');
    expect(me.remainingCredits).toBe(welcome);
    const reading = await member.post('/api/readings/natal-chart', forms['natal-chart']);
    expect(reading.status, JSON.stringify(reading.body)).toBe(201);
    expect(reading.body.remainingCredits).toBe(welcome - 24);
  });
});

describe('GET /api/apps with no welcome grant', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ FREE_CREDITS: '0' });
  });
  afterAll(() => server?.close());

  it('says a new account gets no free credits, so no page promises any', async () => {
    expect((await server.client().get('/api/apps')).body.welcomeCredits).toBe(0);
  });
});
