import type { Decider } from '../decider.ts';
import { decide, type UserCommand } from './businessLogic.ts';
import { evolve, initialUser, type User, type UserEvent } from './user.ts';

export * from './admins.ts';
export { type AdminRecord, splitFullName, type UserCommand, userErrors } from './businessLogic.ts';
export { initialUser, joinName, type User, type UserEvent } from './user.ts';

export const userDecider: Decider<User, UserCommand, UserEvent> = {
  initialState: initialUser,
  evolve,
  decide,
};
