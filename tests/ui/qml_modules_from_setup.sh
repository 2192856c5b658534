#!/usr/bin/env bash
# Every QML plugin a running editor has loaded comes from a Debian package that scripts/quickstart.sh
# installs, so what works here also works on a machine set up only by that script (this machine may
# have more QML modules installed: Qt's own components load some only when asked, e.g. a dialog).
#   qml_modules_from_setup.sh PID
set -euo pipefail
pid=$1
setup=$(dirname "$0")/../../scripts/quickstart.sh
listed=$(sed -n '/^packages=(/,/^)/p' "$setup" | sed 's/#.*//' | tr -s ' \t' '\n\n')
plugins=$(grep -oE '/[^ ]*/qt6/qml/[^ ]*\.so' "/proc/$pid/maps" | sort -u)
[ -n "$plugins" ] || { echo "FAIL: no QML plugin loaded by process $pid"; exit 1; }
status=0
for plugin in $plugins; do
  package=$(dpkg -S "$plugin" 2>/dev/null | head -1 | cut -d: -f1) || true
  if [ -z "$package" ]; then
    echo "FAIL: $plugin belongs to no Debian package"; status=1
  elif ! grep -qxF -- "$package" <<<"$listed"; then
    echo "FAIL: $plugin comes from $package, which scripts/quickstart.sh does not install"; status=1
  fi
done
[ $status -eq 0 ] && echo "QML plugins loaded, all installed by the setup: $(wc -w <<<"$plugins")"
exit $status
