#!/usr/bin/env bash
# adversarial.sh - sotvet scan timed on each adversarial shape of
# secrets/linear_test.go (adversarial()), one file a run, as a user meets
# such a file: the CPU (user + system) and the peak resident set of each,
# slowest first, and how many took over a second (issue 33's bound for a
# 4 MiB one-line file) or peaked over 64 MB.
#
# usage: scripts/adversarial.sh [REGEXP]     shapes whose name matches (default: all)
#
# environment:
#   SOTVET_BIN    the sotvet to time (default: ./cmd/sotvet, built)
#   SOTVET_BIN_B  a second build: each shape is then scanned by both in
#                 turn, so that the machine's drift falls on both alike
#   SIZE          the files' size in bytes (default 4 MiB, what scan
#                 reads a file up to; a larger size is scanned with
#                 --max-file-size raised to it)
#   TIMEBIN       GNU time (default /usr/bin/time), required
#
# Every run is of a fresh copy of its binary. One file run hundreds of
# times in a row gets its pages mapped differently (huge pages): timed so,
# a build peaked 5-9 MB higher on every shape than the build run before
# it, and ran up to 0.6 s slower, where run from fresh copies, turn about,
# the two were the same.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

match=${1:-.}
size=${SIZE:-$((4 << 20))}
timebin=${TIMEBIN:-/usr/bin/time}
if ! "$timebin" -f '%U %S %M' -o /dev/null true 2>/dev/null; then
	echo "adversarial: need GNU time at $timebin (TIMEBIN)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sotvet-adversarial.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [[ -n ${SOTVET_BIN:-} ]]; then
	cp "$SOTVET_BIN" "$tmp/a"
else
	go build -o "$tmp/a" ./cmd/sotvet
fi
bins=(a)
if [[ -n ${SOTVET_BIN_B:-} ]]; then
	cp "$SOTVET_BIN_B" "$tmp/b"
	bins+=(b)
fi
SOTVET_ADVERSARIAL_OUT=$tmp/shapes SOTVET_ADVERSARIAL_SIZE=$size \
	go test ./secrets -run '^TestWriteAdversarialFiles$' -count=1 >/dev/null

# one NUM: "cpu_seconds peak_MB" of a scan of shape NUM by binary b
one() {
	cp "$tmp/$2" "$tmp/run"
	"$timebin" -f '%U %S %M' -o "$tmp/t" "$tmp/run" scan --max-file-size "$size" "$tmp/shapes/$1" >/dev/null 2>"$tmp/err" || {
		rc=$?
		if ((rc > 1)); then
			echo "adversarial: shape $1 ($3): sotvet scan exited $rc:" >&2
			head -5 "$tmp/err" >&2
			exit 2
		fi
	}
	tail -n 1 "$tmp/t" | awk '{ printf "%.2f %.0f", $1 + $2, $3 / 1024 }'
}

: >"$tmp/rows"
while IFS=$'\t' read -r num name; do
	[[ $name =~ $match ]] || continue
	row=""
	for b in "${bins[@]}"; do
		row+="$(one "$num" "$b" "$name") "
	done
	printf '%s%s\n' "$row" "$name" >>"$tmp/rows"
done <"$tmp/shapes/shapes.tsv"

if ((${#bins[@]} == 2)); then
	printf '%8s %8s %8s %8s  %s\n' "cpu s" "peak MB" "B cpu s" "B peak" shape
	sort -k1,1 -rn "$tmp/rows" | awk '{ printf "%8.2f %8d %8.2f %8d  ", $1, $2, $3, $4; $1 = $2 = $3 = $4 = ""; sub(/^ +/, ""); print }'
	awk '{ s1 += ($1 > 1); s2 += ($3 > 1); m1 += ($2 > 64); m2 += ($4 > 64); c1 += $1; c2 += $3 }
		END { printf "%d shapes; over 1 s: %d, B %d; over 64 MB: %d, B %d; CPU in all: %.1f s, B %.1f s\n", NR, s1, s2, m1, m2, c1, c2 }' "$tmp/rows"
else
	printf '%8s %8s  %s\n' "cpu s" "peak MB" shape
	sort -k1,1 -rn "$tmp/rows" | awk '{ printf "%8.2f %8d  ", $1, $2; $1 = $2 = ""; sub(/^ +/, ""); print }'
	awk '{ s += ($1 > 1); m += ($2 > 64); c += $1 }
		END { printf "%d shapes; over 1 s: %d; over 64 MB: %d; CPU in all: %.1f s\n", NR, s, m, c }' "$tmp/rows"
fi
