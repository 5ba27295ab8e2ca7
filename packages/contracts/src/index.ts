export * from './events/credits.ts';
export * from './events/metadata.ts';
export * from './events/users.ts';
