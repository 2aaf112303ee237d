#!/usr/bin/env bash
# detect-secrets-cases.sh - extract detect-secrets' plugin tests (Yelp's
# scanner: each plugin's parametrized cases, a line and whether it must be
# reported) into a JSON-lines file, a labelled set of some 630 cases over
# 25 plugins that neither sotvet nor gitleaks wrote:
#
#   scripts/detect-secrets-cases.sh SRC /tmp/ds-cases.jsonl
#   SOTVET_DETECTSECRETS=/tmp/ds-cases.jsonl go test ./secrets -run TestDetectSecretsCases -v
#
# SRC is a detect-secrets source tree (github.com/Yelp/detect-secrets). Its
# test modules are imported with a stand-in for pytest that records the
# parametrize decorators (scripts/detect-secrets-cases/pytest), so only
# python3 and detect-secrets' own imports (PyYAML, requests) are needed;
# nothing of detect-secrets is copied into the repository.
set -euo pipefail
src=${1:?usage: scripts/detect-secrets-cases.sh SRC OUT.jsonl}
out=${2:?usage: scripts/detect-secrets-cases.sh SRC OUT.jsonl}
[[ -d $src/tests/plugins && -d $src/detect_secrets ]] || { echo "detect-secrets-cases: $src is not a detect-secrets source tree" >&2; exit 1; }
exec python3 "$(dirname "${BASH_SOURCE[0]}")/detect-secrets-cases/extract.py" "$src" "$out"
