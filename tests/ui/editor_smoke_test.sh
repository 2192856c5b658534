#!/usr/bin/env bash
# Smoke test of the real editor: start it under Xvfb on a sample graph with --run (and the probes
# given after the screenshot's name), check it is still alive after a few seconds with no QML
# errors, then save a screenshot of the screen.
#   editor_smoke_test.sh EDITOR GRAPH SCREENSHOT.png [--probe WIRE:KIND]...
set -euo pipefail
editor=$1 graph=$2 screenshot=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config  # fresh window layout and theme, as on first start
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 -p "$XDG_RUNTIME_DIR"

xvfb-run -a -s "-screen 0 1920x1080x24" bash -c '
  editor=$0 graph=$1 screenshot=$2 work=$3
  shift 3
  "$editor" --run --window-size 1920x1080 --startup-time --quit-after 60 "$@" "$graph" > "$work/editor.log" 2>&1 &
  pid=$!
  sleep 10
  if ! kill -0 $pid 2>/dev/null; then cat "$work/editor.log"; echo "FAIL: the editor exited early"; exit 1; fi
  import -window root "$screenshot"
  kill $pid
  wait $pid || true
' "$editor" "$graph" "$screenshot" "$work" "$@"

cat "$work/editor.log"
if grep -E "qrc:.*(Error|error|Unable|undefined|not a|Cannot)|TypeError|ReferenceError" "$work/editor.log"; then
  echo "FAIL: QML errors while running"; exit 1
fi
grep -q "first frame after" "$work/editor.log" || { echo "FAIL: no first frame"; exit 1; }
# A real window, not a blank screen: the image must have detail in it.
deviation=$(convert "$screenshot" -colorspace Gray -format "%[fx:standard_deviation]" info:)
echo "screenshot $screenshot, grey standard deviation $deviation"
awk -v d="$deviation" 'BEGIN { exit !(d > 0.05) }' || { echo "FAIL: the screenshot is (nearly) uniform"; exit 1; }
echo "PASS"
