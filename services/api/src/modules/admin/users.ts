import {
  adminMessages,
  adminRoleRequestSchema,
  adminUserActionSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  uuidIdSchema,
} from '@astra/contracts';
import { userErrors } from '@astra/ledger';
import type { AppDeps } from '../../dependencies.ts';
import { requireUnlockedAdmin, requireUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { pathId } from '../../http/params.ts';
import {
  describedRouter,
  json,
  notFoundWhen,
  ok,
  type RouteDescriptor,
  type RouteDescriptors,
} from '../../http/routeDescriptors.ts';
import { latestPosition } from '../../ledger/ledger.ts';
import { deleteAccount } from '../accounts/deletion.ts';
import { changeAdminRegistry, isAdmin } from './registry.ts';
import { ADMIN_USERS_PAGE_SIZE, adminUserOf, adminUsersPage } from './userQueries.ts';

/** User ids are UUIDs: any other shape is no user (404), and never reaches SQL. */
const userIdOf = (value: unknown) => pathId(uuidIdSchema, value, 'No such user');

/** Block and unblock: the same answers. */
const blockAction = (action: 'block' | 'unblock'): RouteDescriptor => ({
  method: 'post',
  path: `/api/admin/users/{id}/${action}`,
  tag: 'Admin',
  summary:
    action === 'block'
      ? 'Blocks a user: their spends and checkouts are refused (403 account_blocked)'
      : 'Unblocks a user',
  auth: 'unlocked_admin',
  responses: ok(adminUserActionSchema),
  errors: [
    { status: 404, code: 'user_not_found', when: 'No user with that id' },
    { status: 409, code: 'account_deleted', when: 'The account was deleted' },
    { status: 409, code: 'self_action', when: `The admin would ${action} themselves` },
  ],
  command: true,
});

const descriptors = {
  adminUsers: {
    method: 'get',
    path: '/api/admin/users',
    tag: 'Admin',
    summary:
      'Users, newest first, 20 a page; `search` is a case-insensitive substring of first, last or full name or e-mail',
    auth: 'unlocked_admin',
    query: adminUsersQuerySchema,
    responses: ok(adminUsersPageSchema),
    errors: [{ status: 400, code: 'invalid_request', when: 'A bad `search` or `page`' }],
  },
  adminUser: {
    method: 'get',
    path: '/api/admin/users/{id}',
    tag: 'Admin',
    summary: 'One user as the admin panel shows it',
    auth: 'unlocked_admin',
    responses: ok(adminUserSchema),
    errors: [notFoundWhen('No such user')],
  },
  adminBlockUser: blockAction('block'),
  adminUnblockUser: blockAction('unblock'),
  adminChangeRole: {
    method: 'post',
    path: '/api/admin/users/{id}/role',
    tag: 'Admin',
    summary: 'Promotes a user to admin or demotes an admin to user (the role stays at sign-in)',
    auth: 'unlocked_admin',
    body: json(adminRoleRequestSchema),
    responses: ok(adminUserActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No user with that id' },
      { status: 409, code: 'account_deleted', when: 'The account was deleted' },
      { status: 409, code: 'self_action', when: 'The admin would change their own role' },
      { status: 409, code: 'last_admin', when: 'The demotion would leave no admin' },
    ],
    command: true,
  },
  adminDeleteUser: {
    method: 'delete',
    path: '/api/admin/users/{id}',
    tag: 'Admin',
    summary:
      'Deletes a user as their own deletion does (subscription cancelled, credits forfeited, e-mail released)',
    auth: 'unlocked_admin',
    responses: ok(adminUserActionSchema),
    errors: [
      { status: 404, code: 'user_not_found', when: 'No user with that id' },
      { status: 409, code: 'self_action', when: 'The admin would delete themselves' },
      { status: 409, code: 'last_admin', when: 'The user is the last admin' },
    ],
    command: true,
  },
} satisfies RouteDescriptors;

/**
 * The admin panel's user management (issue 14): the list with search, one user, block, unblock,
 * role and deletion. Every command is the admin's, decided on the write side (the user stream,
 * and the `admins` registry for anything that takes an admin away); answers wait for the read
 * models to show it (read-your-writes) and give the user as it is now.
 */
export const adminUserRoutes = describedRouter(descriptors, (deps: AppDeps, route) => {
  const { ledger, read, consistency, sessions } = deps;
  const admin = [requireUser, requireUnlockedAdmin];

  /** The target's user stream: it must exist, and not be deleted, for a role change. */
  const liveTarget = async (userId: string) => {
    const { state } = await ledger.load('user', userId);
    if (state.status === 'unregistered') throw userErrors.notFound();
    return state;
  };

  const answer = async (userId: string, message: string) => {
    const user = await adminUserOf(read, userId);
    if (!user) throw notFound('No such user');
    return { message, user };
  };

  route('adminUsers', ...admin, async (req, res) => {
    const { search, page } = adminUsersQuerySchema.parse(req.query);
    const found = await adminUsersPage(read, search || undefined, page);
    res.json({ ...found, page, pageSize: ADMIN_USERS_PAGE_SIZE });
  });

  route('adminUser', ...admin, async (req, res) => {
    const user = await adminUserOf(read, userIdOf(req.params.id));
    if (!user) throw notFound('No such user');
    res.json(user);
  });

  for (const [action, name, message] of [
    ['block', 'adminBlockUser', adminMessages.blocked],
    ['unblock', 'adminUnblockUser', adminMessages.unblocked],
  ] as const) {
    route(name, ...admin, async (req, res) => {
      const userId = userIdOf(req.params.id);
      const handled = await ledger.handle(
        'user',
        userId,
        { type: action === 'block' ? 'BlockUser' : 'UnblockUser', adminId: req.user!.id },
        req.context,
      );
      // A blocked admin has no power from now on: their unlocked sessions are locked.
      if (action === 'block') await sessions.lockAdminOf(userId);
      await consistency.settle(req, handled.position);
      res.json(await answer(userId, message));
    });
  }

  route('adminChangeRole', ...admin, async (req, res) => {
    const userId = userIdOf(req.params.id);
    const { role } = adminRoleRequestSchema.parse(req.body);
    const adminId = req.user!.id;
    if (userId === adminId) {
      throw userErrors.selfAction(role === 'user' ? 'demote' : 'change the role of');
    }
    const target = await liveTarget(userId);
    if (target.status === 'deleted') throw userErrors.deleted();
    // The registry first: a demotion that would leave no admin is refused before the user stream.
    const registered = await changeAdminRegistry(
      ledger,
      role === 'user'
        ? { type: 'RevokeAdmin', actorId: adminId, targetId: userId, reason: 'demoted' }
        : { type: 'GrantAdmin', actorId: adminId, targetId: userId },
      req.context,
    );
    const changed = await ledger.handle(
      'user',
      userId,
      { type: 'ChangeRole', role, source: 'admin', adminId },
      req.context,
    );
    if (role === 'user') await sessions.lockAdminOf(userId);
    await consistency.settle(req, latestPosition(registered.position, changed.position));
    res.json(
      await answer(userId, role === 'admin' ? adminMessages.promoted : adminMessages.demoted),
    );
  });

  route('adminDeleteUser', ...admin, async (req, res) => {
    const userId = userIdOf(req.params.id);
    const adminId = req.user!.id;
    if (userId === adminId) throw userErrors.selfAction('delete');
    const target = await liveTarget(userId);
    // Deleting an admin takes an admin away: the last one stays.
    const registered = isAdmin(target)
      ? await changeAdminRegistry(
          ledger,
          { type: 'RevokeAdmin', actorId: adminId, targetId: userId, reason: 'deleted' },
          req.context,
        )
      : null;
    // The user's own deletion sequence: subscription cancelled at the gateway, credits forfeited
    // (an event), the user deleted (`deleted_by_admin`), the e-mail released, the personal data
    // erased (the sessions and pictures with it).
    const position = await deleteAccount(deps, userId, req.context, { adminId });
    await consistency.settle(req, latestPosition(registered?.position ?? null, position));
    res.json(await answer(userId, adminMessages.deleted));
  });
});
