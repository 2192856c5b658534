#!/usr/bin/env python3
"""`get` of 10 s x all channels at 20 random intervals of a long archive stream (BENCHMARKS.md, issue 13).

  scripts/archive_get_bench.py ISOCHRON_ARCHIVE ARCHIVE STREAM

Times the whole `isochron-archive get` process (first read of an interval, then the same again:
page cache), wall and CPU (user + sys), and, on the same intervals, SQLite alone fetching the
interval's rows with the archive's own query (index look-up and blob read, no decoding), so the
reader sees what the index costs beside what decoding and printing cost.
"""
import random, resource, sqlite3, subprocess, sys, time

binary, path, stream = sys.argv[1:4]
random.seed(13)
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
stream_id, rate, channels = db.execute("SELECT id, rate_hz, channels FROM streams WHERE name = ?", (stream,)).fetchone()
end = db.execute("SELECT max(start + length) FROM segments WHERE stream = ? AND channel = 0", (stream_id,)).fetchone()[0]
QUERY = ("SELECT start, length, samples, encoding FROM segments WHERE stream = ?1 AND channel = ?2 AND start >= "
         "coalesce((SELECT max(start) FROM segments WHERE stream = ?1 AND channel = ?2 AND start <= ?3), ?3) AND start < ?4 ORDER BY start")


def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def get(start):
    t0, c0 = time.perf_counter(), cpu()
    out = subprocess.run([binary, "get", path, stream, "--from", f"{start:.3f}", "--to", f"{start + 10:.3f}"],
                         capture_output=True, text=True, check=True).stdout
    assert "gap" not in out and out.count("stored") >= channels * 10, out[:200]
    return time.perf_counter() - t0, cpu() - c0


def rows(start):
    l, h = round(start * rate), round((start + 10) * rate)
    t0, c0 = time.perf_counter(), time.process_time()
    count = size = 0
    for channel in range(channels):
        for _, _, samples, _ in db.execute(QUERY, (stream_id, channel, l, h)):
            count += 1
            size += len(samples)
    return time.perf_counter() - t0, time.process_time() - c0, count, size


starts = [random.uniform(0, end / rate - 10) for _ in range(20)]
first, again, sql = [], [], []
for start in starts:
    first.append(get(start))   # the interval's pages may still be on disk only
    again.append(get(start))   # now in the page cache
    sql.append(rows(start))    # cached too
t0, c0 = time.perf_counter(), cpu()
subprocess.run([binary, "--help"], capture_output=True, check=True)
startup, startup_cpu = time.perf_counter() - t0, cpu() - c0


def stats(values):
    values = sorted(values)
    return f"min {values[0]*1e3:.1f} / median {values[len(values)//2]*1e3:.1f} / max {values[-1]*1e3:.1f} ms"


for name, runs in (("first read", first), ("read again", again)):
    print(f"isochron-archive get of 10 s x {channels} ch, {name} of 20 random intervals: wall {stats([w for w, _ in runs])}, "
          f"cpu (user + sys) {stats([c for _, c in runs])}")
print(f"  the process alone (--help): {startup*1e3:.1f} ms wall, {startup_cpu*1e3:.1f} ms cpu")
print(f"SQLite alone (python sqlite3, the archive's query, no decoding), same intervals cached: wall {stats([w for w, _, _, _ in sql])}, "
      f"cpu {stats([c for _, c, _, _ in sql])}; {sql[0][2]} rows, {sql[0][3] / 1e6:.2f} MB per get")
