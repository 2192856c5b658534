#!/usr/bin/env bash
# The sample graphs that run unpaced, each under valgrind memcheck with one of the schedulers in turn:
# any read of uninitialised memory or invalid access fails the test (ASan does not see uninitialised
# reads; this found SrpPeakSearch::refine comparing with a value not yet computed). Leaks are left to
# LeakSanitizer. Usage: memcheck_samples.sh ISOCHRON_RUN SOURCE_DIR
set -euo pipefail
run=$1
samples=$2/samples
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

graphs=(localize-file localize-three-mics fusion-two-arrays xstream-detectaudio-localize filters-clean-voice
        level-voice-dynamics channels-pan-and-mix resample-voice spectral-analysis oop-window-count
        math-ring-modulator listen-to-the-source scale-out-field-arrays parasplit-fine-grid-localizer)
schedulers=(df qos fifo rtc fifo-slice rr superbox-mc qos-bucket superbox-ml superbox-mm)
failed=0
for i in "${!graphs[@]}"; do
  graph=${graphs[$i]}
  scheduler=${schedulers[$((i % ${#schedulers[@]}))]}
  # Run from the scratch folder: event sinks writing to "-" go to its files; file sinks write beside
  # the graph as when a user runs it (those outputs are ignored by git).
  if (cd "$out" && valgrind -q --error-exitcode=99 --leak-check=no --track-origins=yes \
       "$run" "$samples/$graph.isograph.json" --scheduler "$scheduler" --quiet >"$out/$graph.out" 2>"$out/$graph.err"); then
    echo "ok   $graph ($scheduler)"
  else
    echo "FAIL $graph ($scheduler): valgrind or the run reported errors:"
    sed 's/^/    /' "$out/$graph.err" | head -60
    failed=1
  fi
done
exit $failed
