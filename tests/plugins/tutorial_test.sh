#!/usr/bin/env bash
# Follows docs/writing-plugins.md literally: writes every file block ("```lang file=PATH") where
# it says, runs every ```sh block in order in one shell (starting in the Isochron build folder, as
# the tutorial says), with HOME in a scratch folder, then checks the graph's output.
# Usage: tutorial_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build_dir=$2
tutorial=$source_dir/docs/writing-plugins.md

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home
mkdir -p "$HOME"
unset XDG_DATA_HOME ISOCHRON_PLUGIN_PATH

# Files: the fence's "file=" path, with ~ meaning HOME.
awk -v home="$HOME" '
  /^```[a-z]+ file=/ { path = substr($2, 6); sub(/^~/, home, path); system("mkdir -p \"$(dirname \"" path "\")\""); printf "" > path; writing = 1; next }
  writing && /^```$/ { close(path); writing = 0; next }
  writing { print >> path }
' "$tutorial"

# Commands: every ```sh block, in order.
awk '/^```sh$/ { running = 1; next } running && /^```$/ { running = 0; next } running { print }' "$tutorial" > "$scratch/steps.sh"
echo "tutorial steps:"
cat "$scratch/steps.sh"
cd "$build_dir"
bash -euo pipefail "$scratch/steps.sh"

# The graph wrote one line per window of 0.1 s: ten peaks of a tone of amplitude 0.5.
peaks=$HOME/peak-plugin/peaks.jsonl
lines=$(wc -l < "$peaks")
if [ "$lines" -ne 10 ]; then
  echo "expected 10 windows in $peaks, found $lines" >&2
  exit 1
fi
awk -F'"value":' '{ split($2, v, "}"); if (v[1] < 0.499 || v[1] > 0.5) { print "peak " v[1] " is not about 0.5 on line " NR > "/dev/stderr"; bad = 1 } } END { exit bad }' "$peaks"
# Four clicks a quarter of a second apart: four onset events, each with its fields.
onsets=$HOME/peak-plugin/onsets.jsonl
python3 - "$onsets" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
assert len(events) == 4, f"expected 4 onsets, found {len(events)}"
for n, event in enumerate(events):
    assert event["kind"] == "event" and event["label"] == "onset", event
    assert abs(event["t_start"] - 0.25 * n) < 1e-9, event
    assert abs(event["amplitude"] - 0.8) < 1e-6 and abs(event["score"] - 0.8) < 1e-6, event
    assert abs(event["gap_s"] - (0.25 if n else 0)) < 1e-9, event
PY
# The plugin went to the per-user folder, where the runner found it; it was built optimized; the
# SDK prefix holds the SDK and nothing else (no example plugins).
test -f "$HOME/.local/share/isochron/plugins/peak.so"
test -f "$HOME/.local/share/isochron/plugins/peak.manifest.json"
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$HOME/peak-plugin/build/CMakeCache.txt"
if [ -e "$HOME/isochron-sdk/share/isochron/plugins" ]; then
  echo "the SDK prefix has plugins in it: $(ls "$HOME/isochron-sdk/share/isochron/plugins")" >&2
  exit 1
fi
echo "tutorial followed: $lines windows, all peaks about 0.5; 4 onsets a quarter of a second apart"
