#!/usr/bin/env python3
"""Checks the campaign make check-lava runs through LAVA (tests/lava/
campaign.ini): three boots (standing, pti, standing2), each one LAVA job
of its own, each verified, pti=on on the pti boot's command line only and
proven, the syscall row's reps recorded, and the report written."""
import json
import os
import sys


def main():
    d = sys.argv[1]
    bad = []
    with open(os.path.join(d, "journal")) as f:
        journal = f.read().split("\n")
    jobs = [l.split()[-1] for l in journal if " started lava-job:" in l]
    if len(jobs) != 3 or len(set(jobs)) != 3:
        bad.append("journal: %d started lava-job lines (%s), not 3 distinct" % (len(jobs), jobs))
    if "finished" not in journal:
        bad.append("journal: not finished")
    with open(os.path.join(d, "report.json")) as f:
        report = json.load(f)
    sides = [(s["label"], s["mode"]) for s in report["sides"]]
    if sides != [("standing", "standing"), ("pti", "pti"), ("standing2", "standing")]:
        bad.append("report.json sides: %s" % sides)
    for label, mode in sides:
        with open(os.path.join(d, label, "meta.json")) as f:
            meta = json.load(f)
        words = meta["cmdline"].split()
        if not meta.get("verify", "").startswith("ok"):
            bad.append("%s: verify %r" % (label, meta.get("verify")))
        if ("pti=on" in words) != (mode == "pti"):
            bad.append("%s: cmdline %r" % (label, meta["cmdline"]))
        if mode == "pti" and meta.get("proof", {}).get("level") != "proven":
            bad.append("%s: proof %r" % (label, meta.get("proof")))
        rows = {r["name"]: r for r in meta["rows"]}
        row = rows.get("syscalls", {})
        reps = row.get("reps", [])
        if len(reps) != 2 or any(r.get("rc") != 0 for r in reps) or not row.get("metrics"):
            bad.append("%s: syscalls reps %r, metrics %r" % (label, reps, row.get("metrics")))
        print("  %s (mode %s): verify %s, cmdline %s, syscalls %s" % (
            label, mode, meta.get("verify"), meta["cmdline"], json.dumps(row.get("metrics"))[:200]))
    if not os.path.exists(os.path.join(d, "report.txt")):
        bad.append("no report.txt")
    for b in bad:
        print("check-lava: campaign: %s" % b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
