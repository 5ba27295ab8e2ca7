export * from './audit.ts';
export * from './money.ts';
export * from './monthClosing.ts';
export * from './rollForward.ts';
