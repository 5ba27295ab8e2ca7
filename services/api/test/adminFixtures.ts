/** A reading form, unique tokens and a stream reader shared by the admin specs. */
import { randomUUID } from 'node:crypto';
import type { TestServer } from './support.ts';

export const lifePath = { firstName: 'Ada', lastName: 'Lovelace', birthDate: '1990-12-10' };
export const token = () => randomUUID().replace(/-/g, '').slice(0, 10);

export async function eventsOf(server: TestServer, stream: string) {
  const events = [];
  for await (const event of server.deps.ledger.store.readStream(stream)) events.push(event);
  return events;
}
