#!/usr/bin/env bash
# A new user's first hour, scripted: from a fresh clone of this checkout,
# install sotvet as the README says, run the README's two commands, then use
# sotvet in another project whose workspace sits in a sub-directory, through
# the real pre-commit framework (Debian's pre-commit; scripts/ci/tools.sh
# installs it) with sotvet's own hook manifest, built by pre-commit as a
# user's would be:
#   - a bad commit is blocked, on its own file;
#   - a good commit passes, although an older defect sits elsewhere;
#   - `pre-commit run --all-files` fails on that older defect.
#
#   scripts/ci/newcomer.sh            # every step
#   NEWCOMER_SKIP_TESTS=1 scripts/ci/newcomer.sh   # all but the README's test command
#   NEWCOMER_FULL_TESTS=1 scripts/ci/newcomer.sh   # the test command whole (by default
#                         narrowed to -run Corpus without -race, in the packages whose
#                         tests read the corpus: .ci/run ran it whole)
#   NEWCOMER_TRIMPATH=0 scripts/ci/newcomer.sh     # build without -trimpath (see below)
#
# The clone is of HEAD: commit what you want walked.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
# The clone is fresh on every run, but at the same path for a given
# checkout: a package's directory is part of its build-cache key (without
# -trimpath), so in a new directory on every run the README's install
# compiled all of sotvet cold every time (37 s of CPU), proving nothing
# the test suite's own build does not. A newcomer's first install is cold;
# CI's repeated walks need not be. The path is under the user's own cache
# directory (not a shared /tmp, where another user could plant it); the
# lock keeps two walks of one checkout from sharing it, and without flock
# each walk takes a new directory, as before. The lock file stays:
# removing it would let a third walk lock a new file while the second
# holds the old one.
base=${XDG_CACHE_HOME:-$HOME/.cache}/sotvet-newcomer
mkdir -p "$base"
tmp=$base/$(printf '%s' "$src" | sha256sum | cut -c1-12)
if command -v flock >/dev/null; then
  exec 9>"$tmp.lock"
  flock 9
  chmod -R u+w "$tmp" 2>/dev/null || true
  rm -rf "$tmp"
  mkdir "$tmp"
else
  tmp=$(mktemp -d)
fi
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
step() { echo "newcomer: $*"; }
fail() { echo "newcomer: FAIL: $*" >&2; exit 1; }

command -v pre-commit >/dev/null || fail "pre-commit is not installed (scripts/ci/tools.sh installs it)"

step "fresh clone of $(git -C "$src" rev-parse --short HEAD)"
git clone -q "$src" "$tmp/sotvet"
cd "$tmp/sotvet"

step "install, as the README says"
grep -q '^    go install ./cmd/sotvet$' README.md || fail "the README no longer says 'go install ./cmd/sotvet'"
export GOBIN="$tmp/bin" PATH="$tmp/bin:$PATH"
go install ./cmd/sotvet
sotvet version

# pre-commit clones the hooks' repository into a new directory of its own
# on every run, and a package's directory is part of its build-cache key
# unless -trimpath: without it, pre-commit's build would compile sotvet
# cold on every run. The install above is the README's, as written: -trimpath would change what it installs (the shipped cases are
# found by the source path compiled in, which -trimpath leaves out), so
# it is added only after it, and not to the whole test command
# (NEWCOMER_FULL_TESTS=1, whose case-lookup scenario needs that path).
# Added to `go env GOFLAGS`, which the variable would otherwise replace.
if [ "${NEWCOMER_TRIMPATH:-1}" = 1 ] && [ "${NEWCOMER_FULL_TESTS:-}" != 1 ]; then
  flags=$(go env GOFLAGS)
  export GOFLAGS="${flags:+$flags }-trimpath"
fi

# The README's two commands, as written in its "The two commands" section.
mapfile -t cmds < <(awk '/^## The two commands/{on=1; next} /^## /{on=0} on && /^    [^ ]/{sub(/^    /, ""); print}' README.md)
[ "${#cmds[@]}" -eq 2 ] || fail "README's 'The two commands' has ${#cmds[@]} commands, want 2"
step "README command 1: ${cmds[0]}"
out=$(bash -c "${cmds[0]}" 2>&1) || fail "${cmds[0]}: exit $?: $out"
# A clean run says so in one line, and nothing else.
case $out in
"All checks passed: 0 findings in "*" files.") ;;
*) fail "${cmds[0]}: the clean sample printed: $out" ;;
esac
if [ "${NEWCOMER_SKIP_TESTS:-}" = 1 ]; then
  step "README command 2 skipped (NEWCOMER_SKIP_TESTS=1): ${cmds[1]}"
else
  # .ci/run has just run the whole suite under -race in the checkout; here
  # the command is run once more, as written, but narrowed with -run to
  # the tests that read the user's corpus (which a plain clone lacks: they
  # must skip, not fail) and without -race, so that CI does not pay for
  # the race suite twice. NEWCOMER_FULL_TESTS=1 runs the command whole.
  tcmd=${cmds[1]}
  if [ "${NEWCOMER_FULL_TESTS:-}" != 1 ]; then
    case $tcmd in
    "go test "*) ;;
    *) fail "README command 2 is no longer a 'go test' command: $tcmd" ;;
    esac
    tcmd="go test -run '${NEWCOMER_RUN:-Corpus}' ${tcmd#go test }"
    tcmd=${tcmd/ -race / }
    # And to the packages whose tests read the corpus: the others would
    # only be compiled again (a new clone's directory misses the cache).
    if [ -z "${NEWCOMER_RUN:-}" ]; then
      pkgs=$(go list -f '{{.ImportPath}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ./... |
        awk '{for (i = 2; i <= NF; i++) if ($i == "github.com/svrnty/sotvet/internal/testcorpus") { print $1; break }}' | tr '\n' ' ')
      [ -n "$pkgs" ] || fail "no package's tests use internal/testcorpus: the narrowing is stale"
      case $tcmd in
      *" ./...") tcmd="${tcmd% ./...} $pkgs" ;;
      *) fail "README command 2 no longer ends in ./...: $tcmd" ;;
      esac
    fi
  fi
  step "README command 2 (in a plain clone: no corpus beside it; TMPDIR unset, as a newcomer's is): $tcmd"
  env -u TMPDIR bash -c "$tcmd" >"$tmp/tests.log" 2>&1 || { tail -50 "$tmp/tests.log"; fail "$tcmd"; }
  grep -q '^ok' "$tmp/tests.log" || fail "no package passed"
fi

step "a project with its workspace in planning/, hooks from sotvet's manifest"
proj="$tmp/project"
mkdir -p "$proj/planning/.sot"
cd "$proj"
git init -q
git config user.name newcomer
git config user.email newcomer@example.invalid
doc() { # doc STATUS: a PRD whose only possible defect is its status's case
  cat <<DOC
---
name: x-prd
owner: jp
status: $1
created: 2026-06-01
last_reviewed: 2026-06-01
lifecycle_classification: planning
core_promotion_status: not-promoted
---

# X PRD

Local planning SOT only. Not a Core Protocol. Not active Core authority.

## Problem Statement

A PRD.

## Non-Goals

- None.

## Acceptance Criteria

- It is vetted.
DOC
}
doc Validated >planning/.sot/OLD-PRD.md
git add .
git commit -q -m "an old defect, committed before the hook"

cat >.pre-commit-config.yaml <<CFG
repos:
  - repo: $tmp/sotvet
    rev: $(git -C "$tmp/sotvet" rev-parse HEAD)
    hooks:
      - id: sotvet
      - id: sotvet-secrets
CFG
git add .pre-commit-config.yaml
git commit -q --no-verify -m "use sotvet's hooks"
export PRE_COMMIT_HOME="$tmp/pre-commit-home"
# pre-commit builds the hooks with go (language: golang) in its own GOPATH;
# the module cache is shared so nothing is downloaded twice.
GOMODCACHE=$(go env GOMODCACHE)
export GOMODCACHE
pre-commit install >/dev/null
step "pre-commit builds sotvet's hooks"
pre-commit install-hooks

step "a bad commit is blocked, on its own file"
doc Validated >planning/.sot/NEW-PRD.md
git add planning/.sot/NEW-PRD.md
if git commit -q -m "bad" >"$tmp/bad.log" 2>&1; then
  cat "$tmp/bad.log"; fail "the bad commit went through"
fi
grep -q 'planning/.sot/NEW-PRD.md:4:9: [a-z]* \[frontmatter[]/]' "$tmp/bad.log" || { cat "$tmp/bad.log"; fail "no finding at planning/.sot/NEW-PRD.md:4:9"; }
! grep -q 'OLD-PRD' "$tmp/bad.log" || { cat "$tmp/bad.log"; fail "the commit was judged on a file it does not touch"; }

step "a good commit passes, although OLD-PRD.md still has its defect"
doc validated >planning/.sot/NEW-PRD.md
git add planning/.sot/NEW-PRD.md
git commit -q -m "good" >"$tmp/good.log" 2>&1 || { cat "$tmp/good.log"; fail "the good commit was blocked"; }

step "pre-commit run --all-files fails on the old defect"
if pre-commit run --all-files >"$tmp/all.log" 2>&1; then
  cat "$tmp/all.log"; fail "pre-commit run --all-files passed with a defect in planning/.sot/OLD-PRD.md"
fi
grep -q 'planning/.sot/OLD-PRD.md:4:9: [a-z]* \[frontmatter[]/]' "$tmp/all.log" || { cat "$tmp/all.log"; fail "the old defect was not reported"; }

step "sotvet check from the project root finds the workspace in planning/"
set +e
sotvet check . >"$tmp/check.log" 2>&1
code=$?
set -e
[ "$code" -eq 1 ] || { cat "$tmp/check.log"; fail "sotvet check . exited $code, want 1"; }
grep -q '^planning/.sot/OLD-PRD.md:4:9: ' "$tmp/check.log" || { cat "$tmp/check.log"; fail "no finding in planning/"; }
step "done"
