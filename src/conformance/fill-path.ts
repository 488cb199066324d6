// Fills a route pattern of paths.ts with values, each percent-encoded: the kit's own buildPath, as it imports no router.
export function fillPath(pattern: string, params: Readonly<Record<string, string>> = {}): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_match, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`fillPath: no value for :${key} in ${pattern}`);
    return encodeURIComponent(value);
  });
}
