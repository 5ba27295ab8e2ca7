export * from './credits/index.ts';
export * from './dates.ts';
export * from './decider.ts';
export * from './feedback/feedback.ts';
export * from './registration/emailRegistry.ts';
export * from './registration/freeAllotment.ts';
export * from './streams.ts';
export * from './users/index.ts';
