#!/usr/bin/env bash
# Smoke test of the real editor: start it under Xvfb on a sample graph with --run (and the probes
# given after the screenshot's name), wait until it has run for 3 s (or finished) and every probe
# shows data (its own log lines, category isochron.ui), check there are no QML errors, save a
# screenshot.
#   editor_smoke_test.sh EDITOR GRAPH SCREENSHOT.png [--probe WIRE:KIND]...
set -euo pipefail
editor=$1 graph=$2 screenshot=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data  # fresh layout, theme and recovery folder
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
probes=$(( $# / 2 ))

xvfb-run -a -s "-screen 0 1920x1080x24" bash -s "$editor" "$graph" "$screenshot" "$work" "$probes" "$@" <<'SCRIPT'
set -euo pipefail
editor=$1 graph=$2 screenshot=$3 work=$4 probes=$5
shift 5
log=$work/editor.log
QT_LOGGING_RULES="isochron.ui.info=true" "$editor" --run --window-size 1920x1080 --startup-time --quit-after 90 "$@" "$graph" > "$log" 2>&1 &
pid=$!
await() {
  for _ in $(seq 450); do
    kill -0 $pid 2>/dev/null || { cat "$log"; echo "FAIL: the editor exited waiting for \"$1\""; exit 1; }
    [ "$(grep -c -E -- "$1" "$log" || true)" -ge "$2" ] && return 0
    sleep 0.1
  done
  cat "$log"; echo "FAIL: no \"$1\" within 45 s"; exit 1
}
await "first frame after" 1
await "isochron.ui: run: (3 s|finished)" 1
await "probe data: " "$probes"
import -window root "$screenshot"
kill $pid
wait $pid || true
SCRIPT

cat "$work/editor.log"
if grep -E "qrc:.*(Error|error|Unable|undefined|not a|Cannot)|TypeError|ReferenceError" "$work/editor.log"; then
  echo "FAIL: QML errors while running"; exit 1
fi
# A real window, not a blank screen: the image must have detail in it.
deviation=$(convert "$screenshot" -colorspace Gray -format "%[fx:standard_deviation]" info:)
echo "screenshot $screenshot, grey standard deviation $deviation"
awk -v d="$deviation" 'BEGIN { exit !(d > 0.05) }' || { echo "FAIL: the screenshot is (nearly) uniform"; exit 1; }
echo "PASS"
