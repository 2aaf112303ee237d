#!/usr/bin/env bash
# prose-vs-vale.sh - the CPU a prose run takes against Vale's on the same
# documents (issue #36: "sotvet check --enable prose takes at least 10x less
# CPU than Vale on the same documents").
#
# usage: scripts/prose-vs-vale.sh
#        SOTVET_BASE=/path/to/main-sotvet scripts/prose-vs-vale.sh
#
# Two trees, as scripts/prose-conformance.sh compares them: Vale's own
# markdown fixtures (testdata/prose/other) and the user's corpus
# (shared/corpus/cto-planb beside the main checkout, skipped when absent),
# each copied into a
# temporary directory with the Google, Microsoft, write-good and proselint
# packages of testdata/prose/styles inside it (a StylesPath must stay
# inside the configuration's repository; the packages' README files, not
# rules, are left out so that Vale does not lint them) and a .vale.ini
# naming them for *.md. `other` gets an empty .sot/ to be a workspace.
# Then, in turns, so that both tools see the machine's load of the same
# minutes:
#
#   perf stat -r RUNS  sotvet-base check --enable prose --no-git --no-cache --format json .   (with SOTVET_BASE)
#   perf stat -r RUNS  sotvet check --enable prose --no-git --no-cache --format json .
#   perf stat -r VRUNS vale --output=JSON .
#
# from inside the tree, and prints each round's task-clock (CPU of every
# thread, ms) and the ratios. Both sotvet binaries are run from copies in
# a temporary directory: a binary straight from `go build -o` has more of
# its file mapped than a copy (~5 MB of peak RSS), which would tell two
# builds apart by how they were made. The style cache is warmed first (a run after
# the rule files are past its racy margin), as any run after the first
# finds it.
#
# environment:
#   SOTVET  sotvet binary (default: built from this checkout)
#   SOTVET_BASE  a second sotvet binary (main's, say), timed in turns
#           with SOTVET (default: none)
#   VALE    vale binary (default: vale on PATH; v3.26.0, see
#           scripts/prose-conformance.sh to build it; a vale built from
#           the module proxy says "master" to --version)
#   CORPUS  the user's corpus (default: shared/corpus/cto-planb beside
#           the main checkout's top level)
#   ROUNDS  interleaved rounds per tree (default 3)
#   RUNS    sotvet runs per round (default 10); VRUNS vale's (default 3)
#
# Needs perf (linux-perf); skips (exit 0) without perf or vale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

VALE=${VALE:-$(command -v vale || true)}
# Beside the main checkout's top level, which a worktree's common git
# directory names (a worktree's own top level may sit elsewhere).
CORPUS=${CORPUS:-$(cd "$(git rev-parse --git-common-dir)/.." && pwd)/../shared/corpus/cto-planb}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-10}
VRUNS=${VRUNS:-3}
if [ -z "$VALE" ] || ! command -v perf >/dev/null 2>&1; then
	echo "prose-vs-vale: skipped: needs vale and perf on PATH"
	exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SOTVET=${SOTVET:-}
if [ -z "$SOTVET" ]; then
	go build -o "$work/sotvet.built" ./cmd/sotvet
	SOTVET=$work/sotvet.built
fi
cp "$SOTVET" "$work/sotvet"
SOTVET=$work/sotvet
SOTVET_BASE=${SOTVET_BASE:-}
if [ -n "$SOTVET_BASE" ]; then
	cp "$SOTVET_BASE" "$work/sotvet-base"
	SOTVET_BASE=$work/sotvet-base
fi

# tree NAME SRC: the copy of SRC the tools run on.
tree() {
	local dir=$work/$1
	mkdir -p "$dir"
	cp -r "$2/." "$dir/"
	rm -f "$dir/.vale.ini" "$dir/_vale.ini"
	cp -r testdata/prose/styles "$dir/styles"
	find "$dir/styles" -name '*.md' -delete
	printf 'StylesPath = styles\nMinAlertLevel = suggestion\n\n[*.md]\nBasedOnStyles = Google, Microsoft, write-good, proselint\n' >"$dir/.vale.ini"
	[ -d "$dir/.sot" ] || [ -f "$dir/WORKBOARD.yaml" ] || mkdir "$dir/.sot"
}

# cpu RUNS CMD...: the mean task-clock of RUNS runs, in ms (both tools
# exit 1 on alerts).
cpu() {
	local n=$1
	shift
	{ perf stat -x, -e task-clock -r "$n" "$@" 2>&1 >/dev/null || true; } | awk -F, '$3 == "task-clock" { printf "%.1f", $1 }'
}

measure() { # name
	local dir=$work/$1
	(
		cd "$dir"
		"$SOTVET" check --enable prose --no-git --no-cache --format json . >/dev/null || [ $? = 1 ]
		sleep 3 # past the style cache's racy margin, so that the next run indexes the rule files
		"$SOTVET" check --enable prose --no-git --no-cache --format json . >/dev/null || [ $? = 1 ]
		if [ -n "$SOTVET_BASE" ]; then
			# Its own style cache may differ: warmed the same way.
			"$SOTVET_BASE" check --enable prose --no-git --no-cache --format json . >/dev/null || [ $? = 1 ]
			sleep 3
			"$SOTVET_BASE" check --enable prose --no-git --no-cache --format json . >/dev/null || [ $? = 1 ]
		fi
		for r in $(seq "$ROUNDS"); do
			base=""
			if [ -n "$SOTVET_BASE" ]; then
				b=$(cpu "$RUNS" "$SOTVET_BASE" check --enable prose --no-git --no-cache --format json .)
				base=$(printf 'base %8s ms  ' "$b")
			fi
			s=$(cpu "$RUNS" "$SOTVET" check --enable prose --no-git --no-cache --format json .)
			v=$(cpu "$VRUNS" "$VALE" --output=JSON .)
			printf '%-7s round %d: %ssotvet %8s ms  vale %8s ms  vale/sotvet %5.1fx  (load %s)\n' \
				"$1" "$r" "$base" "$s" "$v" "$(echo "$v / $s" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
		done
	)
}

echo "== $("$VALE" --version) against $("$SOTVET" version 2>/dev/null || echo sotvet)${SOTVET_BASE:+ and base $("$SOTVET_BASE" version 2>/dev/null || echo sotvet)}; task-clock, mean of $RUNS (sotvet) and $VRUNS (vale) runs a round"
tree other testdata/prose/other
measure other
if [ -d "$CORPUS" ]; then
	tree corpus "$CORPUS"
	measure corpus
else
	echo "corpus: skipped: no directory $CORPUS (set CORPUS)"
fi
