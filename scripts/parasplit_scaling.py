#!/usr/bin/env python3
"""parasplit scaling of an expensive operator over q = 1..4 ranks (BENCHMARKS.md, issue 15).

The operator is a long FIR lowpass in direct form (`--taps`, about `taps` multiply-adds per sample)
on `--seconds` of 48 kHz noise. The reference is the unsplit graph in one process (noise -> filter ->
null sink). For each q the graph is noise -> parallel.split (overlap routing, windows of `--window`
samples plus taps - 1) -> q filters -> parallel.merge -> null sink, filter k on rank k, the merge on rank
q - 1, run with `mpirun -np q --oversubscribe` (q = 1: one process, no mpirun). A run's time is the
longest engine run of its ranks (each rank's report `wall_s`); speed-up = reference / run,
efficiency = speed-up / q. CPU s is the CPU time of the whole run (every rank, mpirun, MPI's start and
end), and CPU efficiency = the reference's CPU time / the run's, the paper's efficiency (the share of
work that is the operator's own): unlike wall times it barely depends on what else runs on the
machine. Best of `--repeats` runs each, interleaved.

With `--threads` the same split graphs run in one process instead, each q whole (one engine thread)
and with `--partitions threads` (partition k on thread k), alternating; the table gives each one's
range (min–max) of wall and CPU time over `--repeats` runs and the speed-up of threads over whole
from the medians.

    scripts/parasplit_scaling.py [--bin build/release/bin] [--seconds 60] [--taps 4095] [--window 96000] [--repeats 3] [--max-q 4] [--threads]
"""
import argparse
import json
import os
import resource
import subprocess
import tempfile


def unsplit_graph(seconds, taps):
    return {"format": "isochron-graph/1", "scheduler": {"name": "df"}, "nodes": [
        {"id": "noise", "type": "generators.signal_generator",
         "params": {"waveform": "noise", "rate": 48000, "duration": seconds, "block": 4096}},
        {"id": "lowpass", "type": "filters.fir", "params": {"taps": taps, "cutoff_hz": 4000, "method": "direct"}},
        {"id": "sink", "type": "io.null_sink"}],
        "edges": [{"from": "noise.out", "to": "lowpass.in"}, {"from": "lowpass.out", "to": "sink.in"}]}


def split_graph(seconds, taps, window, q):
    nodes = [
        {"id": "noise", "type": "generators.signal_generator", "partition": 0,
         "params": {"waveform": "noise", "rate": 48000, "duration": seconds, "block": 4096}},
        {"id": "split", "type": "parallel.split", "partition": 0,
         "params": {"outputs": q, "routing": "overlap", "window": window, "overlap": taps - 1}},
        {"id": "merge", "type": "parallel.merge", "partition": q - 1, "params": {"inputs": q}},
        {"id": "sink", "type": "io.null_sink", "partition": q - 1}]
    edges = [{"from": "noise.out", "to": "split.in"}, {"from": "merge.out", "to": "sink.in"}]
    for k in range(q):
        nodes.append({"id": f"lowpass{k}", "type": "filters.fir", "partition": k,
                      "params": {"taps": taps, "cutoff_hz": 4000, "method": "direct"}})
        edges += [{"from": f"split.out{k}", "to": f"lowpass{k}.in"}, {"from": f"lowpass{k}.out", "to": f"merge.in{k}"}]
    return {"format": "isochron-graph/1", "scheduler": {"name": "df"}, "nodes": nodes, "edges": edges}


def run(binary, graph, ranks, folder, name, threads=False):
    path = os.path.join(folder, name + ".isograph.json")
    report = os.path.join(folder, name + ".json")
    with open(path, "w") as f:
        json.dump(graph, f)
    command = [os.path.join(binary, "isochron-run"), path, "--report", report]
    if threads:
        command += ["--partitions", "threads"]
    elif ranks > 1:
        command = ["mpirun", "-np", str(ranks), "--oversubscribe"] + command
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    reports = [report] if ranks == 1 or threads else [os.path.join(folder, f"{name}.rank{r}.json") for r in range(ranks)]
    walls = []
    for r in reports:
        with open(r) as f:
            data = json.load(f)
        assert data["completed"], r
        walls.append(data["wall_s"])
    return max(walls), cpu


def compare_threads(args):
    """Each q's split graph run whole and on threads, alternating: ranges of wall and CPU time."""
    qs = list(range(1, args.max_q + 1))
    walls = {(q, t): [] for q in qs for t in (False, True)}
    cpus = {(q, t): [] for q in qs for t in (False, True)}
    with tempfile.TemporaryDirectory(prefix="isochron-parasplit-") as folder:
        for _ in range(args.repeats):
            for q in qs:
                for threads in (False, True):
                    wall, seconds = run(args.bin, split_graph(args.seconds, args.taps, args.window, q), 1, folder, f"{q}", threads)
                    walls[(q, threads)].append(wall)
                    cpus[(q, threads)].append(seconds)
    median = lambda values: sorted(values)[len(values) // 2]
    span = lambda values: f"{min(values):.3f}–{max(values):.3f}"
    print(f"FIR {args.taps} taps (direct form), {args.seconds:g} s of 48 kHz noise, windows {args.window} + {args.taps - 1}, "
          f"{args.repeats} runs each, alternating; load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    print("| q | whole: wall s | whole: CPU s | threads: wall s | threads: CPU s | speed-up (median wall) | CPU threads / whole (median) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for q in qs:
        w, t = (q, False), (q, True)
        print(f"| {q} | {span(walls[w])} | {span(cpus[w])} | {span(walls[t])} | {span(cpus[t])} | "
              f"{median(walls[w]) / median(walls[t]):.2f} | {median(cpus[t]) / median(cpus[w]):.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "release", "bin"))
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--taps", type=int, default=4095)
    parser.add_argument("--window", type=int, default=96000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-q", type=int, default=4)
    parser.add_argument("--threads", action="store_true", help="compare whole and --partitions threads in one process")
    args = parser.parse_args()
    if args.threads:
        return compare_threads(args)
    qs = list(range(1, args.max_q + 1))
    keys = ["unsplit"] + qs
    best = {k: float("inf") for k in keys}
    cpu = {k: float("inf") for k in keys}
    with tempfile.TemporaryDirectory(prefix="isochron-parasplit-") as folder:
        for _ in range(args.repeats):
            for k in keys:
                graph = unsplit_graph(args.seconds, args.taps) if k == "unsplit" else split_graph(args.seconds, args.taps, args.window, k)
                wall, seconds = run(args.bin, graph, 1 if k == "unsplit" else k, folder, str(k))
                best[k] = min(best[k], wall)
                cpu[k] = min(cpu[k], seconds)
    reference = best["unsplit"]
    samples = args.seconds * 48000
    print(f"FIR {args.taps} taps (direct form), {args.seconds:g} s of 48 kHz noise, windows {args.window} + {args.taps - 1}, best of {args.repeats}; "
          f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    print("| q (ranks) | time s | M samples/s | speed-up | efficiency | CPU s | CPU efficiency |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for k in keys:
        speedup = reference / best[k]
        q = 1 if k == "unsplit" else k
        label = "unsplit, 1 process" if k == "unsplit" else str(k)
        print(f"| {label} | {best[k]:.3f} | {samples / best[k] / 1e6:.2f} | {speedup:.2f} | {speedup / q:.2f} | {cpu[k]:.2f} | {cpu['unsplit'] / cpu[k]:.2f} |")

if __name__ == "__main__":
    main()
