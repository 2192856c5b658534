#!/usr/bin/env python3
"""Run a localizer on every evaluation scene, exactly as a user would, and score it (issue 12, point 7).

Usage:
  evaluate.py --scenes DIR --graph samples/localize-file.isograph.json \\
              [--runner build/release/bin/isochron-run] [--jobs 1] [--quick] [--out results.json]
  evaluate.py --scenes DIR --runner "PYTHON scripts/localization_eval/reference.py --method music" --out ref.json

The runner is called per scene as `RUNNER [GRAPH] --set source.path=audio.wav --set array.geometry=
geometry.json --set events.path=events.jsonl --report report.json` with the graph's own defaults, and its
wall and CPU time are measured (real-time factor = processing time / audio duration; the engine's own
wall time comes from --report). Standard library only. Holdout scenes are scored only with --final.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from scoring import EventFileError, read_events, report_rows, score_scene

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def run_localizer(scene_dir, name, command, work_dir):
    """Runs the localizer on one scene into work_dir/<name>.events.jsonl (and .report.json); the process's
    wall and CPU time in seconds, or an error text."""
    events_path = os.path.join(work_dir, f"{name}.events.jsonl")
    report_path = os.path.join(work_dir, f"{name}.report.json")
    for stale in (events_path, report_path):
        if os.path.exists(stale):
            os.remove(stale)
    full = command + ["--set", f"source.path={os.path.abspath(os.path.join(scene_dir, 'audio.wav'))}",
                      "--set", f"array.geometry={os.path.abspath(os.path.join(scene_dir, 'geometry.json'))}",
                      "--set", f"events.path={events_path}", "--report", report_path, "--quiet"]
    log_path = os.path.join(work_dir, f"{name}.log")
    with open(log_path, "w+") as log:
        started = time.monotonic()
        process = subprocess.Popen(full, stdout=log, stderr=subprocess.STDOUT)
        # wait4 gives this child's own CPU time (user + system), not that of the other jobs.
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.monotonic() - started
        log.seek(0)
        output = log.read().strip()
    os.remove(log_path)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        return None, f"{name}: runner exited with {code}: {output[-2000:]}"
    if not os.path.exists(events_path):
        return None, f"{name}: the runner wrote no {events_path} (does the graph have an 'events' node?)"
    return {"wall_s": round(wall, 4), "cpu_s": round(usage.ru_utime + usage.ru_stime, 4)}, None


def score_scene_files(scene_dir, name, events_dir, times):
    """The scored record of one scene from events_dir/<name>.events.jsonl and, if there, its .report.json
    (`wall_s`: the engine's wall time; `cpu_s`: CPU time of a localizer that ran many scenes in one process)."""
    with open(os.path.join(scene_dir, "truth.json")) as file:
        truth = json.load(file)
    events_path = os.path.join(events_dir, f"{name}.events.jsonl")
    if not os.path.exists(events_path):
        return None, f"{name}: no {events_path}"
    try:
        lines = read_events(events_path)
    except EventFileError as error:
        return None, str(error)
    report = {}
    report_path = os.path.join(events_dir, f"{name}.report.json")
    if os.path.exists(report_path):
        with open(report_path) as file:
            report = json.load(file)
    record = {"scene": name, "conditions": truth["conditions"], "duration_s": truth["duration_s"],
              "wall_s": times.get("wall_s"), "cpu_s": times.get("cpu_s", report.get("cpu_s")),
              "engine_wall_s": report.get("wall_s"), "lines": len(lines), **score_scene(truth, lines)}
    return record, None


def evaluate_scene(scene_dir, name, command, work_dir, keep_events):
    """Run (unless command is None: the events are already in work_dir) and score one scene."""
    times = {}
    if command is not None:
        times, error = run_localizer(scene_dir, name, command, work_dir)
        if error:
            return None, error
    record, error = score_scene_files(scene_dir, name, work_dir, times)
    if command is not None and not keep_events:
        for suffix in (".events.jsonl", ".report.json"):
            path = os.path.join(work_dir, name + suffix)
            if os.path.exists(path):
                os.remove(path)
    return record, error


def git_commit():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine():
    model = platform.processor()
    try:
        with open("/proc/cpuinfo") as file:
            model = next(line.split(":", 1)[1].strip() for line in file if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", required=True, help="a folder generate.py wrote (with manifest.json)")
    parser.add_argument("--graph", help="graph file for isochron-run (omit for a runner that takes none)")
    parser.add_argument("--runner", default=os.path.join(ROOT, "build", "release", "bin", "isochron-run"),
                        help="command (split like a shell would) that runs the localizer")
    parser.add_argument("--label", help="name of the pipeline in the tables (default: graph or runner)")
    parser.add_argument("--jobs", type=int, default=1, help="scenes run at once (the machine has 2 cores)")
    parser.add_argument("--quick", action="store_true", help="only the split's quick subset (first 40 scenes)")
    parser.add_argument("--limit", type=int, help="only the first N scenes")
    parser.add_argument("--final", action="store_true", help="required to score holdout scenes (never tune on them)")
    parser.add_argument("--keep-events", help="keep every scene's output lines in this folder")
    parser.add_argument("--events-from", help="score the <scene>.events.jsonl files of this folder (from "
                        "--keep-events or reference.py --batch) instead of running anything")
    parser.add_argument("--out", default="results.json")
    args = parser.parse_args()

    with open(os.path.join(args.scenes, "manifest.json")) as file:
        manifest = json.load(file)
    if manifest["split"] == "holdout" and not args.final:
        sys.exit("evaluate.py: these are holdout scenes: score them only for the record, with --final, "
                 "and never tune on the result")
    entries = manifest["scenes"]
    if args.quick:
        entries = [e for e in entries if e["quick"]]
    if args.limit:
        entries = entries[:args.limit]
    command = None if args.events_from else shlex.split(args.runner) + ([os.path.abspath(args.graph)] if args.graph else [])
    work_dir = args.events_from or args.keep_events or os.path.join(os.path.dirname(os.path.abspath(args.out)),
                                                                    f".evaluate-{os.getpid()}")
    os.makedirs(work_dir, exist_ok=True)
    started = time.monotonic()
    records, errors = [], []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(evaluate_scene, os.path.join(args.scenes, e["scene"]), e["scene"], command, work_dir,
                               bool(args.keep_events)) for e in entries]
        for done, future in enumerate(futures, 1):
            record, error = future.result()
            if error:
                errors.append(error)
                print(f"error: {error}", file=sys.stderr)
                continue
            records.append(record)
            detected = sum(s["detected"] for s in record["sounds"])
            cpu = "" if record["cpu_s"] is None else f", {record['cpu_s']:.2f} s CPU"
            print(f"[{done}/{len(futures)}] {record['scene']}: {detected}/{len(record['sounds'])} detected, "
                  f"{record['false_alarms']} false alarms{cpu}", flush=True)
    if not args.keep_events and not args.events_from and os.path.isdir(work_dir):
        os.rmdir(work_dir)
    rows = report_rows(records)
    results = {
        "format": "isochron-localization-results/1",
        "label": args.label or (os.path.basename(args.graph) if args.graph else args.runner),
        "graph": args.graph, "runner": None if args.events_from else args.runner, "events_from": args.events_from,
        "commit": git_commit(),
        "scenes_dir": os.path.abspath(args.scenes), "split": manifest["split"], "seed": manifest["seed"],
        "quick": args.quick, "machine": machine(), "jobs": args.jobs,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "elapsed_s": round(time.monotonic() - started, 1), "errors": errors,
        "rows": [{"factor": f, "value": v, **row} for f, v, row in rows],
        "scenes": records,
    }
    with open(args.out, "w") as file:
        json.dump(results, file, separators=(",", ":"))
    for factor, value, row in rows[:2]:
        print(f"{value}: recall {row['recall']}, within 20 deg {row['within_20']}, "
              f"false alarms/min {row['false_alarms_per_min']}, median {row['median_error_deg']}")
    print(f"wrote {args.out} ({len(records)} scenes, {len(errors)} errors)")
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
