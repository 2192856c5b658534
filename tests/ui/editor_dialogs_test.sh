#!/usr/bin/env bash
# The real editor under Xvfb, driven by real keys: Ctrl+O, Save As (Ctrl+Shift+S) and Ctrl+S on an
# untitled graph each open their dialog, which closes again on Escape, and the editor is alive after
# each, and every QML plugin it loaded is one the setup installs (qml_modules_from_setup.sh). Waits on
# the dialogs' own log lines (category isochron.ui), not on fixed sleeps.
#   editor_dialogs_test.sh EDITOR GRAPH
set -euo pipefail
editor=$1 graph=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
cp "$graph" "$work/graph.isograph.json"

xvfb-run -a -s "-screen 0 1600x1000x24" bash -c '
  set -euo pipefail
  editor=$0 work=$1 modules_check=$2
  log=$work/editor.log
  QT_LOGGING_RULES="isochron.ui.info=true" "$editor" --window-size 1600x1000 --startup-time "$work/graph.isograph.json" > "$log" 2>&1 &
  pid=$!
  fail() { cat "$log"; echo "FAIL: $*"; kill $pid 2>/dev/null || true; exit 1; }
  # Wait until the log has $1 at least $2 times (the editor must stay alive meanwhile).
  await() {
    for _ in $(seq 200); do
      kill -0 $pid 2>/dev/null || fail "the editor died waiting for \"$1\""
      [ "$(grep -c -- "$1" "$log" || true)" -ge "$2" ] && return 0
      sleep 0.1
    done
    fail "no \"$1\" (x$2) within 20 s"
  }
  await "first frame after" 1
  xdotool mousemove 800 500 click 1    # focus the window (there is no window manager)

  xdotool key ctrl+o;        await "dialog opened: Open graph" 1
  xdotool key Escape;        await "dialog closed: Open graph" 1
  xdotool key ctrl+shift+s;  await "dialog opened: Save graph as" 1
  xdotool key Escape;        await "dialog closed: Save graph as" 1
  xdotool key ctrl+n;        # a new, untitled graph: Ctrl+S asks where to save it
  xdotool key ctrl+s;        await "dialog opened: Save graph as" 2
  xdotool key Escape;        await "dialog closed: Save graph as" 2
  kill -0 $pid || fail "the editor died"
  "$modules_check" $pid || fail "the editor loaded QML modules a fresh setup lacks"
  kill $pid; wait $pid || true
  if grep -E "Failed to load|is not installed|qrc:.*(Error|error|TypeError|ReferenceError)" "$log"; then fail "QML errors"; fi
  cat "$log"
' "$editor" "$work" "$(dirname "$0")/qml_modules_from_setup.sh"
echo "PASS"
