#!/usr/bin/env bash
# The editor's command line without a display and with bad plugin options: --help and --version print
# (they aborted in Qt for want of a display), the help lists --sandbox[=NAME,...] and --watchdog as
# isochron-run has them, and a --watchdog or --sandbox= the editor cannot use is refused saying why.
#   editor_command_line_test.sh EDITOR
set -uo pipefail
editor=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
fail() { echo "FAIL: $*"; exit 1; }
# Run the editor with no display at all: no X, no Wayland, no platform chosen.
bare() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$editor" "$@" > "$work/out" 2> "$work/err"; }

for option in --help -h --help-all; do
  bare $option; status=$?
  [ $status -eq 0 ] || { cat "$work/err"; fail "isochron $option without a display: status $status"; }
  grep -q -- "--watchdog <seconds>" "$work/out" || fail "isochron $option lists no --watchdog: $(cat "$work/out")"
  grep -q -- "--sandbox=NAME" "$work/out" || fail "isochron $option does not say --sandbox takes plugin names"
  grep -q -- "\[GRAPH\]" "$work/out" || fail "isochron $option shows no usage line"
done
bare --version; status=$?
[ $status -eq 0 ] || { cat "$work/err"; fail "isochron --version without a display: status $status"; }
grep -q "^isochron 0" "$work/out" || fail "isochron --version printed: $(cat "$work/out")"

# Refused before any window: what to give instead.
bare --watchdog 3; status=$?
[ $status -eq 1 ] || fail "--watchdog without --sandbox: status $status"
grep -q "give --sandbox" "$work/err" || fail "--watchdog without --sandbox says: $(cat "$work/err")"
bare --sandbox --watchdog soon; status=$?
[ $status -eq 1 ] || fail "--watchdog soon: status $status"
grep -q "needs a number of seconds, got 'soon'" "$work/err" || fail "--watchdog soon says: $(cat "$work/err")"
bare --sandbox --watchdog 0; status=$?
[ $status -eq 1 ] && grep -q "between 0.01 and 86400" "$work/err" || fail "--watchdog 0 says: $(cat "$work/err")"
bare --sandbox=; status=$?
[ $status -eq 1 ] && grep -q "needs plugin names" "$work/err" || fail "--sandbox= says: $(cat "$work/err")"

# A name that is no loaded plugin (here, none is loaded) would leave a plugin in-process: refused.
QT_QPA_PLATFORM=offscreen "$editor" --sandbox=nosuch --watchdog 2 --quit-after 0 > "$work/out" 2> "$work/err"; status=$?
[ $status -eq 1 ] || fail "--sandbox=nosuch: status $status"
grep -q "\-\-sandbox=nosuch names no loaded plugin (no plugins are loaded" "$work/err" || fail "--sandbox=nosuch says: $(cat "$work/err")"
# Well-formed options open the editor (and --quit-after 0 closes it).
QT_QPA_PLATFORM=offscreen "$editor" --sandbox --watchdog 2 --quit-after 0 > "$work/out" 2> "$work/err"; status=$?
[ $status -eq 0 ] || { cat "$work/err"; fail "--sandbox --watchdog 2: status $status"; }
echo "PASS"
