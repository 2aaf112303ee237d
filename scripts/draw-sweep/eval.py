#!/usr/bin/env python3
"""Scan each format directory gen.py wrote with sotvet and report, per format
and file form, the drawn values with no finding on their line (a miss).

usage: SOTVET=path/to/sotvet python3 eval.py DIR   (default: sotvet on PATH)

Writes DIR/misses.json: the missed values, by format and form."""
import json, subprocess, sys, os, collections
from concurrent.futures import ThreadPoolExecutor
if len(sys.argv) != 2:
    sys.exit("usage: SOTVET=path/to/sotvet python3 eval.py DIR")
out = sys.argv[1]
BIN = os.environ.get("SOTVET", "sotvet")
man = [json.loads(l) for l in open(os.path.join(out, "manifest.jsonl"))]
fmts = sorted(set(m["format"] for m in man))
def scan(fmt):
    p = subprocess.run([BIN, "scan", "-format", "json", "-max-findings", "0", "-max-findings-per-file", "0", os.path.join(out, fmt)],
                       capture_output=True, text=True)
    try:
        d = json.loads(p.stdout)
    except Exception:
        print("bad json for", fmt, p.stderr[:500], file=sys.stderr); return fmt, {}
    by = collections.defaultdict(list)
    for k, v in d.items():
        if isinstance(v, list):
            for e in v:
                if isinstance(e, dict) and "file" in e:
                    by[os.path.basename(e["file"])].append(e)
    return fmt, by
with ThreadPoolExecutor(2) as ex:
    res = dict(ex.map(scan, fmts))
rows = collections.OrderedDict()
misses = collections.defaultdict(list)
for m in man:
    f = res[m["format"]].get(m["file"], [])
    for (tn, a, b) in m["targets"]:
        key = (m["format"] + ("" if tn == "value" else "/" + tn), m["context"])
        r = rows.setdefault(key, [0, 0, 0, collections.Counter()])
        r[0] += 1
        if not f:
            r[1] += 1
        hit = [e for e in f if a <= e["line"] <= b or (e.get("end_line") and e["line"] <= b and e["end_line"] >= a)]
        if not hit:
            r[2] += 1
            misses[key].append({"file": m["file"], "value": m["value"], "other": [(e["line"], e["category"]) for e in f]})
        else:
            for e in hit: r[3][e["category"]] += 1
json.dump({"%s|%s" % k: v for k, v in misses.items()}, open(os.path.join(out, "misses.json"), "w"), indent=1)
print("%-34s %-5s %6s %9s %9s  %s" % ("format", "ctx", "drawn", "nofinding", "offline", "rules"))
for (fmt, ctx), (n, nf, nl, c) in rows.items():
    print("%-34s %-5s %6d %5d %5.1f%% %4d %5.1f%%  %s" % (fmt, ctx, n, nf, 100.0*nf/n, nl, 100.0*nl/n, ",".join(k for k, _ in c.most_common(2))))
