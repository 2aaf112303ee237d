#!/usr/bin/env bash
# Installs Debian's chromium for the panel's browser tests (panel/browser_test.go),
# which must run in CI. Called by .ci/run before the tests.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "== chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
echo "== installing chromium (apt) for the panel's browser tests"
sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
/usr/bin/chromium --version
