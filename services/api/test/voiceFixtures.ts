/** Readings, voice session requests and stream readers shared by the voice guide's API specs. */
import { randomUUID } from 'node:crypto';
import { streams } from '@astra/ledger';
import { expect } from 'vitest';
import type { Client, TestServer } from './support.ts';

export const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
export const tarot = { firstName: 'Ada', question: 'What should I focus on this month?' };

export const balanceOf = async (client: Client) =>
  (await client.get('/api/me')).body.remainingCredits as number;

export async function readingOf(member: Client, kind = 'life-path', form: object = lifePath) {
  const made = await member.post(`/api/readings/${kind}`, form);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.readingId as string;
}

export const start = (member: Client, readingId: string, key = randomUUID()) =>
  member.post(`/api/readings/${readingId}/voice/sessions`, {}, { 'idempotency-key': key });
export const end = (member: Client, readingId: string, sessionId: string, reason: string) =>
  member.post(`/api/readings/${readingId}/voice/sessions/${sessionId}/end`, { reason });

export async function readingEvents(server: TestServer, readingId: string) {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  for await (const e of server.deps.ledger.store.readStream(streams.reading(readingId)))
    events.push({ type: e.type, data: e.data as Record<string, unknown> });
  return events;
}

export async function creditEvents(server: TestServer, userId: string) {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  for await (const e of server.deps.ledger.store.readStream(streams.credits(userId)))
    events.push({ type: e.type, data: e.data as Record<string, unknown> });
  return events;
}
