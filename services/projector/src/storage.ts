import { personalData } from '@astra/contracts';
import { openStorage, storageConfigOf, storageEnvShape } from '@astra/event-store';
import { databaseFor, migrateReadModels, READ_SCHEMA } from '@astra/projections';
import { z } from 'zod';

/** Opens the configured storage with migrated read models, for the projector and its CLIs. */
export async function openProjectionStorage(
  env: Record<string, string | undefined> = process.env,
  options: { migratingPrivacy?: boolean } = {},
) {
  const parsed = z
    .object({ ...storageEnvShape, NODE_ENV: z.string().optional() })
    .refine((settings) => settings.NODE_ENV !== 'production' || settings.DATA_KEY_SECRET, {
      path: ['DATA_KEY_SECRET'],
      message: 'is required when NODE_ENV=production',
    })
    .safeParse(Object.fromEntries(Object.entries(env).filter(([, value]) => value !== '')));
  if (!parsed.success) {
    throw new Error(
      `Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const storage = await openStorage({
    ...storageConfigOf(parsed.data),
    personalData,
    migratingPrivacy: options.migratingPrivacy ?? false,
  });
  const db = databaseFor(storage.connection);
  await migrateReadModels(db, READ_SCHEMA);
  return {
    ...storage,
    env: parsed.data,
    db,
    async close() {
      await db.destroy();
      await storage.close();
    },
  };
}

/**
 * Runs a command-line tool: its exit code, or 2 with the message when it fails. The message goes
 * to `report`: the projector's logger, or plain stderr for rebuild and verify, whose output is
 * their report (plain lines, for people and scripts).
 */
export async function runCli(
  main: () => Promise<number>,
  report: (message: string) => void = (message) => console.error(message),
) {
  try {
    process.exitCode = await main();
  } catch (error) {
    report(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  }
}
