#!/usr/bin/env bash
# sweep.sh - the cliff finder: every gen-corpus shape, and the shapes of
# scripts/shapes/ (hub, graph: written by someone who had not read the
# code; python3), at growing sizes, each command timed (CPU: user + system, the steadier figure on a shared
# machine) and its growth exponent printed between consecutive sizes,
# log(t2/t1) / log(n2/n1). An exponent over LIMIT (1.15) is flagged: the
# cost grows faster than the input.
#
# usage: scripts/sweep.sh [shape ...]        (default: every shape)
#
# environment:
#   BIG=1      also the largest sizes (100k documents, 50 MB, 100k items)
#   RUNS       timed runs per point, the median is kept (default 1)
#   COMMANDS   which commands (default: json text sarif junit github scan
#              summary lsp); lsp is the CPU of one edit to its
#              diagnostics in lsp's BenchmarkEditShape, of the first
#              document or the largest, whichever is slower (its wall p95
#              is printed beside it: under load it measures the load)
#   LIMIT      the exponent flagged (default 1.15)
#   STRICT=1   exit 1 when an exponent is flagged
#   TIMEBIN    GNU time (default /usr/bin/time), required
#   SOTVET_BIN a sotvet binary to measure instead of building ./cmd/sotvet
#
# Each shape's size is its unit: documents for most, megabytes for bigdoc,
# items for items, remains, workboard, annotated, chains and fanin, definitions
# for linkrefs, units a paragraph for inlines, 40 bytes of a staircase's indentation for stairs. Times under 150 ms are
# dominated by start-up; their exponents are printed but not flagged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNS=${RUNS:-1}
LIMIT=${LIMIT:-1.15}
STRICT=${STRICT:-0}
BIG=${BIG:-0}
COMMANDS=${COMMANDS:-json text sarif junit github scan summary lsp}
timebin=${TIMEBIN:-/usr/bin/time}
if ! "$timebin" -f '%U %S %M' -o /dev/null true 2>/dev/null; then
	echo "sweep: need GNU time at $timebin (TIMEBIN)" >&2
	exit 2
fi

declare -A sizes=(
	[default]="1000 10000" [adoption]="1000 10000" [findings]="100 1000"
	[tiny]="1000 10000" [deeprefs]="1000 10000" [manyids]="100 1000"
	[nesting]="1000 10000" [mesh]="1000 10000" [longlines]="4 16"
	[bigdoc]="1 10" [items]="1000 10000" [remains]="1000 10000"
	[workboard]="5000 50000" [annotated]="5000 50000" [chains]="5000 50000" [distinct]="1000 10000"
	[fanin]="5000 50000" [linkrefs]="10000 100000" [inlines]="10000 100000"
	[stairs]="10000 100000"
	# written by someone who had not read the code (scripts/shapes/*.py)
	[hub]="1000 10000" [graph]="1000 10000"
)
if ((BIG)); then
	for s in default adoption tiny deeprefs mesh nesting; do sizes[$s]+=" 100000"; done
	sizes[bigdoc]+=" 50"
	sizes[items]+=" 100000"
	sizes[remains]+=" 100000"
	sizes[linkrefs]+=" 1000000"
fi
shapes=("$@")
((${#shapes[@]})) || shapes=(default adoption findings tiny deeprefs manyids nesting mesh longlines bigdoc items remains workboard annotated chains distinct fanin linkrefs inlines stairs hub graph)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sotvet-sweep.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [[ -n ${SOTVET_BIN:-} ]]; then
	cp "$SOTVET_BIN" "$tmp/sotvet" # another build, for a before/after table
else
	go build -o "$tmp/sotvet" ./cmd/sotvet
fi
go build -tags devtools -o "$tmp/gen" ./scripts/gen-corpus
if [[ " $COMMANDS " == *" lsp "* ]]; then
	go test -c -o "$tmp/lsp.test" ./lsp
fi

# cpu_ms CMD...: the median CPU time (ms) of RUNS runs of CMD; its median
# peak RSS (MB) goes to $tmp/rss (cpu_ms runs in a command substitution).
cpu_ms() {
	local out=() rss=() i
	for ((i = 0; i < RUNS; i++)); do
		"$timebin" -f '%U %S %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || {
			rc=$?
			if ((rc > 1)) && ! grep -q 'Command exited with non-zero status 1' "$tmp/t"; then
				echo "sweep: $* failed ($rc):" >&2
				head -5 "$tmp/err" >&2
			fi
		}
		out+=("$(tail -n 1 "$tmp/t" | awk '{ printf "%.0f", ($1 + $2) * 1000 }')")
		rss+=("$(tail -n 1 "$tmp/t" | awk '{ printf "%.0f", $3 / 1024 }')")
	done
	printf '%s\n' "${rss[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' >"$tmp/rss"
	printf '%s\n' "${out[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# lsp_edit DIR REL: the CPU (ms) of one edit of REL in DIR to its
# diagnostics; the edits' wall p95 (ms) goes to $tmp/p95. CPU is what the
# exponent is taken of, as for the other commands: a p95 of wall time on a
# loaded machine measures the load.
lsp_edit() {
	SOTVET_BENCH_DIR=$1 SOTVET_BENCH_DOC=$2 "$tmp/lsp.test" -test.run '^$' -test.bench '^BenchmarkEditShape$' -test.benchtime 20x >"$tmp/lsp.out" 2>&1 || true
	awk '/BenchmarkEditShape/ { for (i = 1; i < NF; i++) if ($(i + 1) == "p95-ms") print $i }' "$tmp/lsp.out" | tail -n 1 >"$tmp/p95"
	awk '/BenchmarkEditShape/ { for (i = 1; i < NF; i++) if ($(i + 1) == "cpu-ms/edit") print $i }' "$tmp/lsp.out" | tail -n 1
}

flagged=0
rows=()
for shape in "${shapes[@]}"; do
	[[ -n ${sizes[$shape]:-} ]] || { echo "sweep: unknown shape $shape" >&2; exit 2; }
	declare -A t=() r=()
	prev=
	for n in ${sizes[$shape]}; do
		dir=$tmp/$shape-$n
		case $shape in
		hub | graph)
			python3 scripts/shapes/$shape.py "$n" "$dir" 2>"$tmp/gen.err" || {
				echo "sweep: scripts/shapes/$shape.py $n failed:" >&2
				cat "$tmp/gen.err" >&2
				exit 2
			}
			;;
		*) "$tmp/gen" -shape "$shape" -n "$n" -out "$dir" -q ;;
		esac
		echo "== $shape $n" >&2
		for c in $COMMANDS; do
			case $c in
			scan) v=$(cpu_ms "$tmp/sotvet" scan "$dir") ;;
			summary) v=$(cpu_ms "$tmp/sotvet" summary --json --no-git "$dir") ;;
			lsp)
				# The first document and the largest: a workspace's first is
				# often its intent, which no cross-document rule reads; the
				# largest says the most that others may contradict. The
				# slower edit is kept.
				first=$(cd "$dir" && find . -name '*.md' | sort | sed -n 1p)
				largest=$(cd "$dir" && find . -name '*.md' -printf '%s %p\n' | sort -k1,1nr -k2 | sed -n '1s/^[0-9]* //p')
				v=n/a p=
				for doc in "$first" "$largest"; do
					e=$(lsp_edit "$dir" "${doc#./}")
					if [[ -n $e ]] && { [[ $v == n/a ]] || awk -v a="$e" -v b="$v" 'BEGIN { exit !(a > b) }'; }; then
						v=$e p=$(cat "$tmp/p95")
					fi
				done
				r[$n,$c]=$p
				;;
			*) v=$(cpu_ms "$tmp/sotvet" check --no-git --format "$c" "$dir") ;;
			esac
			t[$n,$c]=$v
			[[ $c == lsp ]] || r[$n,$c]=$(cat "$tmp/rss")
		done
		rm -rf "$dir"
	done
	sz=(${sizes[$shape]})
	for c in $COMMANDS; do
		line="$shape $c"
		for ((k = 0; k < ${#sz[@]}; k++)); do
			line+=" ${sz[$k]}:${t[${sz[$k]},$c]}"
		done
		for ((k = 1; k < ${#sz[@]}; k++)); do
			n1=${sz[$((k - 1))]} n2=${sz[$k]} a=${t[${sz[$((k - 1))]},$c]} b=${t[${sz[$k]},$c]}
			e=$(awk -v a="$a" -v b="$b" -v n1="$n1" -v n2="$n2" 'BEGIN {
				if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || a <= 0) { print "n/a"; exit }
				printf "%.2f", log(b / a) / log(n2 / n1) }')
			mark=
			# a run's start-up is in its time, an edit's is not
			floor=150
			[[ $c == lsp ]] && floor=5
			if [[ $e != n/a ]] && awk -v e="$e" -v l="$LIMIT" -v b="$b" -v f="$floor" 'BEGIN { exit !(e > l && b >= f) }'; then
				mark=" CLIFF"
				flagged=1
			fi
			line+=" exp${k}=$e$mark"
		done
		last=${sz[$((${#sz[@]} - 1))]}
		if [[ $c == lsp ]]; then
			line+=" p95@$last=${r[$last,$c]:-n/a}ms"
		else
			line+=" rss@$last=${r[$last,$c]}MB"
		fi
		rows+=("$line")
		echo "$line"
	done
	unset t r
done

echo
echo "shape command size:cpu-ms (lsp: CPU ms of one edit) ... exponent between sizes; CLIFF: over $LIMIT"
printf '%s\n' "${rows[@]}" | column -t
if ((STRICT && flagged)); then
	exit 1
fi
