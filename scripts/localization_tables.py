#!/usr/bin/env python3
"""Turn the capture and localization benchmarks' JSON lines (isochron-bench detectaudio,
localize-realtime, localize-accuracy with --json) into the tables of BENCHMARKS.md's
"Capture and localization" section.

Usage: scripts/localization_tables.py RESULTS.jsonl
"""
import sys
from collections import defaultdict

from bench_tables import load, rate, table

SCHEDULERS = ["fifo", "fifo-slice", "rtc", "df"]
STAGES = ["detect", "detect+sync", "detect+sync+srp"]


def detectaudio(results):
    by = defaultdict(dict)
    for r in results:
        if r["benchmark"] == "detectaudio":
            by[(r["channels"], r["stage"])][r["scheduler"]] = r["samples_per_s"]
    rows = []
    for channels in (4, 8):
        for stage in STAGES:
            cells = by.get((channels, stage))
            if cells:
                rows.append([f"{channels} ch, {stage}"] + [rate(cells[s]) if s in cells else "" for s in SCHEDULERS])
    return table(["DETECTAUDIO (samples/s, all channels)"] + SCHEDULERS, rows)


def realtime(results):
    rows = []
    for r in results:
        if r["benchmark"] == "localize-realtime":
            rows.append([f'{r["channels"]} x {r["rate_hz"] // 1000} kHz, {r["scheduler"]}', f'{r["seconds"]:.0f} s',
                         f'{100 * r["engine_cpu_share"]:.1f} %', f'{100 * r["process_cpu_share"]:.1f} %', r["bearings"],
                         f'{r["latency_p50_ms"]:.2f} / {r["latency_p95_ms"]:.2f} / {r["latency_max_ms"]:.2f}',
                         r["warnings"]])
    return table(["run", "length", "engine thread CPU", "process CPU", "bearings", "latency ms p50 / p95 / max",
                  "warnings"], rows)


def accuracy(results):
    rows = []
    for r in results:
        if r["benchmark"] == "localize-accuracy":
            found = f'{r["detected"]} / {r["sources"]}'
            errors = f'{r["median_error_deg"]:.1f} / {r["p90_error_deg"]:.1f}' if r["detected"] else "-"
            # Rows from before the frame-wise pipeline carry no "pipeline": they are DETECTAUDIO's.
            pipeline = r.get("pipeline", "detectaudio")
            if "q" in r:
                pipeline += f' (q = {r["q"]:g})'
            rows.append([r["condition"], f'{r["snr_db"]:g}', pipeline, found, r["false_alarms"], errors])
    return table(["condition", "SNR dB", "pipeline", "detected", "false alarms", "azimuth error deg, median / p90"], rows)


def main():
    results = load(sys.argv[1])
    print(detectaudio(results), end="\n\n")
    print(realtime(results), end="\n\n")
    print(accuracy(results))


if __name__ == "__main__":
    main()
