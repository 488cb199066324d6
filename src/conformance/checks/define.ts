// One check in one line of its own: the level is the id's first word (`core.users.register-201` is core).
import { LEVELS, type Check, type Level } from '../types.ts';
import type { KitContext } from '../context.ts';

export function check(id: string, section: string, rule: string, run: (ctx: KitContext) => Promise<void>): Check {
  const level = id.split('.')[0] as Level;
  if (!LEVELS.includes(level)) throw new Error(`check ${id}: its id must start with a level (${LEVELS.join(', ')})`);
  return { id, section, rule, level, run };
}
