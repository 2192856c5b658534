#!/usr/bin/env bash
# Issue 13's archive benchmarks (BENCHMARKS.md, "Persistent temporal streams"): recording cost of
# 8 ch x 48 kHz, sustained archive write rate beside dd on the same disk (and isochron-bench
# archive-write: the store without generators, and the engine thread's cost per segment), `get` of 10 s from a long
# 8-channel archive, and archive size per hour with and without FLAC. Everything is generated with the
# project's own binaries (isochron-run, isochron-archive) into a scratch folder, then deleted.
#
#   scripts/archive_bench.sh [BUILD_BIN] [HOURS] [SCRATCH]
#     BUILD_BIN  folder of isochron-run, isochron-archive and isochron-bench (default build/release/bin)
#     HOURS      length of the long archive for the get benchmark (default 1; 24 needs ~130 GB free)
#     SCRATCH    where the archives go: the disk being measured (default /tmp/isochron-archive-bench)
# Wall times on a shared, loaded machine mostly measure waiting for a CPU; the CPU times do not.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/release/bin}
hours=${2:-1}
scratch=${3:-/tmp/isochron-archive-bench}
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT

# graph PATH SECONDS BLOCK REPRESENTATION: 8 noise generators at 48 kHz into one 8-channel archive stream.
graph() {
  python3 - "$@" <<'PY'
import json, sys
path, seconds, block, representation = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
nodes = [{"id": f"g{i}", "type": "generators.signal_generator",
          "params": {"waveform": "noise", "rate": 48000, "duration": seconds, "block": block, "seed": i + 1}} for i in range(8)]
nodes.append({"id": "rec", "type": "io.archive_sink",
              "params": {"path": path, "stream": "array", "channels": 8, "representation": representation}})
edges = [{"from": f"g{i}.out", "to": f"rec.in{i}"} for i in range(8)]
print(json.dumps({"format": "isochron-graph/1", "nodes": nodes, "edges": edges}))
PY
}

# timed COMMAND...: runs it, prints "wall_s user_s sys_s" of it and its children.
timed() {
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$scratch/time.txt" "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$(echo "$end - $start" | bc -l) $(tail -1 "$scratch/time.txt")"
}

echo "== recording 8 ch x 48 kHz noise for 60 s of signal, as fast as possible (df)"
graph "$scratch/rec.sqlite" 60 4800 f32 > "$scratch/rec.isograph.json"
read -r wall user sys < <(timed "$bin/isochron-run" "$scratch/rec.isograph.json" --scheduler df --quiet)
samples=$((60 * 48000 * 8))
bytes=$(stat -c %s "$scratch/rec.sqlite")
python3 - "$wall" "$user" "$sys" "$samples" "$bytes" <<'PY'
import sys
wall, user, sys_, samples, size = map(float, sys.argv[1:])
cpu = user + sys_
print(f"wall {wall:.2f} s, cpu {cpu:.2f} s (user {user:.2f}, sys {sys_:.2f}) incl. the 8 generators")
print(f"write rate {samples / wall / 1e6:.1f} M samples/s wall = {size / wall / 1e6:.1f} MB/s into the file")
print(f"recording 8 x 48 kHz in real time costs {100 * cpu / 60:.2f} % of one core (upper bound: generators included)")
print(f"size f32: {size / 1e6:.1f} MB per minute = {size * 60 / 1e9:.2f} GB per hour ({size / samples:.3f} bytes per sample)")
PY
rm -f "$scratch"/rec.sqlite*

echo "== the store's own write rate (no generators), and the engine thread's cost per segment (isochron-bench archive-write)"
ISOCHRON_ARCHIVE_BENCH_DIR="$scratch" "$bin/isochron-bench" archive-write --json

echo "== dd on the same disk: 2 GiB of zeros, 4 MiB blocks, flushed (conv=fdatasync)"
dd if=/dev/zero of="$scratch/dd.bin" bs=4M count=512 conv=fdatasync 2>&1 | tail -1
rm -f "$scratch/dd.bin"

echo "== size per hour with and without FLAC: 8 channels of the bundled 16-bit array recordings (16 kHz), 60 s"
for representation in f32 flac; do
  python3 - "$scratch/size-$representation.sqlite" "$representation" "$root" > "$scratch/size.isograph.json" <<'PY'
import json, sys
path, representation, root = sys.argv[1:]
nodes = [{"id": "a", "type": "io.audio_file_source", "params": {"path": f"{root}/samples/data/fusion-array-a.flac", "channels": 4, "block": 1600, "loops": 12}},
         {"id": "b", "type": "io.audio_file_source", "params": {"path": f"{root}/samples/data/fusion-array-b.flac", "channels": 4, "block": 1600, "loops": 12}},
         {"id": "rec", "type": "io.archive_sink", "params": {"path": path, "stream": "array", "channels": 8, "representation": representation}}]
edges = [{"from": f"a.out{i}", "to": f"rec.in{i}"} for i in range(4)] + [{"from": f"b.out{i}", "to": f"rec.in{i + 4}"} for i in range(4)]
print(json.dumps({"format": "isochron-graph/1", "nodes": nodes, "edges": edges}))
PY
  read -r wall user sys < <(timed "$bin/isochron-run" "$scratch/size.isograph.json" --scheduler df --quiet)
  size=$(stat -c %s "$scratch/size-$representation.sqlite")
  python3 -c "import sys; s=float(sys.argv[1]); print(f'{sys.argv[2]:5s}: {s/1e6:.2f} MB for 60 s = {s*60/1e9:.3f} GB per hour of 8 ch x 16 kHz; recorded in {float(sys.argv[3]):.2f} s wall, {float(sys.argv[4])+float(sys.argv[5]):.2f} s cpu')" "$size" "$representation" "$wall" "$user" "$sys"
done
rm -f "$scratch"/size-*

echo "== get of 10 s (8 channels) from a $hours-hour 8 ch x 48 kHz archive (f32, 0.1 s pieces)"
graph "$scratch/long.sqlite" "$(echo "$hours * 3600" | bc -l)" 4800 f32 > "$scratch/long.isograph.json"
read -r wall user sys < <(timed "$bin/isochron-run" "$scratch/long.isograph.json" --scheduler df --quiet)
echo "generated in $wall s wall: $(stat -c %s "$scratch/long.sqlite") bytes"
python3 - "$bin/isochron-archive" "$scratch/long.sqlite" "$hours" <<'PY'
import random, resource, subprocess, sys, time
binary, path, hours = sys.argv[1], sys.argv[2], float(sys.argv[3])
random.seed(13)

def cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime

def get(start):
    t0, c0 = time.perf_counter(), cpu()
    out = subprocess.run([binary, "get", path, "array", "--from", f"{start:.3f}", "--to", f"{start + 10:.3f}"], capture_output=True, text=True, check=True).stdout
    assert "gap" not in out and out.count("stored") >= 8 * 100, out[:200]
    return time.perf_counter() - t0, cpu() - c0

first, again = [], []
for _ in range(20):
    start = random.uniform(0, hours * 3600 - 10)
    first.append(get(start))   # the interval's pages may still be on disk only
    again.append(get(start))   # now in the page cache
t0, c0 = time.perf_counter(), cpu()
subprocess.run([binary, "--help"], capture_output=True, check=True)
startup, startupCpu = time.perf_counter() - t0, cpu() - c0
for name, runs in (("first read", first), ("read again", again)):
    wall = sorted(w for w, _ in runs)
    used = sorted(c for _, c in runs)
    print(f"isochron-archive get of 10 s x 8 ch, {name} of 20 random intervals: wall min {wall[0]*1e3:.1f} / median {wall[10]*1e3:.1f} / "
          f"max {wall[-1]*1e3:.1f} ms, cpu (user + sys) min {used[0]*1e3:.1f} / median {used[10]*1e3:.1f} / max {used[-1]*1e3:.1f} ms "
          f"(whole process; the process alone, --help: {startup*1e3:.1f} ms wall, {startupCpu*1e3:.1f} ms cpu)")
PY
