#!/usr/bin/env python3
"""Markdown tables of localization results, pipelines side by side (BENCHMARKS.md, issue 12).

Usage: table.py RESULTS.json [MORE.json ...]
Each file is one pipeline's evaluate.py output on the same scenes; rows are recomputed from its
per-scene records: the acceptance groups, then every value of every condition. Standard library only.
"""
import json
import sys

from conditions import GROUPS, is_easy_sound
from scoring import report_rows, summarize

# The issue's own "before" table, to check that these scenes are as hard as the hidden ones.
ISSUE_ROWS = [
    ("easy (issue: recall 0.46, within 20° 0.44, median 0.7°)", lambda c, s: True),
    ("easy, anechoic, SNR 20 dB only (issue: recall 0.87)", lambda c, s: c["rt60_s"] == 0 and c["snr_db"] == 20),
    ("easy, RT60 0.6 s only (issue: recall 0.26)", lambda c, s: c["rt60_s"] == 0.6),
    ("easy, click trains only (issue: recall 0.20)", lambda c, s: s["type"] == "click_train"),
]


def number(value, digits=2, suffix=""):
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def cells(row, extra_lines):
    errors = "–" if row["median_error_deg"] is None else f'{row["median_error_deg"]:.1f} / {row["p90_error_deg"]:.0f}'
    line = [number(row["recall"]), number(row["within_20"]), number(row["false_alarms_per_min"], 1), errors]
    onset = None if row["median_onset_error_s"] is None else 1000 * row["median_onset_error_s"]
    end = None if row.get("median_end_error_s") is None else 1000 * row["median_end_error_s"]
    return line + [number(onset, 0), number(end, 0), number(row["duplicates_per_detection"], 2)] if extra_lines else line


def markdown(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(str(c) for c in row) + " |" for row in rows])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    results = []
    for path in sys.argv[1:]:
        with open(path) as file:
            results.append(json.load(file))
    scene_sets = {tuple(sorted(s["scene"] for s in r["scenes"])) for r in results}
    if len(scene_sets) > 1:
        print("warning: the results are not on the same scenes\n", file=sys.stderr)
    labels = [r["label"] for r in results]
    all_rows = [report_rows(r["scenes"]) for r in results]
    first = results[0]
    sounds = sum(len(s["sounds"]) for s in first["scenes"])
    minutes = sum(s["duration_s"] for s in first["scenes"]) / 60
    for name, description, _, _ in GROUPS:
        print(f"- **{name}**: {description}")
    print()
    print(f"{len(first['scenes'])} scenes of split `{first['split']}` (seed {first['seed']}), {sounds} sounds, "
          f"{minutes:.1f} min of audio. Per pipeline: recall, fraction of all sounds within 20°, false alarms "
          "per minute, median and 90th-percentile azimuth error (degrees, of detected sounds); for the groups "
          "also the median |start of the line - start of the sound|, the median end of the line - end of the sound "
          "(ms, signed: positive ends late) and further lines on detected sounds per "
          "detection (neither detections nor false alarms).\n")
    groups, conditions = [], []
    for index, (title, value, row) in enumerate(all_rows[0]):
        line = [value if title == "group" else f"{title}: {value}", row["sounds"]]
        for pipeline_rows in all_rows:
            line += cells(pipeline_rows[index][2], extra_lines=title == "group")
        (groups if title == "group" else conditions).append(line)
    for rows, extra_lines in ((groups, True), (conditions, False)):
        header = ["group" if extra_lines else "condition", "sounds"]
        for label in labels:
            header += [f"{label}: recall", "≤ 20°", "FA/min", "error ° median / p90"] + (["onset ms", "end ms", "extra lines"] if extra_lines else [])
        print(markdown(header, rows), end="\n\n")
    issue = []
    for title, extra in ISSUE_ROWS:
        line = [title]
        for result in results:
            row = summarize(result["scenes"], lambda c: False,
                            lambda c, s, extra=extra: is_easy_sound(c, s) and extra(c, s), scene_level=False)
            line += [row["sounds"], number(row["recall"]), number(row["within_20"]), number(row["median_error_deg"], 1)]
        issue.append(line)
    header = ["subset of the easy group"]
    for label in labels:
        header += [f"{label}: sounds", "recall", "≤ 20°", "median"]
    print(markdown(header, issue), end="\n\n")
    speed = []
    for result, pipeline_rows in zip(results, all_rows):
        by_value = {(t, v): row for t, v, row in pipeline_rows}
        line = [result["label"]]
        for array in ("square4", "circle8"):
            row = by_value.get(("array", array))
            line += [number(row and row["rtf_cpu"], 4), number(row and row["rtf_engine"], 4)]
        speed.append(line)
    print(markdown(["pipeline", "square4: RTF (process CPU)", "RTF (engine wall)", "circle8: RTF (process CPU)",
                    "RTF (engine wall)"], speed))


if __name__ == "__main__":
    main()
