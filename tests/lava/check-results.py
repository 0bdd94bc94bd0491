#!/usr/bin/env python3
"""Checks the results of make check-lava's job, as LAVA's REST API gives
them (/api/v0.2/jobs/ID/tests/, whose "suite" is the id of a suite of
/api/v0.2/jobs/ID/suites/): the test definition's cases pass, the
measurements are there with their units, and LAVA's own suite passed."""
import json
import sys


def main():
    path, suites_path, marker = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(path) as f:
        data = json.load(f)
    with open(suites_path) as f:
        suites = json.load(f)
    names = {}
    for s in suites["results"] if isinstance(suites, dict) else suites:
        names[s["id"]] = s["name"]
    rows = data["results"] if isinstance(data, dict) else data
    bad = []
    got = {}
    for r in rows:
        suite = names.get(r.get("suite"), str(r.get("suite", "")))
        print("  %s/%s: %s %s %s" % (suite, r["name"], r["result"],
                                     r.get("measurement") or "", r.get("unit") or ""))
        if suite.endswith("bootab-cmdline"):
            got[r["name"]] = r
    want = {"cmdline-marker": None, "uptime": "s", "cmdline-words": "words"}
    for name, unit in want.items():
        r = got.get(name)
        if r is None:
            bad.append("no test case %s" % name)
            continue
        if r["result"] != "pass":
            bad.append("%s: %s" % (name, r["result"]))
        if unit is not None:
            m = r.get("measurement")
            if m is None or float(m) <= 0:
                bad.append("%s: no measurement (%r)" % (name, m))
            if r.get("unit") != unit:
                bad.append("%s: unit %r, not %r" % (name, r.get("unit"), unit))
    words = got.get("cmdline-words", {}).get("measurement")
    if words is not None and float(words) < 3:
        bad.append("cmdline-words: %s, the cmdline has at least console, the marker and iommu=pt" % words)
    lava = [r for r in rows if names.get(r.get("suite")) == "lava" and r["name"] == "job"]
    if not lava or lava[0]["result"] != "pass":
        bad.append("LAVA's lava/job case: %s" % (lava[0]["result"] if lava else "missing"))
    for b in bad:
        print("check-lava: %s (marker %s)" % (b, marker), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
