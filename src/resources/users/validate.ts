// Field rules of a user (docs/protocol.md §1.7): login 3-32 of letters, digits . _ -; password 8-1024 characters.
import { invalidField } from '../../http/http-error.ts';
import { checkString, rejectUnknownFields, requireString, type Body } from '../../parsers/body-fields.ts';
import { isValidId } from '../../storage/ids.ts';
import type { Role } from '../../storage/store.ts';

export const LOGIN_RULE = { min: 3, max: 32, pattern: /^[A-Za-z0-9._-]+$/, patternMessage: 'may hold only letters, digits, ".", "_" and "-"' };
export const PASSWORD_RULE = { min: 8, max: 1024 };

/** An invite code is what POST /invites handed out: base64url text, checked against the stored hashes. */
export const INVITE_CODE_RULE = { min: 1, max: 256 };

export function validateRegistration(body: Body): { login: string; password: string; inviteCode: string | undefined } {
  rejectUnknownFields(body, ['login', 'password', 'inviteCode']);
  const inviteCode = body['inviteCode'] === undefined || body['inviteCode'] === '' ? undefined : checkString(body['inviteCode'], 'inviteCode', INVITE_CODE_RULE);
  return { login: requireString(body, 'login', LOGIN_RULE), password: requireString(body, 'password', PASSWORD_RULE), inviteCode };
}

export interface UserChanges {
  login?: string;
  password?: string;
  currentPassword?: string;
  avatar?: string | null;
  /** Only an admin changes a role (docs/protocol.md §13). */
  role?: Role;
  /** Only an admin deactivates (false) or restores (true) an account (docs/protocol.md §13.4). */
  active?: boolean;
}

const ROLES: readonly Role[] = ['admin', 'member'];

/** The fields a user changes only on themself. */
export function changesOwnProfile(changes: UserChanges): boolean {
  return changes.login !== undefined || changes.password !== undefined || changes.avatar !== undefined;
}

export function validateUserChanges(body: Body): UserChanges {
  rejectUnknownFields(body, ['login', 'password', 'currentPassword', 'avatar', 'id', 'role', 'active']);
  const changes: UserChanges = {};
  if (body['login'] !== undefined) changes.login = checkString(body['login'], 'login', LOGIN_RULE);
  if (body['password'] !== undefined) {
    changes.password = checkString(body['password'], 'password', PASSWORD_RULE);
    if (body['currentPassword'] === undefined) throw invalidField('currentPassword', 'is required to change the password');
  }
  if (body['currentPassword'] !== undefined) changes.currentPassword = checkString(body['currentPassword'], 'currentPassword', { min: 1, max: 1024 });
  if ('avatar' in body) {
    const avatar = body['avatar'];
    if (avatar !== null && !isValidId(avatar)) throw invalidField('avatar', 'must be the id of one of your avatars, or null');
    changes.avatar = avatar as string | null;
  }
  if (body['role'] !== undefined) {
    if (!ROLES.includes(body['role'] as Role)) throw invalidField('role', 'must be "admin" or "member"');
    changes.role = body['role'] as Role;
  }
  if (body['active'] !== undefined) {
    if (typeof body['active'] !== 'boolean') throw invalidField('active', 'must be true or false');
    changes.active = body['active'];
  }
  return changes;
}
