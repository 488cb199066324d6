#!/usr/bin/env bash
# Installs the npm packages a make target needs, only when they are missing, stale, or built for another Node.js:
#   serve  what serving needs (`make run`, `make backup`): the dependencies, no development tools
#   all    every package (`make test`, `make bench`, `make binary`): test, bench and build tools too
# node_modules/.installed records what was installed, for which lock file and which Node.js ABI (the
# `process.versions.modules` of the node on PATH, put there by scripts/node-runtime.sh): a change of Node.js major
# version reinstalls, so that any native addon is one built for it (better-sqlite3's prebuilt one is N-API, the same
# for every version, but one compiled from source is not).
# Which dependencies may run install scripts is package.json's `allowScripts` (README.md, Dependencies).
set -euo pipefail
cd "$(dirname "$0")/.."

want=${1:?usage: install-modules.sh serve|all}
node=$(readlink -f "$(command -v node)")
abi="node-abi-$(node -p 'process.platform + "-" + process.arch + "-" + process.versions.modules')"
lock=$(cat package.json package-lock.json | sha256sum | cut -c1-16)
stamp=node_modules/.installed
have=$(cat "$stamp" 2>/dev/null || true)
[ "$have" = "all $abi $lock" ] && exit 0
[ "$want" = serve ] && [ "$have" = "serve $abi $lock" ] && exit 0

# Should anything compile an addon (node-gyp), it uses the headers of the running node when they are beside it (the
# official builds, and the one scripts/node-runtime.sh installs, carry them) instead of downloading them.
headers=$(dirname "$(dirname "$node")")
if [ -f "$headers/include/node/node_version.h" ]; then export npm_config_nodedir=$headers; fi

version=$(node --version)
started=$SECONDS
rm -f "$stamp"
if [ "$want" = serve ]; then
  echo "install-modules: installing what serving needs for Node.js $version (better-sqlite3 with its prebuilt addon, pg; no test or bench tools)"
  # --ignore-scripts: none of these has an install script; it skips the package's own `prepare`, which compiles
  # lib/ with tsc, a development tool not installed here.
  npm ci --omit=dev --ignore-scripts --no-audit --no-fund
else
  echo "install-modules: installing every package for Node.js $version (test, bench and build tools, and lib/ compiled by prepare: about a minute)"
  npm ci --no-audit --no-fund
fi
echo "$want $abi $lock" > "$stamp"
packages=$(node -p 'Object.keys(require("./node_modules/.package-lock.json").packages).length')
echo "install-modules: $packages packages in $((SECONDS - started)) s"
