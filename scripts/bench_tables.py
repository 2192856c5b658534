#!/usr/bin/env python3
"""Turn `isochron-bench all --json` output (JSON lines) into the Markdown tables of BENCHMARKS.md.

Usage: scripts/bench_tables.py RESULTS.jsonl
"""
import json
import sys
from collections import defaultdict

SCHEDULERS = ["fifo", "fifo-slice", "rtc", "df"]


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def rate(value):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def mini_benchmarks(results):
    by = defaultdict(dict)
    for r in results:
        if r["benchmark"] in ("passchain", "statfilter", "silencefilter", "passchain-samples",
                              "statfilter-samples", "silencefilter-samples"):
            by[r["benchmark"]][r["scheduler"]] = r["samples_per_s"]
    rows = []
    for name in ("passchain", "statfilter", "silencefilter", "passchain-samples", "statfilter-samples",
                 "silencefilter-samples"):
        if name in by:
            rows.append([name] + [rate(by[name].get(s, 0)) for s in SCHEDULERS])
    return table(["benchmark (samples/s)"] + SCHEDULERS, rows)


def engine_bench(results):
    rows = [[r["scheduler"], f"{r['ns_per_hop']:.1f}", f"{r['progress_share']:.1%}"]
            for r in results if r["benchmark"] == "enginebench"]
    return table(["scheduler", "ns per hop", "share of progress markers"], rows)


def ceiling(results):
    loop = [r["samples_per_s"] for r in results if r["benchmark"] == "statfilter-loop"]
    df = [r["samples_per_s"] for r in results if r["benchmark"] == "statfilter" and r["scheduler"] == "df"]
    if not loop or not df:
        return ""
    return table(["statfilter-loop (hand-written)", "statfilter under df", "ratio"],
                 [[rate(loop[0]), rate(df[0]), f"{loop[0] / df[0]:.2f}x"]])


def memory(results):
    by = defaultdict(dict)
    for r in results:
        if r["benchmark"] == "memory":
            by[r["batch_kb"]][r["strategy"]] = r["samples_per_s"]
    rows = [[kb, rate(s.get("copy-always", 0)), rate(s.get("refcount-lazy", 0)),
             f"{s.get('refcount-lazy', 0) / max(s.get('copy-always', 1), 1):.1f}x"] for kb, s in sorted(by.items())]
    return table(["batch per channel (KB)", "copy-always (samples/s)", "RefCount-Lazy (samples/s)", "lazy / copy"], rows)


def overload(results):
    rows = []
    for r in results:
        if r["benchmark"] == "overload":
            rows.append([r["scheduler"], "on (burst %d)" % r["burst"] if r["rate_control"] else "off",
                         f"{r['offered_load']:g}", rate(r["offered_samples_per_s"]), rate(r["samples_per_s"]),
                         f"{r['peak_live_mb']:.2f}"])
    return table(["scheduler", "rate control", "offered load (x capacity)", "offered (samples/s)",
                  "sustained (samples/s)", "peak pool memory (MB)"], rows)


def main():
    results = load(sys.argv[1])
    for title, body in (("Mini-benchmarks", mini_benchmarks(results)), ("EngineBench", engine_bench(results)),
                        ("STATFILTER vs the hand-written loop", ceiling(results)), ("Memory managers", memory(results)),
                        ("Overload", overload(results))):
        print(f"### {title}\n\n{body}\n")


if __name__ == "__main__":
    main()
