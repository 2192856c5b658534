#!/usr/bin/env bash
# Issue 13's `get` benchmark on a 24-hour, 8-channel, 48 kHz archive (BENCHMARKS.md, "Persistent
# temporal streams", fourth slice). 24 h of 8 x 48 kHz f32 is 152 GB; this archive is
# `representation: flac` of 16-bit content, about 16 GB, with the piece count and index of a real
# 24-hour recording (6 912 000 pieces of 0.1 s):
#   1. isochron-run upsamples the bundled 16 kHz array recordings (samples/data/fusion-array-a/b.flac,
#      4 channels each, looped to 60 s) to 48 kHz with resample.rational and writes 8 channels of
#      16-bit FLAC (io.sound_file_sink);
#   2. isochron-run records that file, looped, into io.archive_sink (flac, 0.1 s pieces) for
#      RECORDED_HOURS, paced (the sink has no back-pressure: a writer more than queue_mb behind stops);
#   3. the recorded hours are repeated in the file with SQL until 24 h (INSERT ... SELECT with the start
#      shifted): the content loops every 60 s, so each repeated piece is byte for byte the piece a longer
#      recording stores at that time (checked on 200 random pieces against those whole loops later);
#   4. scripts/archive_get_bench.py times `isochron-archive get` of 10 s x 8 channels at 20 random
#      intervals, the first read after evicting the file from the page cache, then again.
# The archive is deleted at the end. Needs about 17 GB free in SCRATCH (keep 25 GB free besides).
#
#   scripts/archive_day_bench.sh [BUILD_BIN] [SCRATCH] [RECORDED_HOURS] [PACE] [TOTAL_HOURS]
#     RECORDED_HOURS  a multiple of 1/60 (the file is 60 s), default 4; TOTAL_HOURS default 24
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/release/bin}
scratch=${2:-/tmp/isochron-archive-day}
recorded=${3:-4}
pace=${4:-25}
total=${5:-24}
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
df -h "$scratch"

python3 - "$root" "$scratch" "$recorded" "$pace" <<'PY'
import json, sys
root, scratch, hours, pace = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
nodes = [{"id": x, "type": "io.audio_file_source", "params": {"path": f"{root}/samples/data/fusion-array-{x}.flac", "channels": 4, "block": 1600, "loops": 12}} for x in "ab"]
nodes += [{"id": f"r{i}", "type": "resample.rational", "params": {"up": 3, "down": 1}} for i in range(8)]
nodes.append({"id": "out", "type": "io.sound_file_sink", "params": {"path": f"{scratch}/array48k.flac", "samples": "pcm16", "channels": 8}})
edges = [{"from": f"{'ab'[i // 4]}.out{i % 4}", "to": f"r{i}.in"} for i in range(8)] + [{"from": f"r{i}.out", "to": f"out.in{i}"} for i in range(8)]
open(f"{scratch}/upsample.isograph.json", "w").write(json.dumps({"format": "isochron-graph/1", "nodes": nodes, "edges": edges}))
nodes = [{"id": "src", "type": "io.audio_file_source", "params": {"path": f"{scratch}/array48k.flac", "channels": 8, "block": 4800,
                                                                  "loops": round(hours * 60), "pace": pace, "max_lag": 1e9}},
         {"id": "rec", "type": "io.archive_sink", "params": {"path": f"{scratch}/day.sqlite", "stream": "array", "channels": 8,
                                                             "representation": "flac", "queue_mb": 4096}}]
edges = [{"from": f"src.out{i}", "to": f"rec.in{i}"} for i in range(8)]
open(f"{scratch}/record.isograph.json", "w").write(json.dumps({"format": "isochron-graph/1", "nodes": nodes, "edges": edges}))
PY
"$bin/isochron-run" "$scratch/upsample.isograph.json" --quiet
echo "== recording $recorded h of 8 x 48 kHz 16-bit into a flac archive at $pace x real time"
/usr/bin/time -f "recorded in %e s wall, %U s user, %S s sys" "$bin/isochron-run" "$scratch/record.isograph.json" --scheduler df --quiet

echo "== repeating the recorded hours to $total h"
python3 - "$scratch/day.sqlite" "$recorded" "$total" <<'PY'
import random, sqlite3, sys, time
path, recorded, total = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
hour = 3600 * 48000
span, end = round(recorded * hour), round(total * hour)  # whole 0.1 s pieces: multiples of 4800
db = sqlite3.connect(path, isolation_level=None)
random.seed(1)
same = 0
loop = 60 * 48000
later = (span // 2) // loop * loop  # a whole number of loops into the recording, about half way
for _ in range(200):
    c, k = random.randrange(8), random.randrange((span - later) // 4800)
    query = "SELECT samples FROM segments WHERE stream = 1 AND channel = ? AND start = ?"
    same += db.execute(query, (c, k * 4800)).fetchone()[0] == db.execute(query, (c, k * 4800 + later)).fetchone()[0]
print(f"pieces identical to those {later // loop} loops later: {same} of 200 random")
assert same == 200
t0 = time.time()
db.execute("PRAGMA journal_mode=OFF")
db.execute("PRAGMA synchronous=OFF")
db.execute("DELETE FROM segments WHERE start >= ?", (span,))
for shift in range(span, end, span):
    db.execute("INSERT INTO segments(stream, channel, start, length, samples, encoding) SELECT stream, channel, start + ?1, length, samples, encoding "
               "FROM segments WHERE start < ?2 AND start + ?1 < ?3 ORDER BY rowid", (shift, span, end))
db.execute("PRAGMA journal_mode=WAL")
print(f"repeated in {time.time() - t0:.0f} s: {db.execute('SELECT count(*) FROM segments').fetchone()[0]} pieces")
PY
ls -l "$scratch/day.sqlite"
"$bin/isochron-archive" info "$scratch/day.sqlite" array | head -10
python3 -c "import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)" "$scratch/day.sqlite"
python3 "$root/scripts/archive_get_bench.py" "$bin/isochron-archive" "$scratch/day.sqlite" array
