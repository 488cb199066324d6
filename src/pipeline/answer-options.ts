// OPTIONS, answered from the route table (RFC 9110 §9.3.7): what the path allows, and what its PATCH accepts.
import type { Reply, Route } from '../resources/context.ts';
import type { RouteTable } from '../router/route-table.ts';

export function answerOptions(routes: RouteTable<Route>, path: string, allowed: readonly string[]): Reply {
  const headers: Record<string, string> = { Allow: allowed.join(', ') };
  const patch = routes.match('PATCH', path);
  // RFC 5789 §3.1: Accept-Patch in an OPTIONS answer says PATCH is supported, and with which media types.
  if (patch.kind === 'found' && patch.route.handler.acceptPatch) headers['Accept-Patch'] = patch.route.handler.acceptPatch.join(', ');
  return { status: 204, headers };
}
