#!/usr/bin/env bash
# prose-vs-vale.sh - the CPU a prose run takes against Vale's on the same
# documents (issue #36: "sotvet check --enable prose takes at least 10x less
# CPU than Vale on the same documents").
#
# usage: scripts/prose-vs-vale.sh
#
# Two trees, as scripts/prose-conformance.sh compares them: Vale's own
# markdown fixtures (testdata/prose/other) and the user's corpus
# (../shared/corpus/cto-planb, skipped when absent), each copied into a
# temporary directory with the Google, Microsoft, write-good and proselint
# packages of testdata/prose/styles inside it (a StylesPath must stay
# inside the configuration's repository; the packages' README files, not
# rules, are left out so that Vale does not lint them) and a .vale.ini
# naming them for *.md. `other` gets an empty .sot/ to be a workspace.
# Then, in turns, so that both tools see the machine's load of the same
# minutes:
#
#   perf stat -r RUNS  sotvet check --enable prose --no-git --no-cache --format json .
#   perf stat -r VRUNS vale --output=JSON .
#
# from inside the tree, and prints each round's task-clock (CPU of every
# thread, ms) and their ratio. The style cache is warmed first (a run after
# the rule files are past its racy margin), as any run after the first
# finds it.
#
# environment:
#   SOTVET  sotvet binary (default: built from this checkout)
#   VALE    vale binary (default: vale on PATH; v3.26.0, see
#           scripts/prose-conformance.sh to build it)
#   CORPUS  the user's corpus (default ../shared/corpus/cto-planb)
#   ROUNDS  interleaved rounds per tree (default 3)
#   RUNS    sotvet runs per round (default 10); VRUNS vale's (default 3)
#
# Needs perf (linux-perf); skips (exit 0) without perf or vale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

VALE=${VALE:-$(command -v vale || true)}
CORPUS=${CORPUS:-../shared/corpus/cto-planb}
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
	go build -o "$work/sotvet" ./cmd/sotvet
	SOTVET=$work/sotvet
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
		for r in $(seq "$ROUNDS"); do
			s=$(cpu "$RUNS" "$SOTVET" check --enable prose --no-git --no-cache --format json .)
			v=$(cpu "$VRUNS" "$VALE" --output=JSON .)
			printf '%-7s round %d: sotvet %8s ms  vale %8s ms  vale/sotvet %5.1fx  (load %s)\n' \
				"$1" "$r" "$s" "$v" "$(echo "$v / $s" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
		done
	)
}

echo "== $("$VALE" --version) against $("$SOTVET" version 2>/dev/null || echo sotvet); task-clock, mean of $RUNS (sotvet) and $VRUNS (vale) runs a round"
tree other testdata/prose/other
measure other
if [ -d "$CORPUS" ]; then
	tree corpus "$CORPUS"
	measure corpus
else
	echo "corpus: skipped: $CORPUS is not beside the checkout"
fi
