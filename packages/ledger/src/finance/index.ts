export * from './audit.ts';
export * from './money.ts';
export * from './rollForward.ts';
