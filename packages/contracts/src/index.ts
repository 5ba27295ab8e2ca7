export * from './api/admin.ts';
export * from './api/auth.ts';
export * from './api/common.ts';
export * from './api/me.ts';
export * from './events/credits.ts';
export * from './events/metadata.ts';
export * from './events/users.ts';
