#!/usr/bin/env python3
"""The "hub" shape ("evidence hub", written as shape P) -- a flat archive of routes whose evidence all
points at the same few hot things.

usage: python3 scripts/shapes/hub.py N OUTDIR

About N markdown documents in ONE flat directory (.sot/03-PROTOCOLS), in
routes of five (PRD, ISSUES, EVIDENCE, RECORD or CLOSEOUT, MATRIX), plus
about N/25 JSON admission records (model-provider and target-repository,
the latter with allowed_paths lists of 60-240 entries).

What makes it unlike "many similar small PRDs":
  * hot keys: every EVIDENCE/RECORD/MATRIX document cites runs from a pool
    of only 64 run directories, names provider/model pairs from a pool of
    12, commands from a pool of 8, test-count sequences from a pool of 24.
    Statements disagree across documents on purpose (primary vs fallback
    role of a pair, harness vs target label of a command, approval source
    dates of a proof, approval_granted: false next to a run others say
    passed, identical test counts for different commits). Every
    cross-document rule therefore has groups whose size grows with N.
  * EVIDENCE documents are journals of 12-30 dated sections with run
    directory timestamps, some sections out of order, last_reviewed
    older than the body.
  * sections that name admission records by path and claim a status the
    record contradicts.
  * MATRIX documents with provider/model tables (role column) of 40-120
    rows and long "changed files" lists.
Deterministic: seeded from N.

Measured when it was written (2026-12-01): `check` on this shape was
quadratic in the contradiction check (N=1000: ~47 s of CPU and 3.3 GB
peak RSS), each finding formatting a related place for every sentence it
compared; fixed in e247dc0 (N=10000: 32 s, 489 MB). On a build older
than that, do not run N>=2000 without a memory limit and a timeout.
"""
import json
import os
import random
import sys

DISCLAIMER = "Local planning SOT only. Not a Core Protocol. Not active Core authority."
RUNS_ROOT = "/home/svrnty/.hermes/profiles/cto-planb/harness-runs"

PAIRS = [
    ("openai-codex", "gpt-5.5"), ("qwen-local", "qwen3.6-35b-a3b"),
    ("anthropic", "claude-sonnet-4-6"), ("openai-codex", "gpt-5.4-mini"),
    ("spark-vllm", "qwen3-coder-30b"), ("pi-local", "llama-4-scout"),
    ("openrouter", "deepseek-v3.2"), ("azure-openai", "gpt-5.5"),
    ("qwen-local", "qwen3.6-14b"), ("mistral", "devstral-medium"),
    ("google", "gemini-2.5-pro"), ("spark-vllm", "glm-4.6"),
]
COMMANDS = [
    "python3 -m pytest -q", "python3 tools/validate_cto_child.py",
    "harness/evals/health.sh --json", "npm test -- --runInBand",
    "go test ./...", "python3 -m pytest -q tests/test_strings.py",
    "bash harness/run-all-fake.sh", "python3 harness/validate_case.py --strict",
]
CASES = ["r1-string-slugify", "r1-slugify-punctuation", "r1-src-string-slugify",
         "r2-title-case", "r2-trim-whitespace", "r3-parse-duration",
         "r3-csv-quote", "r4-json-pointer"]
TOPICS = ["Provider Refresh", "Approval Replay", "Sandbox Repeatability",
          "Target Admission", "Model Fallback", "Evidence Freshness",
          "Gate Hardening", "Control Surface", "Remote Sync", "Audit Trail",
          "Case Timeout", "Operator Outcome", "Route Guard", "Copied Repo"]
WORDS = ("harness evidence gate admission provider fallback primary route "
         "sandbox repository approval operator outcome validator freshness "
         "report commit artifact digest replay control stage proof case "
         "lane backend terminal signal blocker fixture").split()


def sha(rng, n=40):
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def run_dir(i):
    day = 1 + (i % 9)
    hh, mm, ss = (i * 7) % 24, (i * 13) % 60, (i * 29) % 60
    return "%s/202606%02dT%02d%02d%02dZ-%s-%d" % (
        RUNS_ROOT, day, hh, mm, ss, CASES[i % len(CASES)], 1800000 + i * 7919)


HOT_RUNS = [run_dir(i) for i in range(64)]
TEST_SEQS = []
_r = random.Random(7)
for i in range(24):
    k = 2 + i % 3
    seq = []
    for j in range(k):
        p = _r.randint(3, 140)
        s = _r.choice([0, 0, 1, 4])
        seq.append("%d passed" % p + (", %d skipped" % s if s else ""))
    TEST_SEQS.append(seq)


def sentence(rng, n=14):
    w = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(w).capitalize() + "."


def fm(name, status, created, reviewed, extra=None):
    lines = ["---", "name: " + name, "status: " + status,
             "lifecycle_classification: sot", "owner: jp",
             "created: " + created, "last_reviewed: " + reviewed,
             "core_promotion_status: not-promoted"]
    if extra:
        lines += extra
    lines.append("---")
    return "\n".join(lines)


def date(d):
    # d: day offset from 2026-05-01
    m, dd = (5, d + 1) if d < 31 else (6, d - 30)
    return "2026-%02d-%02d" % (m, min(dd, 28 if m == 6 else dd))


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    rng = random.Random(1000003 * n + 17)
    proto = os.path.join(out, ".sot", "03-PROTOCOLS")
    os.makedirs(proto, exist_ok=True)
    os.makedirs(os.path.join(out, ".sot", "00-INTENT"), exist_ok=True)

    nroutes = max(1, n // 5)
    work = []          # (id, title, status, blocked_by, source)
    wid = 0
    records = []       # (relpath, kind, status)

    # --- JSON admission records: ~N/25 ---
    nrec = max(2, n // 25)
    for r in range(nrec):
        if r % 2 == 0:
            prov, model = PAIRS[r % len(PAIRS)]
            status = "admitted" if rng.random() < 0.7 else "not_admitted"
            fname = "CTO-CASE-MODEL-PROVIDER-ADMISSION.%s-%s-r%05d.json" % (prov, model, r)
            obj = {
                "admission_timestamp": "2026-05-%02dT%02d:00:00-04:00" % (1 + r % 28, r % 24),
                "allowed_network_class": "%s-hosted-model-plus-local-vllm-fallback" % prov,
                "approval_source": "JP chat approval on 2026-05-%02d" % (1 + r % 28),
                "credential_source_class": "hermes-%s-oauth-and-local-vllm-config" % prov,
                "model": model, "provider": prov,
                "review_trigger": "Before credential source changes, before default/fallback model changes, or before promotion beyond copied artificial fixture (record %d)." % r,
                "status": status,
            }
            kind = "model"
        else:
            status = "admitted" if rng.random() < 0.6 else "not_admitted"
            fname = "CTO-CASE-STAGE5-TARGET-REPOSITORY-ADMISSION-R%05d.json" % r
            npaths = rng.randint(60, 240)
            allowed = []
            for p in range(npaths):
                depth = 1 + p % 4
                segs = ["src", "pkg%02d" % (p % 17), "mod%03d" % (p % 131)][:depth - 1] + ["leaf%04d" % p]
                allowed.append("/".join(segs) + (".py" if p % 3 == 0 else "/"))
            if rng.random() < 0.25:
                allowed.append("vendor/lib%d/" % r)          # overlaps forbidden vendor/
            if rng.random() < 0.2:
                allowed.append(allowed[0])                   # duplicate entry
            obj = {
                "admission_status": status,
                "allowed_paths": allowed,
                "approval_source": "JP chat approval on 2026-06-%02d" % (1 + r % 9),
                "approval_timestamp": "2026-06-%02d" % (1 + r % 9),
                "forbidden_actions": ["push", "merge", "deploy", "close", "pr_open",
                                      "issue_close", "public_publication", "credential_change",
                                      "vendor_source_mutation", "cortex_core_mutation"][: 10 if r % 7 else 8],
                "forbidden_paths": [".env", ".env.*", "secrets/", "credentials/", "deploy/",
                                    "infra/", ".github/workflows/", "package-lock.json",
                                    "pnpm-lock.yaml", "yarn.lock", "node_modules/", "vendor/", ".git/"],
                "noncritical_rationale": "Dedicated owned sandbox repo %d, not production, no customer data, no secrets, no deploy path." % r,
                "operator_outcome_required": True,
                "ownership_evidence": "JP chat approval on 2026-06-%02d to create dedicated target sandbox %d." % (1 + r % 9, r),
                "repository_owner": "jp",
                "review_trigger": "before Stage 5 execution against any different repository, before allowed path change",
                "risk_classification": "low_risk_noncritical" if r % 11 else "medium_risk",
                "target_repository_path": "/home/svrnty/workspaces/cortex-os/cto-target-sandbox-%05d" % r,
            }
            kind = "target"
        with open(os.path.join(proto, fname), "w") as f:
            json.dump(obj, f, indent=2, sort_keys=True)
            f.write("\n")
        records.append((".sot/03-PROTOCOLS/" + fname, kind, status))

    docs_written = 0
    for r in range(nroutes):
        topic = TOPICS[r % len(TOPICS)]
        stem = "CTO-HUB-R%05d-%s" % (r, topic.upper().replace(" ", "-"))
        title = "CTO Hub R%05d %s" % (r, topic)
        cday = r % 30
        created = date(cday)
        reviewed = date(cday + 1)
        rel = lambda kind: ".sot/03-PROTOCOLS/%s-%s.md" % (stem, kind)
        # work items of this route
        nitems = 2 + r % 3
        items = []
        for k in range(nitems):
            wid += 1
            wst = "validated" if rng.random() < 0.8 else rng.choice(["candidate", "blocked"])
            bb = ["CTO-WORK-%05d" % (wid - 1)] if wid > 1 and k > 0 else []
            items.append(("CTO-WORK-%05d" % wid, "%s Slice %d" % (topic, k + 1), wst, bb))
            work.append((items[-1][0], items[-1][1], wst, bb, rel("ISSUES")))
        pair = PAIRS[r % len(PAIRS)]
        pair2 = PAIRS[(r * 5 + 3) % len(PAIRS)]
        runs = rng.sample(HOT_RUNS, 6)
        cmd = COMMANDS[r % len(COMMANDS)]
        rec = records[r % len(records)]

        # ---------- PRD ----------
        b = [fm(title + " PRD", "validated", created, reviewed), "", "# %s PRD" % title, "", DISCLAIMER, "",
             "## Problem", "", sentence(rng, 30), sentence(rng, 22), "",
             "## Scope", ""]
        b.append("- Use `%s` / `%s` as the primary path." % pair)
        b.append("- Keep `%s` / `%s` as the fallback path." % pair2)
        b.append("- Record the Harness command `%s`." % cmd)
        b.append("- Cite the admission record `%s`." % rec[0])
        for it in items:
            b.append("- Define `%s` (%s)." % (it[0], it[1]))
        b += ["", "## Required Phrases", ""]
        for it in items:
            b.append("- %s" % it[0])
        b += ["- Runtime default activation remains false.", "- No Core promotion occurs.", ""]
        b += ["## Acceptance Criteria", ""] + ["- [x] " + sentence(rng, 8) for _ in range(4)]
        b += ["",
              "## Non-goals", "", "- Do not activate Case as default backend.",
              "- Do not push, merge, deploy, close, PR open, issue close, or publish.", ""]
        docs_written += write(out, rel("PRD"), b)

        # ---------- ISSUES ----------
        b = [fm(title + " Issues", "draft" if r % 4 == 0 else "validated", created, reviewed), "",
             "# %s Issues" % title, "", DISCLAIMER, "",
             "This is intentionally %s slices." % ["two", "three", "four", "five"][(r + 1) % 4], ""]
        for it in items:
            style = r % 3
            if style == 0:
                b.append("## Issue: %s - %s" % (it[0], it[1]))
            elif style == 1:
                b.append("### %s - %s" % (it[0], it[1]))
            else:
                b.append("## %s: %s" % (it[0], it[1]))
            b += ["", "Type: AFK", "", "Status: %s." % it[2], ""]
            if it[3]:
                b.append("Blocked by: %s" % ", ".join("`%s`" % x for x in it[3]))
                b.append("")
            if it[2] == "validated" and rng.random() < 0.3:
                b += ["Blocked by:", "", "- Missing admitted `%s` / `%s` credentials." % pair2, ""]
            b += ["Acceptance criteria:", ""]
            for a in range(rng.randint(3, 9)):
                box = "x" if (it[2] == "validated" and rng.random() < 0.85) else " "
                b.append("- [%s] %s" % (box, sentence(rng, 9)))
            b += ["", "Validator: `python3 tools/validate_cto_child.py`", ""]
            if rng.random() < 0.3:
                prev = "CTO-WORK-%05d" % max(1, int(it[0][-5:]) - 7)
                b += ["- `%s` remains blocked until this route lands." % prev, ""]
        docs_written += write(out, rel("ISSUES"), b)

        # ---------- EVIDENCE (journal) ----------
        b = [fm(title + " Evidence", "validated", created, date(cday)), "",
             "# %s Evidence" % title, "", DISCLAIMER, "", "## Workboard", ""]
        for it in items:
            b.append("- `%s`" % it[0])
        b += ["", "## Result", "", "- status: validated",
              "- approval_source: JP chat %s on 2026-06-%02d to execute %s" % (
                  rng.choice(["approval", "instruction"]), 1 + rng.randint(0, 8), topic.lower()),
              "- This closeout does not authorize another Case run.", ""]
        nsec = rng.randint(12, 30)
        for s in range(nsec):
            day = 1 + (s * 9 // nsec) if rng.random() < 0.85 else 1 + rng.randint(0, 8)
            rr = rng.choice(HOT_RUNS)
            b += ["## %s Evidence - 2026-06-%02d" % (rng.choice(["Runtime", "Replay", "Gate", "Provider", "Sandbox", "Route", "Approval", "Refresh"]), day), "",
                  "- Harness report: `%s/report.json`" % rr,
                  "- Stage 5 proof: `%s/stage5-owned-repo-proof.json`" % rr,
                  "- report status: %s" % rng.choice(["pass", "pass", "pass", "fail"]),
                  "- backend: case",
                  "- backend exit code: %d" % rng.choice([0, 0, 0, 1]),
                  "- case_process_started: true",
                  "- approval_source: JP chat %s on 2026-06-%02d" % (
                      rng.choice(["approval", "instruction"]), 1 + rng.randint(0, 8)),
                  "- target commit: `%s`" % sha(rng),
                  "- changed files: " + ", ".join("`src/mod%03d/f%02d.py`" % (rng.randint(0, 130), j)
                                                 for j in range(rng.randint(2, 25))),
                  "- %s: `%s`" % (rng.choice(["Harness command", "target validation command",
                                              "Tests command", "Harness self-test command"]),
                                  rng.choice(COMMANDS)),
                  "- `%s` / `%s` is the %s path for this run." % (
                      rng.choice(PAIRS) + (rng.choice(["primary", "fallback", "default", "backup"]),)),
                  ""]
        # one validation section: test counts copied from a small pool
        seq = TEST_SEQS[(r * 7) % len(TEST_SEQS)]
        b += ["## Validation Evidence", "", "- Hermes commit: `%s %s`" % (sha(rng, 7), sentence(rng, 4)[:-1])]
        for j, t in enumerate(seq):
            b.append("- Step %d result: `%s`" % (j + 1, t))
        b.append("")
        if rng.random() < 0.9:
            b += ["## Guard", "", "Runtime default activation remains false.", "", "No Core promotion occurs.", ""]
        # record-contradiction sections naming records by path
        for q in range(3):
            rp, kind, st = records[(r * 3 + q) % len(records)]
            claim = "not_admitted" if st == "admitted" else "admitted"
            if rng.random() < 0.5:
                claim = st
            b += ["### Admission Check %d" % (q + 1), "",
                  "- Record: `%s`" % rp,
                  "- Admission status: `%s`" % claim, ""]
        docs_written += write(out, rel("EVIDENCE"), b)

        # ---------- RECORD or CLOSEOUT ----------
        if r % 2 == 0:
            b = [fm(title + " Request Record", "validated", created, reviewed), "",
                 "# %s Request Record" % title, "", DISCLAIMER, "",
                 "Status: not admitted for execution.", "",
                 "## Request", "",
                 "- approval_granted: false",
                 "- approval status: pending",
                 "- Harness report: `%s/report.json`" % runs[0],
                 "- Evidence run: `%s/report.json`" % runs[1],
                 "- python3 tools/validate_cto_child.py: required",
                 "", "## Roles", "",
                 "| provider | model | role |", "| --- | --- | --- |"]
            for q in range(rng.randint(5, 20)):
                p = rng.choice(PAIRS)
                b.append("| `%s` | `%s` | %s |" % (p[0], p[1], rng.choice(["primary", "fallback"])))
            b.append("")
            docs_written += write(out, rel("RECORD"), b)
        else:
            b = [fm(title + " Closeout", "validated", created, reviewed), "",
                 "# %s Closeout" % title, "", DISCLAIMER, "", "## Workboard", "",
                 "- `%s`" % items[-1][0], "", "## Closed", ""]
            for rr in runs:
                b.append("- Harness report: `%s/report.json`" % rr)
                b.append("- report status: pass")
            b += ["- target result: `%s`" % ", ".join(TEST_SEQS[r % 24]),
                  "- This record is not execution evidence.", ""]
            docs_written += write(out, rel("CLOSEOUT"), b)

        # ---------- MATRIX ----------
        b = [fm(title + " Matrix", "validated", created, reviewed), "",
             "# %s Matrix" % title, "", DISCLAIMER, "",
             "## Provider Matrix", "",
             "| provider | model | role | run | command | result |",
             "| --- | --- | --- | --- | --- | --- |"]
        for q in range(rng.randint(40, 120)):
            p = rng.choice(PAIRS)
            b.append("| `%s` | `%s` | %s | `%s/report.json` | `%s` | %s |" % (
                p[0], p[1], rng.choice(["primary", "fallback", "secondary", "default"]),
                rng.choice(HOT_RUNS), rng.choice(COMMANDS), rng.choice(TEST_SEQS)[0]))
        b += ["", "## Cross References", ""]
        for q in range(rng.randint(10, 40)):
            other = rng.randrange(nroutes)
            k = rng.choice(["PRD", "ISSUES", "EVIDENCE", "MATRIX", "AUDIT"])  # AUDIT never exists
            b.append("- See `.sot/03-PROTOCOLS/CTO-HUB-R%05d-%s-%s.md`." % (
                other, TOPICS[other % len(TOPICS)].upper().replace(" ", "-"), k))
        b.append("")
        docs_written += write(out, rel("MATRIX"), b)

    # ---------- intent, CONTEXT, workboard ----------
    write(out, ".sot/00-INTENT/CTO-WORKSPACE-INTENT.md",
          [fm("CTO Workspace Intent", "validated", "2026-05-01", "2026-05-02"), "",
           "# CTO Workspace Intent", "", DISCLAIMER, "",
           "Evidence hub workspace with %d routes." % nroutes, ""])
    write(out, "CONTEXT.md",
          ["---", "name: cto-context", "status: validated", "owner: jp",
           "core_promotion_status: not-promoted", "---", "", "# CTO Context", "", "## Language", "",
           "**Harness Evidence Interface**:", "The run directory contract.", "",
           "**Core Route Admission Guard**:", "A child-local fail-closed guard.", ""])
    wb = ["# WORKBOARD.yaml - generated evidence-hub shape", "items:"]
    for (i, t, s, bb, src) in work:
        wb += ["  - id: %s" % i, "    title: %s" % t, "    status: %s" % s,
               "    blocked_by: [%s]" % ", ".join(bb), "    source: %s" % src]
    with open(os.path.join(out, "WORKBOARD.yaml"), "w") as f:
        f.write("\n".join(wb) + "\n")
    print("gen_P: %d documents, %d records, %d work items" % (docs_written + 1, len(records), len(work)),
          file=sys.stderr)


def write(out, rel, lines):
    with open(os.path.join(out, rel), "w", encoding="utf-8") as f:
        f.write("\n".join(lines).rstrip("\n") + "\n")
    return 1


if __name__ == "__main__":
    main()
