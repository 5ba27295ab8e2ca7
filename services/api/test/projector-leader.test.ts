import type { ProjectionsOverview } from '@astra/contracts';
import { healthSchema } from '@astra/contracts';
import { eventually, postgresReachable } from '@astra/event-store/testing';
import { describe, expect, it } from 'vitest';
import { startReplica } from '../../projector/test/replicas.ts';
import { startTestServer } from './support.ts';

describe.runIf(await postgresReachable())(
  'the projector process that leads (PROJECTOR=external)',
  () => {
    it('health and the admin Projections page name it, and no one once it has stopped', async () => {
      const server = await startTestServer({ PROJECTOR: 'external' }, 'postgres');
      const admin = server.client();
      expect((await admin.get('/api/health')).body.projector).toEqual({
        mode: 'external',
        leaders: [],
      });
      const replica = startReplica({
        DATABASE_URL: server.databaseUrl!,
        // The data keys' secret: the server keeps it in its data directory.
        DATA_DIR: server.dataDir,
      });
      try {
        const [leader] = await eventually(async () => {
          const leaders = (await admin.get('/api/health')).body.projector?.leaders;
          return leaders?.length ? leaders : undefined;
        });
        expect(leader).toMatchObject({ pid: replica.pid, term: 1 });
        const health = (await admin.get('/api/health')).body;
        expect(healthSchema.parse(health)).toMatchObject({
          status: 'ok',
          projector: { mode: 'external', leaders: [leader] },
        });
        await admin.signInAsAdmin();
        const overview = await admin.get<ProjectionsOverview>('/api/admin/projections');
        expect(overview.body.projector).toEqual({ mode: 'external', leaders: [leader] });

        await replica.stop();
        expect((await admin.get('/api/health')).body.projector).toEqual({
          mode: 'external',
          leaders: [],
        });
      } finally {
        await replica.stop();
        await server.close();
      }
    }, 60_000);
  },
);
