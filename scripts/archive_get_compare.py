#!/usr/bin/env python3
"""Compare builds on `isochron-archive get` of 10 s x all channels (BENCHMARKS.md, issue 13, sixth slice).

  scripts/archive_get_compare.py ARCHIVE STREAM RUNS BUILD...

BUILD is a folder holding bin/isochron-archive (and lib/ with its libisochron-engine, put first on
LD_LIBRARY_PATH, so that a copy of an older build runs with its own library). The builds take turns,
RUNS each, on the same 10 random intervals (seeded) of the stream; printed per build: the median,
first quartile and minimum of CPU time (user + sys of the whole process) and of wall time.

On a shared machine CPU time is the figure to compare; wall time counts every wait for a core. Run
under `chrt -f 10` (SCHED_FIFO: the process and its threads take a core as soon as they are ready)
to see the wall time of a machine whose other work never holds the get up (caches and memory are
still shared).
"""
import os, random, resource, sqlite3, statistics, subprocess, sys, time

archive, stream, runs, builds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
db = sqlite3.connect(f"file:{archive}?mode=ro", uri=True)
stream_id, rate = db.execute("SELECT id, rate_hz FROM streams WHERE name = ?", (stream,)).fetchone()
end = db.execute("SELECT max(start + length) FROM segments WHERE stream = ? AND channel = 0", (stream_id,)).fetchone()[0] / rate
random.seed(13)
starts = [random.uniform(0, end - 10) for _ in range(10)]


def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


found = {build: ([], []) for build in builds}
for i in range(runs):
    for build in builds:
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "lib"))
        start = starts[i % len(starts)]
        t0, c0 = time.perf_counter(), cpu()
        subprocess.run([os.path.join(build, "bin", "isochron-archive"), "get", archive, stream, "--from", f"{start:.3f}", "--to", f"{start + 10:.3f}"],
                       env=env, stdout=subprocess.DEVNULL, check=True)
        found[build][1].append((time.perf_counter() - t0) * 1e3)
        found[build][0].append((cpu() - c0) * 1e3)


def stats(values):
    values = sorted(values)
    return f"median {statistics.median(values):5.1f} (q1 {values[len(values) // 4]:5.1f}, min {values[0]:5.1f}) ms"


for build in builds:
    cpu_ms, wall_ms = found[build]
    print(f"{build}: cpu {stats(cpu_ms)}, wall {stats(wall_ms)}, {runs} runs")
print(f"load average at the end: {os.getloadavg()[0]:.1f}")
