#!/usr/bin/env python3
"""The "graph" shape ("deep work graph", written as shape Q) -- a deep directory tree of issue-heavy,
unicode-heavy documents whose work items form long dependency chains with
cycles, and a workboard of several items per document.

usage: python3 scripts/shapes/graph.py N OUTDIR

About N markdown documents spread over a directory tree 5-11 levels deep
(.sot/NN-AREA/stage-S/lane-L/wave-W/...), no directory holding more than a
few dozen files, plus a WORKBOARD.yaml of ~4.5 items per document and a
CONTEXT.md glossary of ~N/8 terms.

What makes it unlike "many similar small PRDs":
  * 55% ISSUES documents, each defining 3-14 work items in the three heading
    styles; every item is blocked by its predecessor (chains running across
    documents and directories) and by 0-12 random earlier items; every
    ~400th item is blocked by a LATER item, closing cycles of hundreds of
    items through the workboard; some items "need first" their successor
    (circular readiness).
  * statuses that disagree: candidate in the document but validated in the
    workboard and in another document's journal, "remains blocked"
    sentences (dated and undated) about items defined elsewhere, ids
    defined twice with different titles, ids mentioned but never defined,
    gaps in the id sequence (some declared "skipped on purpose").
  * unicode-heavy prose: CJK, Cyrillic, Greek, Arabic/Hebrew (RTL), emoji
    with ZWJ sequences and combining marks, placed BEFORE ids and paths on
    the same line (columns in code points vs bytes), in headings, table
    cells and in workboard titles/comments.
  * 25% of the bytes are fenced code blocks (python/yaml/json/sh) that
    contain id-like text, "Status: validated." lines and .sot/ paths,
    which must not be read as statements.
  * PRD/MATRIX tables of 30-150 rows mapping ids to deep .sot/ paths
    (some missing), supersedes chains and cycles between PRDs, glossary
    claims ("`CONTEXT.md` defines **Term**.") some undefined.
Deterministic: seeded from N.
"""
import os
import random
import sys

DISCLAIMER = "Local planning SOT only. Not a Core Protocol. Not active Core authority."
AREAS = ["00-INTENT", "01-ROUTES", "02-LANES", "03-PROTOCOLS", "04-STAGES", "05-EVIDENCE", "06-AUDITS"]
UNI = [
    "证据链必须完整，门禁先于执行。", "Проверка доказательств завершена без изменений ядра.",
    "Η πύλη αποδεικτικών στοιχείων παραμένει κλειστή.", "يجب أن يبقى المسار المحلي مغلقًا حتى الموافقة.",
    "השער נשאר סגור עד לאישור המפעיל.", "ゲートは承認まで閉じたままです。", "승인 전까지 게이트는 닫혀 있습니다.",
    "👩‍💻 operator review 🧑🏽‍🔧 done ✅", "Ẓ̵̡a̷l̸g̶o̴ ̵t̷e̸x̶t̵ is not evidence.", "Ṯḧë ṛüñ ḋïṛëċṫöṛÿ ïṡ ċöṗïëḋ.",
    "नियंत्रण सतह केवल पढ़ने के लिए है।", "ประตูยังคงปิดอยู่จนกว่าจะได้รับอนุมัติ",
    "🇫🇷🇯🇵🇧🇷 lanes: codex · pi · case — “quoted” «guillemets» ‹single›",
]
WORDS = ("gate lane harness evidence sandbox approval route wave stage slice "
         "replay journal operator backend freshness fixture contract digest "
         "blocker verifier matrix ladder").split()
TERMS_A = ["Evidence", "Gate", "Lane", "Route", "Sandbox", "Ladder", "Journal", "Replay",
           "Contract", "Matrix", "Packet", "Guard", "Freshness", "Outcome"]
TERMS_B = ["Admission", "Control", "Approval", "Harness", "Operator", "Stage", "Target",
           "Provider", "Backend", "Fixture", "Digest", "Proof"]


def uni(rng):
    return rng.choice(UNI)


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def wid(i):
    return "CTO-WORK-%05d" % i


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(7777 * n + 3)

    # ---- plan the documents: kind and deep directory ----
    kinds = []
    for d in range(n):
        x = rng.random()
        kinds.append("ISSUES" if x < 0.55 else "PRD" if x < 0.75 else "EVIDENCE" if x < 0.87
                     else "BLOCKER" if x < 0.92 else "ATTEMPT" if x < 0.96 else "GATES")
    paths = []
    for d in range(n):
        area = AREAS[1 + d % (len(AREAS) - 1)]
        depth = 3 + (d * 7919) % 7               # 3..9 levels below the area
        segs = ["stage-%d" % (1 + d % 6), "lane-%s" % ["codex", "pi", "case", "fake"][d % 4],
                "wave-%03d" % (d // 40 % 1000), "batch-%02d" % (d // 7 % 50),
                "slice-%d" % (d % 5), "ünïcödé-%d" % (d % 3), "deep-%d" % (d % 2),
                "deeper", "deepest"][:depth]
        stem = "CTO-Q%06d-%s" % (d, ["GATED-ENGINE", "COPIED-REPO", "SANDBOX", "PROVIDER-ROUTE",
                                      "APPROVAL-STATE", "CONTROL-PANEL"][d % 6])
        paths.append(".sot/%s/%s/%s-%s.md" % (area, "/".join(segs), stem, kinds[d]))

    # ---- work items ----
    items = []     # dict: id, title, doc, status_doc, status_wb, blocked, needs
    doc_items = {d: [] for d in range(n)}
    next_id = 1
    skipped = []
    for d in range(n):
        if kinds[d] != "ISSUES":
            continue
        for k in range(rng.randint(3, 14) if rng.random() < 0.8 else rng.randint(1, 2)):
            if rng.random() < 0.004:             # a gap in the sequence
                gap = rng.randint(1, 3)
                skipped.append((next_id, next_id + gap - 1))
                next_id += gap
            i = next_id
            next_id += 1
            st = rng.choices(["validated", "candidate", "blocked", "draft"], [70, 15, 10, 5])[0]
            wb = st
            if st == "candidate" and rng.random() < 0.5:
                wb = "validated"                 # stale in its document
            elif st == "validated" and rng.random() < 0.03:
                wb = "candidate"                 # workboard mismatch
            blocked = []
            if items:
                blocked.append(items[-1]["id"])
                for _ in range(rng.choice([0, 0, 1, 2, 4, 8, 12])):
                    blocked.append(items[rng.randrange(len(items))]["id"])
            title = "%s %s %s" % (rng.choice(TERMS_A), rng.choice(TERMS_B), ["Slice", "Route", "Proof", "Gate"][k % 4])
            if i % 7 == 0:
                title = "%s — %s" % (title, UNI[i % len(UNI)].rstrip("."))
            it = dict(id=i, title=title,
                      doc=d, st=st, wb=wb, blocked=sorted(set(blocked)), needs=[])
            items.append(it)
            doc_items[d].append(it)
    total = len(items)
    # back edges: cycles of ~400 items
    for j in range(400, total, 400):
        items[j - 400]["blocked"].append(items[j - 1]["id"])
    # circular readiness: an item needs its successor first
    for j in range(0, total - 1, 97):
        items[j]["needs"].append(items[j + 1]["id"])
    by_id = {it["id"]: it for it in items}
    # duplicate definitions with another title
    redefine = {}
    for j in range(0, total, 61):
        redefine.setdefault(rng.randrange(n), []).append(items[j])

    # ---- glossary ----
    nterms = max(10, n // 8)
    terms = ["%s %s %d" % (TERMS_A[t % len(TERMS_A)], TERMS_B[(t // len(TERMS_A)) % len(TERMS_B)], t) for t in range(nterms)]

    # ---- write documents ----
    for d in range(n):
        kind = kinds[d]
        name = "CTO Q%06d %s" % (d, kind.title())
        created = "2026-05-%02d" % (1 + d % 28)
        reviewed = "2026-06-%02d" % (1 + d % 9)
        fstatus = "validated"
        if kind == "ISSUES":
            sts = {it["st"] for it in doc_items[d]}
            fstatus = "validated" if sts == {"validated"} else ("draft" if rng.random() < 0.4 else "candidate")
        elif kind in ("BLOCKER", "ATTEMPT"):
            fstatus = "blocked"
        b = ["---", "name: %s" % name, "status: %s" % fstatus, "lifecycle_classification: sot",
             "owner: jp", "created: %s" % created, "last_reviewed: %s" % reviewed,
             "core_promotion_status: not-promoted"]
        if d % 9 == 0:
            b.append("description: %s" % uni(rng).replace(":", " "))
        if d % 5 == 0 and d > 0:
            b.append("source: %s" % paths[rng.randrange(d)])
        b += ["---", "", "# %s" % name, "", DISCLAIMER, "", uni(rng) + " " + words(rng, 12) + ".", ""]

        if kind == "ISSUES":
            for it in doc_items[d]:
                style = (d + it["id"]) % 3
                head = ["## Issue: %s - %s", "### %s - %s", "## %s: %s"][style] % (wid(it["id"]), it["title"])
                b += [head, "", "Type: AFK", ""]
                if rng.random() < 0.97:
                    b += ["Status: %s." % it["st"], ""]
                if it["blocked"]:
                    b += ["Blocked by: " + ", ".join("`%s`" % wid(x) for x in it["blocked"]), ""]
                if it["needs"]:
                    b += ["Needs first: " + ", ".join("`%s`" % wid(x) for x in it["needs"]), ""]
                b += ["%s `%s` %s." % (uni(rng), wid(it["id"]), words(rng, 10)), "", "Acceptance criteria:", ""]
                for a in range(rng.randint(2, 8)):
                    box = "x" if it["st"] == "validated" and rng.random() < 0.9 else " "
                    b.append("- [%s] %s %s" % (box, uni(rng), words(rng, 6)))
                b += ["", "Validator: `python3 tools/validate_cto_child.py`", ""]
                if rng.random() < 0.5:
                    lang = rng.choice(["python", "yaml", "json", "sh"])
                    b += ["```" + lang]
                    for q in range(rng.randint(6, 40)):
                        b.append(code_line(lang, rng, it["id"] + q, paths))
                    b += ["```", ""]
                if it["blocked"] and rng.random() < 0.2:
                    other = by_id[it["blocked"][0]]
                    dated = rng.random() < 0.5
                    b += [("On 2026-05-%02d, " % (1 + d % 28) if dated else "") +
                          "`%s` remains blocked %s." % (wid(other["id"]), uni(rng)), ""]
            # journal validating some items of this document
            vs = [it for it in doc_items[d] if it["wb"] == "validated"]
            if vs:
                b += ["## Validation Journal - 2026-06-%02d" % (1 + d % 9), ""]
                for it in vs[:6]:
                    b.append("- Result: `%s` is validated." % wid(it["id"]))
                b.append("")
            if d % 13 == 0:
                b += ["This sequence is split into %s issues." % ["two", "three", "four", "five", "six"][d % 5], ""]

        elif kind in ("PRD", "GATES"):
            b += ["## Problem", "", uni(rng) + " " + words(rng, 40) + ".", "", "## Scope", ""]
            if d > 0:
                sup = paths[(d * 31 + 7) % n] if d % 17 else paths[(d + 1) % n]   # chains, some 2-cycles
                b += ["Supersedes: `%s`." % sup, ""]
            b += ["| work item | document | status | note |", "| --- | --- | --- | --- |"]
            for q in range(rng.randint(20, 100)):
                if items:
                    it = items[rng.randrange(total)]
                    target = paths[it["doc"]] if rng.random() < 0.93 else paths[it["doc"]].replace(".md", "-OLD.md")
                    b.append("| `%s` | `%s` | %s | %s |" % (wid(it["id"]), target, it["wb"], uni(rng)))
            b += ["", "## Non-Goals", "", "- Do not activate Case as default backend.", "- No Core promotion occurs.",
                  "", "## Acceptance Criteria", ""]
            for a in range(rng.randint(3, 10)):
                b.append("- [x] %s %s" % (uni(rng), words(rng, 7)))
            b += ["", "## Glossary", ""]
            for q in range(rng.randint(1, 4)):
                t = terms[rng.randrange(nterms)] if rng.random() < 0.9 else "Phantom %s Term" % rng.choice(TERMS_A)
                b.append("`CONTEXT.md` defines **%s**." % t)
            b.append("")
            b += ["## Example Configuration", "", "```yaml"]
            for q in range(rng.randint(10, 50)):
                b.append(code_line("yaml", rng, d + q, paths))
            b += ["```", ""]

        elif kind == "EVIDENCE":
            b += ["## Workboard", ""]
            for q in range(rng.randint(3, 20)):
                it = items[rng.randrange(total)] if items else None
                if it:
                    b.append("- %s `%s` — %s" % (uni(rng)[:12], wid(it["id"]), it["title"]))
            b.append("")
            for s in range(rng.randint(4, 14)):
                day = 1 + (s if rng.random() < 0.9 else rng.randint(0, 8)) % 9
                b += ["## Evidence Journal - 2026-06-%02d" % day, ""]
                for q in range(rng.randint(2, 8)):
                    it = items[rng.randrange(total)]
                    b.append("- %s: `%s` is %s." % (uni(rng)[:10], wid(it["id"]), it["wb"]))
                b += ["- %s" % uni(rng), ""]
                if rng.random() < 0.4:
                    b += ["```sh"] + [code_line("sh", rng, s + q, paths) for q in range(rng.randint(5, 30))] + ["```", ""]
            # mentions of ids never defined
            if rng.random() < 0.1:
                b += ["- Follow-up `%s` %s." % (wid(next_id + 500 + d), uni(rng)), ""]

        else:  # BLOCKER / ATTEMPT
            b += ["## Blocker", "", "Status: blocked.", ""]
            for q in range(rng.randint(5, 25)):
                it = items[rng.randrange(total)]
                b.append("- `%s` remains blocked by %s %s." % (wid(it["id"]), uni(rng), words(rng, 5)))
            b.append("")
            for q in range(rng.randint(1, 4)):
                it = items[rng.randrange(total)]
                b.append("- Do not mark `%s` validated." % wid(it["id"]))
            b += ["", "## Dated Attempts", ""]
            for s in range(rng.randint(3, 10)):
                b += ["### Attempt - 2026-06-%02d" % (1 + (9 - s) % 9), "", "- %s %s" % (uni(rng), words(rng, 9)), ""]

        for it in redefine.get(d, []):
            b += ["## %s: %s Revisited %s" % (wid(it["id"]), it["title"], rng.choice(TERMS_B)), "",
                  "Status: %s." % rng.choice(["validated", "candidate"]), "", uni(rng), ""]
        if d % 23 == 0:
            b += ["<!-- sotvet:ignore status -->", "", "%s remains blocked." % wid(1 + d % max(1, total)), ""]
        path = os.path.join(out, paths[d])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(b).rstrip("\n") + "\n")

    # ---- skipped ids declaration (only half of the gaps) ----
    os.makedirs(os.path.join(out, ".sot", "00-INTENT"), exist_ok=True)
    intent = ["---", "name: CTO Workspace Intent", "status: validated", "lifecycle_classification: sot",
              "owner: jp", "created: 2026-05-01", "last_reviewed: 2026-05-02",
              "core_promotion_status: not-promoted", "---", "", "# CTO Workspace Intent", "", DISCLAIMER, ""]
    for a, z in skipped[::2]:
        intent.append("- `%s` to `%s` are skipped on purpose." % (wid(a), wid(z)) if z > a
                      else "- `%s` is reserved." % wid(a))
    with open(os.path.join(out, ".sot", "00-INTENT", "CTO-WORKSPACE-INTENT.md"), "w") as f:
        f.write("\n".join(intent) + "\n")

    # ---- CONTEXT.md ----
    ctx = ["---", "name: cto-context", "status: validated", "owner: jp", "core_promotion_status: not-promoted",
           "---", "", "# CTO Context", "", "## Language", ""]
    for t, term in enumerate(terms):
        if t % 10 == 9:
            continue                       # claimed elsewhere, never defined
        ctx += ["**%s**:" % term, "%s %s." % (UNI[t % len(UNI)], words(rng, 12)), "_Avoid_: %s" % words(rng, 3), ""]
    with open(os.path.join(out, "CONTEXT.md"), "w") as f:
        f.write("\n".join(ctx).rstrip("\n") + "\n")

    # ---- WORKBOARD.yaml ----
    wb = ["# WORKBOARD.yaml — deep work graph shape (生成された)", "items:"]
    for it in items:
        if it["id"] % 50 == 0:
            wb.append("  # %s %s: %s" % (wid(it["id"]), UNI[it["id"] % len(UNI)], "status inferred"))
        title = it["title"]
        if it["id"] % 113 == 0:
            title = title + " (renamed)"      # title mismatch with its heading
        wb += ["  - id: %s" % wid(it["id"]), "    title: \"%s\"" % title.replace('"', "'"),
               "    status: %s" % it["wb"],
               "    blocked_by: [%s]" % ", ".join(wid(x) for x in it["blocked"]),
               "    source: %s" % paths[it["doc"]]]
    with open(os.path.join(out, "WORKBOARD.yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(wb) + "\n")
    print("gen_Q: %d documents, %d work items, %d glossary terms" % (n + 1, total, nterms), file=sys.stderr)


def code_line(lang, rng, k, paths):
    p = paths[k % len(paths)]
    if lang == "python":
        return rng.choice(['    status = "validated"  # CTO-WORK-%05d' % (k + 1),
                           '    check(Path("%s"))' % p,
                           '    assert report["status"] == "pass", "Status: validated."',
                           '    # 證據: CTO-WORK-%05d remains blocked' % (k + 3)])
    if lang == "yaml":
        return rng.choice(["- id: CTO-WORK-%05d" % (k + 2), "  status: validated",
                           "  source: %s" % p, "  blocked_by: [CTO-WORK-%05d]" % (k + 1),
                           "  title: \"证据 %d\"" % k])
    if lang == "json":
        return rng.choice(['  "status": "admitted",', '  "path": "%s",' % p,
                           '  "id": "CTO-WORK-%05d",' % (k + 9)])
    return rng.choice(["$ python3 tools/validate_cto_child.py  # Status: validated.",
                       "$ cat %s" % p, "ok: true  CTO-WORK-%05d remains blocked" % (k + 4),
                       "11 passed in 0.%02ds" % (k % 100),
                       "export CTO_HARNESS_SPARK_BASE_URL=http://10.40.%d.%d:8000/v1" % (k % 250, k % 199)])


if __name__ == "__main__":
    main()
