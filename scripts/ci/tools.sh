#!/usr/bin/env bash
# Install the real clients the scenarios test against when CI is set
# (testdata/script/precommit.txtar and scripts/ci/newcomer.sh need Debian's
# pre-commit framework). Outside CI those scenarios skip with a message.
set -euo pipefail
if command -v pre-commit >/dev/null 2>&1; then
  echo "tools: $(pre-commit --version)"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "tools: pre-commit is missing and there is no apt-get to install it" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq pre-commit >/dev/null
echo "tools: installed $(pre-commit --version)"
