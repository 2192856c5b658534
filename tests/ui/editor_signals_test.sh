#!/usr/bin/env bash
# The real editor recording a running graph, ended by SIGTERM and by SIGHUP (a desktop logout, a
# closed terminal): the recording is finished under its own name, no `.partial` is left, and
# isochron-run reads it back whole. Waits on the recording's file growing, not on fixed sleeps.
#   editor_signals_test.sh EDITOR ISOCHRON_RUN
set -euo pipefail
editor=$1 runner=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work/runtime QT_QPA_PLATFORM=offscreen
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
fail() { cat "$work/editor.log" 2>/dev/null || true; echo "FAIL: $*"; exit 1; }

for signal in TERM HUP; do
  rm -f "$work"/rec.wav*
  cat > "$work/record.isograph.json" <<GRAPH
{"format": "isochron-graph/1", "nodes": [
  {"id": "tone", "type": "generators.signal_generator", "params": {"rate": 8000, "duration": 0, "pace": 1}},
  {"id": "rec", "type": "io.wav_file_sink", "params": {"path": "$work/rec.wav"}}],
 "edges": [{"from": "tone.out", "to": "rec.in0"}]}
GRAPH
  "$editor" "$work/record.isograph.json" --run > "$work/editor.log" 2>&1 &
  pid=$!
  # Wait until the recording holds samples (its header is 44 bytes or more).
  for _ in $(seq 600); do
    kill -0 $pid 2>/dev/null || fail "the editor died before recording ($signal)"
    size=$(stat -c %s "$work"/rec.wav* 2>/dev/null | head -1 || true)
    [ "${size:-0}" -gt 4000 ] && break
    sleep 0.1
  done
  [ "${size:-0}" -gt 4000 ] || fail "no recording within 60 s ($signal)"
  kill -$signal $pid
  status=0; wait $pid || status=$?
  [ $status -eq 0 ] || fail "the editor ended with status $status after SIG$signal"
  [ -f "$work/rec.wav" ] || fail "no rec.wav after SIG$signal: $(ls "$work")"
  if ls "$work"/rec.wav.*.partial >/dev/null 2>&1; then fail "a .partial is left after SIG$signal"; fi
  cat > "$work/read.isograph.json" <<GRAPH
{"format": "isochron-graph/1", "nodes": [
  {"id": "src", "type": "io.audio_file_source", "params": {"path": "$work/rec.wav", "channels": 1}},
  {"id": "sink", "type": "io.null_sink"}],
 "edges": [{"from": "src.out0", "to": "sink.in"}]}
GRAPH
  "$runner" "$work/read.isograph.json" --quiet --report "$work/read.json" || fail "isochron-run cannot read the recording after SIG$signal"
  grep -q '"samples"' "$work/read.json" || fail "no samples read back after SIG$signal"
  echo "SIG$signal: recording finished whole ($(stat -c %s "$work/rec.wav") bytes)"
done
echo "PASS"
