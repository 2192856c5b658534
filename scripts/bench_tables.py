#!/usr/bin/env python3
"""Turn `isochron-bench all --json` output (JSON lines) into the Markdown tables of BENCHMARKS.md.

Usage: scripts/bench_tables.py RESULTS.jsonl
Tables for benchmarks absent from RESULTS.jsonl are left out.
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


def pivot(results, benchmark, row_key, column_key, value, fmt, where=lambda r: True, series=None):
    """A table of `value` with one row per `row_key` and one column per `column_key` (first-seen order)."""
    rows, columns, cells = [], [], {}
    for r in results:
        if r["benchmark"] != benchmark or r.get("series") != series or not where(r):
            continue
        if r[row_key] not in rows:
            rows.append(r[row_key])
        if r[column_key] not in columns:
            columns.append(r[column_key])
        cells[(r[row_key], r[column_key])] = r[value]
    if not rows:
        return ""
    body = [[f"{k:g}" if isinstance(k, float) else k] + [fmt(cells[(k, c)]) if (k, c) in cells else "" for c in columns]
            for k in rows]
    return table([row_key] + [str(c) for c in columns], body)


def ms(v):
    return f"{v:.3g}"


def aurora(results):
    """The aurora-* and telemetry-overhead tables of BENCHMARKS.md."""
    pct = lambda v: f"{v:.1f}%"
    qos = lambda v: f"{v:.3f}"
    sections = [
        ("aurora-superbox: average latency (ms)", pivot(results, "aurora-superbox", "capacity", "scheduler", "avg_latency_ms", ms)),
        ("aurora-superbox: overhead (% of engine CPU)", pivot(results, "aurora-superbox", "capacity", "scheduler", "overhead_pct", pct)),
        ("aurora-superbox: engine cost with boxes that do no work (ns per input item)",
         pivot(results, "aurora-superbox", "series", "scheduler", "ns_per_input_item", lambda v: f"{v:.0f}", series="engine-cost")),
        ("aurora-traversal: average latency (ms)", pivot(results, "aurora-traversal", "cost_us", "scheduler", "avg_latency_ms", ms)),
        ("aurora-memory: mean queued items", pivot(results, "aurora-memory", "capacity", "scheduler", "mean_queued_items", lambda v: f"{v:.0f}")),
        ("aurora-memory: average latency (ms)", pivot(results, "aurora-memory", "capacity", "scheduler", "avg_latency_ms", ms)),
        ("aurora-trains: latency beyond processing (ms)", pivot(results, "aurora-trains", "train_fraction", "burst", "latency_overhead_ms", ms)),
        ("aurora-trains: decisions per input item", pivot(results, "aurora-trains", "train_fraction", "burst", "decisions_per_item", lambda v: f"{v:.2f}")),
        ("aurora-qos, even arrivals: average QoS", pivot(results, "aurora-qos", "capacity", "scheduler", "avg_qos", qos, lambda r: r["arrivals"] == "even")),
        ("aurora-qos, bursty arrivals: average QoS", pivot(results, "aurora-qos", "capacity", "scheduler", "avg_qos", qos, lambda r: r["arrivals"] == "bursty")),
        ("aurora-qos, bursty arrivals: QoS of the tight applications", pivot(results, "aurora-qos", "capacity", "scheduler", "avg_qos_tight", qos, lambda r: r["arrivals"] == "bursty")),
        ("aurora-bucketing: average QoS", pivot(results, "aurora-bucketing", "partitions", "scheduler", "avg_qos", qos)),
        ("aurora-bucketing: overhead (% of engine CPU)", pivot(results, "aurora-bucketing", "partitions", "scheduler", "overhead_pct", pct)),
        ("telemetry-overhead: throughput lost with telemetry on", pivot(results, "telemetry-overhead", "graph", "telemetry_hz", "overhead_pct", pct)),
    ]
    return [(title, body) for title, body in sections if body]


def main():
    results = load(sys.argv[1])
    for title, body in [("Mini-benchmarks", mini_benchmarks(results)), ("EngineBench", engine_bench(results)),
                        ("STATFILTER vs the hand-written loop", ceiling(results)), ("Memory managers", memory(results)),
                        ("Overload", overload(results))] + aurora(results):
        if body.count("\n") > 1:
            print(f"### {title}\n\n{body}\n")


if __name__ == "__main__":
    main()
