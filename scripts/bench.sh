#!/usr/bin/env bash
# bench.sh - whole-process benchmark of `sotvet check` against a parse-only
# floor, on the real corpus and on a synthetic one.
#
# usage: scripts/bench.sh
#        scripts/bench.sh sweep [shape ...]   the cliff finder: every shape at
#                                             growing sizes, growth exponents
#                                             per command (scripts/sweep.sh)
#
# environment:
#   CORPUS  real corpus directory (default: ../shared/corpus/cto-planb,
#           relative to the repository root); skipped when absent
#   N       synthetic corpus size in documents (default 10000)
#   RUNS    timed runs per measurement, the median is reported (default 5)
#   SEED    gen-corpus seed (default 1)
#   STRICT  1: exit 1 when a target is missed
#   SOTVET_PKG  package to build as sotvet (default ./cmd/sotvet)
#   TIMEBIN GNU time binary for peak RSS and CPU (default /usr/bin/time; empty: none)
#   SHAPES  gen-corpus shapes to measure (default: adoption findings bigdoc
#           workboard tiny deeprefs; empty: none), each against the parse
#           floor in CPU time and peak RSS, adoption in every output format
#   GITLEAKS  gitleaks binary for the side-by-side secrets scan (default: the
#           one on PATH; skipped with a message when there is none; install
#           with `go install github.com/zricethezav/gitleaks/v8@v8.30.1`)
#   SRCTREE a real source tree scanned by both too, e.g. $(go env GOROOT)/src
#           (skipped when unset: gitleaks needs minutes of CPU on Go's tree)
#   SAMPLES gitleaks' labelled samples (scripts/gitleaks-samples.sh): the
#           secrets-dense tree issue 19 measured on is built from them and
#           scanned too, and the tree of tiny files of issue 33 (a file of
#           two lines per one-line sample, a finding in nearly every one:
#           gen-secrets-tree -tiny); skipped when unset
#
# `sotvet scan` and `gitleaks dir` then scan the same trees (the real corpus,
# the synthetic one, the samples trees) in turns; the target is sotvet at
# least 15x faster.
#
# With git, the synthetic workspace is then made a repository with one
# changed document staged, and `sotvet check --staged` is measured with a
# warm summary cache (the pre-commit case), a cold one, and --no-cache; the
# cache lives in the benchmark's temporary directory.
#
# Wall time is measured by bash ($EPOCHREALTIME, microseconds) around the
# process; the floor and the check runs of a corpus take turns, so that the
# machine's drift during a measurement weighs on both alike. Peak RSS comes
# from `/usr/bin/time -f '%e %M'` when it is
# installed ("n/a" otherwise). Nothing is installed by this script.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ${1:-} == sweep ]]; then
	shift
	exec scripts/sweep.sh "$@"
fi

N=${N:-10000}
RUNS=${RUNS:-5}
SEED=${SEED:-1}
STRICT=${STRICT:-0}
CORPUS=${CORPUS:-../shared/corpus/cto-planb}
SOTVET_PKG=${SOTVET_PKG:-./cmd/sotvet}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sotvet-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

timebin=${TIMEBIN-/usr/bin/time} # TIMEBIN= (empty) measures without it
if [[ -z $timebin || ! -x $timebin ]] || ! "$timebin" -f '%e %M %U %S' -o /dev/null true 2>/dev/null; then
	timebin=
fi

echo "== build"
go build -tags devtools -o "$tmp/parseonly" ./scripts/parseonly
go build -tags devtools -o "$tmp/gen-corpus" ./scripts/gen-corpus
have_sotvet=1
if ! go build -o "$tmp/sotvet" "$SOTVET_PKG" 2>"$tmp/sotvet-build.log"; then
	have_sotvet=0
	echo "warning: $SOTVET_PKG does not build; measuring the parse-only floor only:" >&2
	sed 's/^/  /' "$tmp/sotvet-build.log" >&2
fi

echo "== generate $N synthetic documents (seed $SEED)"
"$tmp/gen-corpus" -n "$N" -seed "$SEED" -out "$tmp/synthetic" -q

# now_us prints the current time in microseconds.
now_us() {
	if [[ -n ${EPOCHREALTIME:-} ]]; then
		local t=${EPOCHREALTIME/[.,]/}
		echo "$((10#$t))"
	else
		date +%s%6N
	fi
}

# median reads numbers, one a line, and prints their median ("n/a" if any
# is not a number).
median() {
	sort -n | awk '
		{ if ($1 !~ /^[0-9.]+$/) bad = 1; v[NR] = $1 }
		END {
			if (NR == 0 || bad) { print "n/a"; exit }
			if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
		}'
}

# run_once NAME OKCODES CMD...: one run of CMD (stdout discarded); sets
# LAST_MS (wall) and LAST_MB (peak RSS, or n/a). An exit code outside
# OKCODES (space-separated) aborts.
run_once() {
	local name=$1 ok=$2
	shift 2
	local rc=0 start end
	start=$(now_us)
	if [[ -n $timebin ]]; then
		"$timebin" -f '%e %M %U %S' -o "$tmp/time.out" "$@" >/dev/null 2>"$tmp/stderr" || rc=$?
	else
		"$@" >/dev/null 2>"$tmp/stderr" || rc=$?
	fi
	end=$(now_us)
	if [[ " $ok " != *" $rc "* ]]; then
		echo "error: $name: exit code $rc (want one of: $ok)" >&2
		sed 's/^/  /' "$tmp/stderr" | head -20 >&2
		exit 2
	fi
	LAST_MS=$(awk -v us=$((end - start)) 'BEGIN { printf "%.1f", us / 1000 }')
	LAST_MB=n/a LAST_CPU=n/a
	if [[ -n $timebin ]]; then
		# GNU time reports %M in KiB, %U and %S in seconds; its last line
		# holds our format.
		LAST_MB=$(tail -n 1 "$tmp/time.out" | awk '{ printf "%.1f", $2 / 1024 }')
		LAST_CPU=$(tail -n 1 "$tmp/time.out" | awk '{ printf "%.0f", ($3 + $4) * 1000 }')
	fi
}

# measure NAME OKCODES CMD...: one warm-up run, then RUNS timed runs of CMD.
# Sets REPLY_MS, REPLY_MB and REPLY_CPU (ms) to the medians.
measure() {
	local walls=() rsses=() cpus=() i
	for ((i = 0; i <= RUNS; i++)); do
		run_once "$@"
		((i == 0)) && continue # warm-up: page cache, binary load
		walls+=("$LAST_MS") rsses+=("$LAST_MB") cpus+=("$LAST_CPU")
	done
	REPLY_MS=$(printf '%s\n' "${walls[@]}" | median)
	REPLY_MB=$(printf '%s\n' "${rsses[@]}" | median)
	REPLY_CPU=$(printf '%s\n' "${cpus[@]}" | median)
}

corpora=()
labels=()
if [[ -d $CORPUS ]]; then
	corpora+=("$CORPUS")
	labels+=("real ($(find "$CORPUS" -name '*.md' | wc -l | tr -d ' ') docs)")
else
	echo "warning: real corpus $CORPUS not found; skipped" >&2
fi
corpora+=("$tmp/synthetic")
labels+=("synthetic ($N docs)")

# The checks of the foundation issue; the other checks came later.
FOUNDATION=frontmatter,refs,status,syntax,workboard
declare -A ms mb cpu
rows=()
for idx in "${!corpora[@]}"; do
	dir=${corpora[$idx]}
	label=${labels[$idx]}
	echo "== measure: $label, $RUNS runs each"
	# The floor and the checks take turns, so that a machine slowing down or
	# speeding up during the measurement weighs on both alike.
	declare -A walls=() rsses=()
	for ((i = 0; i <= RUNS; i++)); do
		run_once "parseonly $dir" "0" "$tmp/parseonly" "$dir"
		walls[floor]+=" $LAST_MS" rsses[floor]+=" $LAST_MB"
		if ((have_sotvet)); then
			# Exit code 1 means findings, which is fine here.
			run_once "sotvet check $dir" "0 1" "$tmp/sotvet" check --format json "$dir"
			walls[check]+=" $LAST_MS" rsses[check]+=" $LAST_MB"
			# The foundation checks alone, the set the targets were set for.
			run_once "sotvet check (foundation) $dir" "0 1" "$tmp/sotvet" check --format json --enable "$FOUNDATION" "$dir"
			walls[core]+=" $LAST_MS" rsses[core]+=" $LAST_MB"
		fi
		if ((i == 0)); then # warm-up: page cache, binary load
			walls=() rsses=()
		fi
	done
	for k in "${!walls[@]}"; do
		ms[$idx,$k]=$(printf '%s\n' ${walls[$k]} | median)
		mb[$idx,$k]=$(printf '%s\n' ${rsses[$k]} | median)
	done
	unset walls rsses
done

# A pre-commit run: the synthetic workspace as a git repository with one
# changed document staged. Cold runs start with an empty summary cache; warm
# runs find the other documents' summaries from the run before.
staged=0
if ((have_sotvet)) && command -v git >/dev/null; then
	repo=$tmp/synthetic
	echo "== measure: --staged, one changed document of $N, $RUNS runs each"
	git -C "$repo" init -q
	git -C "$repo" add -A
	git -C "$repo" -c user.name=bench -c user.email=bench@localhost commit -qm base
	changed=$(git -C "$repo" ls-files '.sot/*.md' | sed -n 1p)
	printf '\nEdited for the benchmark.\n' >>"$repo/$changed"
	git -C "$repo" add "$changed"
	export SOTVET_CACHE=$tmp/cache
	measure "sotvet check --staged (warm)" "0 1" "$tmp/sotvet" check --staged --format json "$repo"
	ms[staged,warm]=$REPLY_MS mb[staged,warm]=$REPLY_MB
	measure "sotvet check --staged (cold)" "0 1" sh -c 'rm -rf "$SOTVET_CACHE" && exec "$0" "$@"' "$tmp/sotvet" check --staged --format json "$repo"
	ms[staged,cold]=$REPLY_MS mb[staged,cold]=$REPLY_MB
	measure "sotvet check --staged --no-cache" "0 1" "$tmp/sotvet" check --staged --no-cache --format json "$repo"
	ms[staged,none]=$REPLY_MS mb[staged,none]=$REPLY_MB
	staged=1
fi

# Secrets: sotvet scan and gitleaks on the same trees, in turns.
gitleaks_bin=${GITLEAKS:-$(command -v gitleaks || true)}
scanned=0
declare -a scan_labels=() scan_dirs=()
if ((have_sotvet)) && [[ -n $gitleaks_bin && -x $gitleaks_bin ]]; then
	for idx in "${!corpora[@]}"; do
		scan_labels+=("${labels[$idx]}") scan_dirs+=("${corpora[$idx]}")
	done
	if [[ -n ${SAMPLES:-} && -f ${SAMPLES:-} ]]; then
		go run -tags devtools ./scripts/gen-secrets-tree -samples "$SAMPLES" -out "$tmp/samples" 2>/dev/null
		scan_labels+=("gitleaks samples") scan_dirs+=("$tmp/samples")
		go run -tags devtools ./scripts/gen-secrets-tree -samples "$SAMPLES" -out "$tmp/tinysecrets" -tiny 2>/dev/null
		scan_labels+=("tiny secret files") scan_dirs+=("$tmp/tinysecrets")
	else
		echo "note: SAMPLES unset; the gitleaks-samples tree is not scanned (scripts/gitleaks-samples.sh makes it)" >&2
	fi
	if [[ -n ${SRCTREE:-} && -d ${SRCTREE:-} ]]; then
		scan_labels+=("source tree") scan_dirs+=("$SRCTREE")
	else
		echo "note: SRCTREE unset; no real source tree is scanned (e.g. SRCTREE=\$(go env GOROOT)/src: gitleaks takes minutes there)" >&2
	fi
	for idx in "${!scan_dirs[@]}"; do
		dir=${scan_dirs[$idx]}
		echo "== measure: sotvet scan vs gitleaks dir, ${scan_labels[$idx]}, $RUNS runs each"
		declare -A walls=() cpus=()
		for ((i = 0; i <= RUNS; i++)); do
			run_once "sotvet scan $dir" "0 1" "$tmp/sotvet" scan "$dir"
			walls[sotvet]+=" $LAST_MS" cpus[sotvet]+=" $LAST_CPU"
			run_once "gitleaks dir $dir" "0" "$gitleaks_bin" dir "$dir" --no-banner --exit-code 0 --log-level error
			walls[gitleaks]+=" $LAST_MS" cpus[gitleaks]+=" $LAST_CPU"
			if ((i == 0)); then
				walls=() cpus=()
			fi
		done
		ms[scan$idx,sotvet]=$(printf '%s\n' ${walls[sotvet]} | median)
		ms[scan$idx,gitleaks]=$(printf '%s\n' ${walls[gitleaks]} | median)
		# CPU (user + system) is the steadier figure on a loaded machine.
		cpu[scan$idx,sotvet]=$(printf '%s\n' ${cpus[sotvet]} | median)
		cpu[scan$idx,gitleaks]=$(printf '%s\n' ${cpus[gitleaks]} | median)
		unset walls cpus
	done
	scanned=1
elif ((have_sotvet)); then
	echo "note: no gitleaks binary (GITLEAKS or PATH); sotvet scan vs gitleaks is not measured" >&2
fi

# The shapes of issue 20: workspaces nobody tuned sotvet to (see
# scripts/gen-corpus -shape). Each is checked against the parse floor in
# CPU time (both cores) and peak RSS; adoption in every output format.
declare -A shape_size=([adoption]=10000 [findings]=500 [bigdoc]=20 [workboard]=50000 [tiny]=100000 [deeprefs]=10000)
SHAPES=${SHAPES-adoption findings bigdoc workboard tiny deeprefs}
shape_rows=()
if ((have_sotvet)) && [[ -n $timebin ]]; then
	for shape in $SHAPES; do
		size=${shape_size[$shape]:-1000}
		dir=$tmp/shape-$shape
		echo "== shape $shape (size $size), $RUNS runs each"
		"$tmp/gen-corpus" -shape "$shape" -n "$size" -seed "$SEED" -out "$dir" -q
		floorflags=()
		if [[ $shape == workboard ]]; then
			# 50,000 items are 6.7 MB, over the default 4 MiB file limit:
			# raised, as a team with such a workboard would, so that the
			# workboard is parsed, by sotvet and by the floor.
			printf 'max-file-size: 16777216\n' >"$dir/sotvet.yaml"
			floorflags=(-workboard)
		fi
		formats=json
		[[ $shape == adoption ]] && formats="json text sarif junit github"
		declare -A cpus=() rsses=() walls=()
		for ((i = 0; i <= RUNS; i++)); do
			run_once "parseonly $dir" "0" "$tmp/parseonly" "${floorflags[@]}" "$dir"
			cpus[floor]+=" $LAST_CPU" rsses[floor]+=" $LAST_MB" walls[floor]+=" $LAST_MS"
			for f in $formats; do
				run_once "sotvet check --format $f $dir" "0 1" "$tmp/sotvet" check --no-git --format "$f" "$dir"
				cpus[$f]+=" $LAST_CPU" rsses[$f]+=" $LAST_MB" walls[$f]+=" $LAST_MS"
			done
			if ((i == 0)); then
				cpus=() rsses=() walls=()
			fi
		done
		floor=$(printf '%s\n' ${cpus[floor]} | median)
		for f in $formats; do
			c=$(printf '%s\n' ${cpus[$f]} | median)
			shape_rows+=("$shape $size $f $(printf '%s\n' ${walls[$f]} | median) $c $floor $(printf '%s\n' ${rsses[$f]} | median)")
		done
		unset cpus rsses walls
		rm -rf "$dir"
	done
fi

# One file changed in a 100-document workspace, checked as a pre-commit
# hook or an editor's save does (--files), with the summary cache warm.
onefile=0
if ((have_sotvet)); then
	small=$tmp/small
	"$tmp/gen-corpus" -n 100 -seed "$SEED" -out "$small" -q
	file=$(cd "$small" && ls .sot/03-PROTOCOLS/*-ISSUES.md | sed -n 1p)
	export SOTVET_CACHE=$tmp/cache-small
	(cd "$small" && "$tmp/sotvet" check --files --format json "$file" >/dev/null) || true
	printf '\nEdited for the benchmark.\n' >>"$small/$file"
	echo "== measure: one changed document of 100, --files, warm cache, $RUNS runs"
	measure "sotvet check --files (one of 100)" "0 1" sh -c 'cd "$0" && exec "$1" check --files --format json "$2"' "$small" "$tmp/sotvet" "$file"
	ms[onefile]=$REPLY_MS mb[onefile]=$REPLY_MB cpu_onefile=$REPLY_CPU
	onefile=1
fi

ratio() { # ratio A B: A/B, or n/a
	awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.2fx", a / b; else print "n/a" }'
}

echo
printf '%-22s %-36s %14s %14s %10s\n' corpus command "median wall ms" "peak RSS MB" check/floor
for idx in "${!corpora[@]}"; do
	label=${labels[$idx]}
	if ((have_sotvet)); then
		printf '%-22s %-36s %14s %14s %10s\n' "$label" "sotvet check --format json DIR" "${ms[$idx,check]}" "${mb[$idx,check]}" "$(ratio "${ms[$idx,check]}" "${ms[$idx,floor]}")"
		printf '%-22s %-36s %14s %14s %10s\n' "$label" "  --enable foundation checks" "${ms[$idx,core]}" "${mb[$idx,core]}" "$(ratio "${ms[$idx,core]}" "${ms[$idx,floor]}")"
	else
		printf '%-22s %-36s %14s %14s %10s\n' "$label" "sotvet check --format json DIR" "n/a" "n/a" "n/a"
	fi
	printf '%-22s %-36s %14s %14s %10s\n' "$label" "parseonly DIR (floor)" "${ms[$idx,floor]}" "${mb[$idx,floor]}" ""
done
if ((staged)); then
	label="synthetic ($N docs)"
	printf '%-22s %-36s %14s %14s\n' "$label" "--staged, 1 changed, warm cache" "${ms[staged,warm]}" "${mb[staged,warm]}"
	printf '%-22s %-36s %14s %14s\n' "$label" "--staged, 1 changed, cold cache" "${ms[staged,cold]}" "${mb[staged,cold]}"
	printf '%-22s %-36s %14s %14s\n' "$label" "--staged, 1 changed, --no-cache" "${ms[staged,none]}" "${mb[staged,none]}"
fi
if ((scanned)); then
	for idx in "${!scan_dirs[@]}"; do
		label=${scan_labels[$idx]}
		printf '%-22s %-36s %14s %14s  cpu %s ms\n' "$label" "sotvet scan DIR" "${ms[scan$idx,sotvet]}" "" "${cpu[scan$idx,sotvet]}"
		printf '%-22s %-36s %14s %14s %10s  cpu %s ms (%s)\n' "$label" "gitleaks dir DIR (gitleaks/sotvet)" "${ms[scan$idx,gitleaks]}" "" "$(ratio "${ms[scan$idx,gitleaks]}" "${ms[scan$idx,sotvet]}")" "${cpu[scan$idx,gitleaks]}" "$(ratio "${cpu[scan$idx,gitleaks]}" "${cpu[scan$idx,sotvet]}")"
	done
fi
if [[ -z $timebin ]]; then
	echo "rss: n/a (no GNU time at ${TIMEBIN-/usr/bin/time})"
fi
if ((onefile)); then
	printf '%-22s %-36s %14s %14s  cpu %s ms\n' "synthetic (100 docs)" "--files, 1 changed, warm cache" "${ms[onefile]}" "${mb[onefile]}" "$cpu_onefile"
fi
if ((${#shape_rows[@]})); then
	echo
	printf '%-10s %7s %-7s %12s %12s %12s %8s %12s\n' shape size format "wall ms" "cpu ms" "floor cpu" "cpu/fl" "peak RSS MB"
	for row in "${shape_rows[@]}"; do
		read -r shape size f wall c floor rss <<<"$row"
		printf '%-10s %7s %-7s %12s %12s %12s %8s %12s\n' "$shape" "$size" "$f" "$wall" "$c" "$floor" "$(ratio "$c" "$floor")" "$rss"
	done
fi

# Targets.
missed=0
verdict() { # verdict DESCRIPTION VALUE OP LIMIT
	local v
	v=$(awk -v x="$2" -v op="$3" -v lim="$4" 'BEGIN {
		if (x !~ /^[0-9.]+x?$/) { print "n/a"; exit }
		sub(/x$/, "", x)
		ok = (op == "<") ? (x + 0 < lim + 0) : (op == ">=") ? (x + 0 >= lim + 0) : (x + 0 <= lim + 0)
		print ok ? "PASS" : "FAIL"
	}')
	[[ $v == FAIL ]] && missed=1
	printf '  %-44s %-4s (%s %s %s)\n' "$1" "$v" "$2" "$3" "$4"
}
echo
echo "targets:"
last=$((${#corpora[@]} - 1))
if ((have_sotvet)); then
	if ((last > 0)); then
		verdict "real corpus: sotvet check <= 40 ms" "${ms[0,check]}" "<=" 40
		verdict "real corpus: peak RSS <= 40 MB" "${mb[0,check]}" "<=" 40
	fi
	verdict "synthetic: sotvet check < 2 s" "${ms[$last,check]}" "<" 2000
	verdict "synthetic: sotvet check <= 1.5x parse-only" "$(ratio "${ms[$last,check]}" "${ms[$last,floor]}")" "<=" 1.5
	verdict "synthetic: sotvet check peak RSS < 500 MB" "${mb[$last,check]}" "<" 500
	verdict "synthetic, foundation checks: < 2 s" "${ms[$last,core]}" "<" 2000
	verdict "synthetic, foundation checks: <= 1.5x" "$(ratio "${ms[$last,core]}" "${ms[$last,floor]}")" "<=" 1.5
	if ((staged)); then
		verdict "synthetic: warm --staged, 1 changed < 300 ms" "${ms[staged,warm]}" "<" 300
	else
		echo "  synthetic: warm --staged < 300 ms: not measured (no git)"
	fi
	if ((scanned)); then
		for idx in "${!scan_dirs[@]}"; do
			verdict "${scan_labels[$idx]}: sotvet scan >= 15x faster than gitleaks (wall)" "$(ratio "${ms[scan$idx,gitleaks]}" "${ms[scan$idx,sotvet]}")" ">=" 15
			if [[ -n $timebin ]]; then
				verdict "${scan_labels[$idx]}: sotvet scan >= 15x faster than gitleaks (CPU)" "$(ratio "${cpu[scan$idx,gitleaks]}" "${cpu[scan$idx,sotvet]}")" ">=" 15
			fi
		done
	else
		echo "  sotvet scan >= 15x faster than gitleaks: not measured (no gitleaks binary)"
	fi
	if ((onefile)); then
		verdict "one changed of 100, process <= 60 ms" "${ms[onefile]}" "<=" 60
	fi
	for row in "${shape_rows[@]}"; do
		read -r shape size f wall c floor rss <<<"$row"
		verdict "$shape ($f): cpu <= 1.5x parse floor" "$(ratio "$c" "$floor")" "<=" 1.5
		verdict "$shape ($f): peak RSS <= 150 MB" "$rss" "<=" 150
	done
	if ((N != 10000)); then
		echo "  (the synthetic targets are stated for N=10000; this run used N=$N)"
	fi
else
	echo "  real corpus <= 40 ms, <= 40 MB; 10k < 2 s, <= 1.5x floor, < 500 MB: not measured (no sotvet binary)"
	missed=1
fi

if ((!have_sotvet)); then
	exit 1
fi
if ((STRICT && missed)); then
	exit 1
fi
