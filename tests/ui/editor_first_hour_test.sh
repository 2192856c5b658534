#!/usr/bin/env bash
# A new user's first hour in the real editor, under Xvfb, with real keys and mouse (xdotool):
#  1. build a graph by quick-add and wiring, set a parameter in the inspector, run it, probe a wire
#     while it runs (it must not restart), undo and redo;
#  2. Save As to a new absolute path (typed) in a folder it creates, check the file, open it again;
#  3. open every menu and dialog once (each closes with Escape; a menu reopens with one click);
#     every QML plugin the editor has loaded by then is one the setup installs
#     (qml_modules_from_setup.sh);
#  4. edit, kill -9, start again: the edit is offered back; recover it, quit without saving.
# Every step waits for the editor's own log lines (category isochron.ui), never for a fixed time.
# Leaves two screenshots in SCREENSHOT_FOLDER.
#   editor_first_hour_test.sh EDITOR SCREENSHOT_FOLDER
set -euo pipefail
editor=$1 shots=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
mkdir -p "$work/graphs" "$shots"

xvfb-run -a -s "-screen 0 1600x1000x24" bash -s "$editor" "$work" "$shots" "$(dirname "$0")/qml_modules_from_setup.sh" <<'SCRIPT'
set -euo pipefail
editor=$1 work=$2 shots=$3 modules_check=$4
log=$work/editor.log
pid=
fail() { echo "---- editor log"; cat "$log"; echo "FAIL: $*"; kill -9 $pid 2>/dev/null || true; exit 1; }
count() { grep -c -E -- "$1" "$log" || true; }
# Wait until the log has lines matching $1 (grep -E) at least $2 times; the editor must stay alive.
await() {
  for _ in $(seq 300); do
    kill -0 $pid 2>/dev/null || fail "the editor died waiting for \"$1\""
    [ "$(count "$1")" -ge "$2" ] && return 0
    sleep 0.1
  done
  fail "no \"$1\" (x$2) within 30 s"
}
# step PATTERN XDOTOOL-ARGS...: do it, then wait for one more line matching PATTERN.
step() {
  local pattern=$1 before
  shift
  echo "- $* -> $pattern"
  before=$(count "$pattern")
  xdotool "$@"
  await "$pattern" $((before + 1))
}
start_editor() {
  : > "$log"
  QT_LOGGING_RULES="isochron.ui.info=true" "$editor" --window-size 1600x1000 --startup-time "$@" >> "$log" 2>&1 &
  pid=$!
  await "first frame after" 1
  focus_canvas
}
focus_canvas() { xdotool mousemove 1200 130 click 1; }  # an empty part of the canvas, top right
# "X Y" of item $2 ("out NAME", "in NAME", "title") of node $1, from its last "node" line.
at_node() { grep -E "node $1 at " "$log" | tail -1 | grep -oE "$2@[0-9]+,[0-9]+" | cut -d@ -f2 | tr , " "; }
at_field() { grep -E "inspector $1: " "$log" | tail -1 | grep -oE " $2@[0-9]+,[0-9]+" | cut -d@ -f2 | tr , " "; }
drag() {  # with the left button from $1,$2 to $3,$4, in steps
  xdotool mousemove $1 $2 mousedown 1
  for i in 1 2 3 4 5 6 7 8; do xdotool mousemove $(($1 + ($3 - $1) * i / 8)) $(($2 + ($4 - $2) * i / 8)); done
  xdotool mouseup 1
}
quick_add() {  # double-click the canvas at $1,$2, type $3, Enter: node $4 is added
  step "quick-add opened" mousemove $1 $2 click --repeat 2 --delay 80 1
  xdotool type --delay 15 "$3"
  step "node $4 at " key Return
}

# ---- 1. build, set a parameter, run, probe while running, undo and redo
start_editor
quick_add 450 250 "signal generator" signal_generator
quick_add 800 250 "null sink" null_sink
read -r ox oy < <(at_node signal_generator "out out")
read -r ix iy < <(at_node null_sink "in in")
drag "$ox" "$oy" "$ix" "$iy"
await "wired: 1 wires" 1
read -r tx ty < <(at_node signal_generator title)
step "inspector signal_generator: " mousemove "$tx" "$ty" click 1
read -r dx dy < <(at_field signal_generator duration)
[ -n "${dx:-}" ] || fail "the duration field is not on screen"
xdotool mousemove "$dx" "$dy" click 1 key ctrl+a type "0"
step "undo 'Set signal_generator.duration'" key Return     # 0 s: forever
step "run: running" key F5
step "menu opened: wire" mousemove $(((ox + ix) / 2)) "$oy" click 3
step "probes: scope " key Down Return
step "menu opened: wire" mousemove $(((ox + ix) / 2)) "$oy" click 3
step "probes: scope .*, spectrum " key Down Down Return
await "probe data: Spectrum" 1
await "probe data: Scope" 1
[ "$(count "run: starting")" -eq 1 ] || fail "adding a probe restarted the run"
import -window root "$shots/first-hour-probes.png"
step "run: stopped" key shift+F5
focus_canvas
step "history: 2 nodes, 1 wires; undo 'Connect" key ctrl+z
step "history: 2 nodes, 0 wires" key ctrl+z
step "history: 2 nodes, 1 wires; undo 'Connect" key ctrl+shift+z
step "undo 'Set signal_generator.duration'" key ctrl+shift+z

# ---- 2. Save As to a new absolute path in a new folder, compare the file, open it again
saved=$work/graphs/new/first-hour.isograph.json
step "dialog opened: Save graph as" key ctrl+shift+s
xdotool type --delay 10 "$work/graphs/new/first-hour"       # the suffix is added
step "dialog opened: Create folder" key Return              # the folder does not exist yet
step "saved: $saved" key Return
python3 - "$saved" <<EOF || fail "the saved file is not the graph that was built"
import json, sys
g = json.load(open(sys.argv[1]))
assert g["format"] == "isochron-graph/1", g["format"]
nodes = {n["id"]: n for n in g["nodes"]}
assert set(nodes) == {"signal_generator", "null_sink"}, nodes
assert nodes["signal_generator"]["type"] == "generators.signal_generator"
assert nodes["signal_generator"]["params"] == {"duration": 0}, nodes["signal_generator"]
assert g["edges"] == [{"from": "signal_generator.out", "to": "null_sink.in"}], g["edges"]
EOF
step "new graph" key ctrl+n
step "dialog opened: Open graph" key ctrl+o
xdotool type --delay 10 "$saved"
step "opened: $saved \(2 nodes\)" key Return

# ---- 3. every menu and dialog once
for menu in f:File e:Edit v:View r:Run h:Help; do
  step "menu opened: ${menu#*:}" key alt+${menu%%:*}
  step "menu closed: ${menu#*:}" key Escape
done
# A menu closed with Escape under the pointer opens again with one click (Qt's MenuBar needed two).
step "menu opened: File" mousemove 15 12 click 1
step "menu closed: File" key Escape
step "menu opened: File" click 1
step "menu closed: File" key Escape
step "dialog opened: Keyboard and mouse" key F1
step "dialog closed: Keyboard and mouse" key Escape
step "dialog opened: Open graph" key ctrl+o
xdotool type --delay 10 "$work/graphs"; xdotool key Return  # a folder: the dialog goes there
xdotool type --delay 10 "nothing-here.isograph.json"
xdotool key Return                                          # refused in the dialog: no such file
step "dialog closed: Open graph" key Escape
[ "$(count "isochron.ui: opened: /")" -eq 1 ] || fail "a missing file was opened"
echo "not a graph" > "$work/graphs/notes.txt"
step "dialog opened: Open graph" key ctrl+o
xdotool type --delay 10 "$work/graphs/notes.txt"
step "dialog opened: Error" key Return                   # says why, keeps the graph
step "dialog closed: Error" key Return
step "dialog opened: Save graph as" key ctrl+shift+s
xdotool key ctrl+a; xdotool type --delay 10 "$saved"
step "dialog opened: Replace file" key Return
step "dialog closed: Replace file" key Escape
step "dialog closed: Save graph as" key Escape
focus_canvas
xdotool key ctrl+a
step "dialog opened: Save the subgraph as" key ctrl+g
step "dialog closed: Save the subgraph as" key Escape
step "history: 0 nodes" key Delete
step "dialog opened: Unsaved changes" key ctrl+n
step "dialog closed: Unsaved changes" key Escape
[ "$(count "new graph")" -eq 1 ] || fail "Cancel on unsaved changes still made a new graph"
step "history: 2 nodes, 1 wires" key ctrl+z
"$modules_check" $pid || fail "the editor loaded QML modules a fresh setup lacks"

# ---- 4. edit, kill -9, start again, recover, quit without saving
quick_add 600 560 "pass through" pass_through
await "recovery saved: .*\(3 nodes\)" 1
kill -9 $pid; wait $pid 2>/dev/null || true
start_editor
await "dialog opened: Recover unsaved work \(1\)" 1
import -window root "$shots/first-hour-recovery.png"
step "recovered: $saved \(3 nodes\)" key Return
step "dialog opened: Unsaved changes" key ctrl+q
xdotool key Tab Tab space                                   # Don't Save: no letter key answers it, Tab to it
for _ in $(seq 300); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && fail "the editor did not quit after Don't Save"
wait $pid || fail "the editor did not quit cleanly"
left=$(ls "$XDG_DATA_HOME/isochron/recovery" 2>/dev/null || true)
[ -z "$left" ] || fail "recovery files left after Don't Save: $left"
python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))['nodes']) == 2" "$saved" || fail "the file changed without a save"
if grep -E "qrc:.*(Error|error|Unable|undefined|not a|Cannot)|TypeError|ReferenceError|Failed to load" "$log"; then fail "QML errors"; fi
echo "first hour: every step passed"
SCRIPT
echo "PASS"
