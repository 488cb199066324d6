#!/usr/bin/env bash
# The one Node.js the project runs on (make run, test, bench, binary, backup): links .runtime/bin/node, which the
# Makefile puts first on PATH, to a `node` of the version pinned in .node-version. A `node` already on PATH is used
# when it has the pinned major version and is no older than the pin (same native-addon ABI, fixes at least as
# recent); otherwise the pinned version is installed from the npm registry (package node-<os>-<cpu>, the official
# build) into .runtime/node-v<version>-<os>-<cpu>/, once. Quiet when nothing changes. See README.md, Requirements.
set -euo pipefail
cd "$(dirname "$0")/.."

pinned=$(tr -d ' \n' < .node-version)
major=${pinned%%.*}
runtime=$PWD/.runtime
link=$runtime/bin/node

# The PATH without our own link, so that the node found is the user's.
user_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$runtime/bin" | paste -sd: -)

# True when version $1 has the pinned major and is no older than the pin.
suits() {
  [ "${1%%.*}" = "$major" ] && [ "$(printf '%s\n%s\n' "$pinned" "$1" | sort -V | head -n1)" = "$pinned" ]
}

target=
found=$(PATH=$user_path command -v node || true)
if [ -n "$found" ]; then
  found_version=$("$found" -p 'process.versions.node' 2>/dev/null || echo none)
  if suits "$found_version"; then target=$(readlink -f "$found"); fi
fi

if [ -z "$target" ]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    *) echo "node-runtime: no Node.js $major on PATH, and this script installs one on Linux only: install Node.js $pinned or a newer $major.x" >&2; exit 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) cpu=x64 ;;
    aarch64 | arm64) cpu=arm64 ;;
    *) echo "node-runtime: no Node.js build for $(uname -m) on the npm registry: install Node.js $pinned or a newer $major.x" >&2; exit 1 ;;
  esac
  home=$runtime/node-v$pinned-$os-$cpu
  target=$home/bin/node
  if [ "$("$target" --version 2>/dev/null || true)" != "v$pinned" ]; then
    command -v npm > /dev/null || { echo "node-runtime: npm is needed to fetch Node.js $pinned" >&2; exit 1; }
    echo "node-runtime: node on PATH is ${found_version:-missing}; installing Node.js $pinned (npm package node-$os-$cpu, about 50 MB) into ${home#"$PWD"/}" >&2
    mkdir -p "$runtime"
    # Fetched and unpacked beside its final place, then renamed into it: an interrupted download leaves nothing half done.
    stage=$(mktemp -d "$runtime/.fetch-XXXXXX")
    trap 'rm -rf "$stage"' EXIT
    (cd "$stage" && npm pack --silent --no-audit --no-fund "node-$os-$cpu@$pinned" > /dev/null)
    mkdir "$stage/unpacked"
    tar -xzf "$stage"/node-"$os-$cpu"-*.tgz -C "$stage/unpacked" --strip-components=1
    [ "$("$stage/unpacked/bin/node" --version)" = "v$pinned" ] || { echo "node-runtime: the package did not hold Node.js $pinned" >&2; exit 1; }
    rm -rf "$home"
    mv "$stage/unpacked" "$home"
  fi
fi

if [ "$(readlink "$link" 2>/dev/null || true)" != "$target" ]; then
  mkdir -p "$runtime/bin"
  ln -sfn "$target" "$link"
  echo "node-runtime: node is $("$target" --version) ($target)" >&2
fi
