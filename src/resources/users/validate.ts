// Field rules of a user (docs/protocol.md §1.7): login 3-32 of letters, digits . _ -; password 8-1024 characters.
import { invalidField } from '../../http/http-error.ts';
import { checkString, rejectUnknownFields, requireString, type Body } from '../../parsers/body-fields.ts';
import { isValidId } from '../../storage/ids.ts';

export const LOGIN_RULE = { min: 3, max: 32, pattern: /^[A-Za-z0-9._-]+$/, patternMessage: 'may hold only letters, digits, ".", "_" and "-"' };
export const PASSWORD_RULE = { min: 8, max: 1024 };

export function validateRegistration(body: Body): { login: string; password: string } {
  rejectUnknownFields(body, ['login', 'password']);
  return { login: requireString(body, 'login', LOGIN_RULE), password: requireString(body, 'password', PASSWORD_RULE) };
}

export interface UserChanges {
  login?: string;
  password?: string;
  currentPassword?: string;
  avatar?: string | null;
}

export function validateUserChanges(body: Body): UserChanges {
  rejectUnknownFields(body, ['login', 'password', 'currentPassword', 'avatar', 'id']);
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
  return changes;
}
