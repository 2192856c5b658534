#!/usr/bin/env bash
# Run the Aurora scheduling benchmarks (issue 3) and telemetry-overhead, writing JSON lines and one
# CSV per benchmark into OUTDIR, then the figures as PNG if gnuplot is installed (Debian package
# gnuplot-nox; scripts/aurora_plots.gnuplot). telemetry-overhead replays isochron-bench's input
# recording: set ISOCHRON_BENCH_INPUT if it is not next to the source tree.
#
# Usage: scripts/aurora_bench.sh [OUTDIR]          (default: docs/benchmarks/aurora)
#   ISOCHRON_BENCH_PRIORITY=1  run at the highest CFS priority in an autogroup of its own (root
#                              only): on a shared machine the engine thread then gets a whole core,
#                              which latency-versus-load curves need. BENCHMARKS.md was made so.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/benchmarks/aurora}
bench=build/release/bin/isochron-bench
[ -x "$bench" ] || { echo "build first: cmake --preset release && cmake --build build/release --target isochron-bench" >&2; exit 1; }

if [ "${ISOCHRON_BENCH_PRIORITY:-0}" = 1 ] && [ -z "${ISOCHRON_BENCH_BOOSTED:-}" ]; then
  export ISOCHRON_BENCH_BOOSTED=1
  exec setsid sh -c 'echo -20 > /proc/self/autogroup && exec nice -n -20 "$0" "$@"' "$0" "$@"
fi

mkdir -p "$out"
: > "$out/results.jsonl"
for name in aurora-superbox aurora-traversal aurora-memory aurora-trains aurora-qos aurora-bucketing telemetry-overhead; do
  echo "== $name" >&2
  start=$(date +%s)
  "$bench" "$name" --json --csv "$out" >> "$out/results.jsonl"
  echo "   $(($(date +%s) - start)) s" >&2
done
if command -v gnuplot > /dev/null; then
  gnuplot -e "dir='$out'" scripts/aurora_plots.gnuplot
  echo "plots written to $out" >&2
else
  echo "gnuplot not found (apt-get install gnuplot-nox): CSV and JSON only" >&2
fi
