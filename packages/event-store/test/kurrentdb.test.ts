import { describe } from 'vitest';
import { KurrentDbEventStore } from '../src/index.ts';
import { eventStoreContract } from './contract.ts';

/**
 * KurrentDB runs from KURRENTDB_CONNECTION_STRING, or in a container where Docker is there.
 * Neither is required: this machine class has no Docker engine, so the line below says so.
 */
const image = process.env.KURRENTDB_IMAGE ?? 'docker.kurrent.io/kurrent-latest/kurrentdb:latest';

async function kurrentDbConnection(): Promise<{ url: string; stop(): Promise<void> } | string> {
  const fromEnv = process.env.KURRENTDB_CONNECTION_STRING;
  if (fromEnv) return { url: fromEnv, stop: async () => {} };
  try {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    const container = await new GenericContainer(image)
      .withEnvironment({
        KURRENTDB_INSECURE: 'true',
        KURRENTDB_MEM_DB: 'true',
        KURRENTDB_RUN_PROJECTIONS: 'None',
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_MEM_DB: 'true',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .start();
    return {
      url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
      stop: async () => void (await container.stop()),
    };
  } catch (error) {
    return `no KURRENTDB_CONNECTION_STRING and no Docker engine (${(error as Error).message.split('\n')[0]})`;
  }
}

const connection = await kurrentDbConnection();
if (typeof connection === 'string') {
  console.warn(`SKIPPED: KurrentDB event store contract tests: ${connection}.`);
}

describe.runIf(typeof connection !== 'string')('KurrentDB', () => {
  if (typeof connection === 'string') return;
  eventStoreContract(
    `KurrentDB adapter at ${connection.url}`,
    async () => {
      const store = KurrentDbEventStore.connect(connection.url);
      return { store, dispose: () => store.close() };
    },
    { maxHoldMs: 2 },
  );
});
