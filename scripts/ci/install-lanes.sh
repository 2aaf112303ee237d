#!/usr/bin/env bash
# Installs the real agent CLIs the lane tests drive (pinned, from npm) into
# sotvet's own directory, $SOTVET_LANES_DIR or ~/.cache/sotvet/lanes: outside
# the checkout, so that `sotvet scan .` does not read node_modules. The
# tests look there; nothing is installed globally.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=${SOTVET_LANES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sotvet/lanes}
codex=@openai/codex@0.169.0
pi=@mariozechner/pi-coding-agent@0.73.1
mkdir -p "$dir"
if [ -x "$dir/node_modules/.bin/codex" ] && [ -x "$dir/node_modules/.bin/pi" ] &&
  grep -q '"version": "0.169.0"' "$dir/node_modules/@openai/codex/package.json" &&
  grep -q '"version": "0.73.1"' "$dir/node_modules/@mariozechner/pi-coding-agent/package.json"; then
  echo "lanes: $codex and $pi already in $dir"
  exit 0
fi
echo "lanes: installing $codex $pi into $dir"
# --ignore-scripts: neither CLI needs its install scripts to run.
npm install --prefix "$dir" --no-audit --no-fund --ignore-scripts --save-exact "$codex" "$pi"
"$dir/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex" --version 2>/dev/null ||
  find "$dir/node_modules" -path '*vendor*/bin/codex' -type f | head -1
