#!/usr/bin/env bash
# Isochron quick start on Debian 12: install what is missing, build, then either open the editor on
# the sample graph (`run`; without a display the graph runs headless in isochron-run) or run the
# whole test suite (`test`: release build with the editor's tests, the engine under ASan/UBSan, then
# every fuzz target for 30 s from its seeds, docs/fuzzing.md; test cases in random order, the engine
# and operator suites three times).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-run}
case "$mode" in run | test) ;; *) echo "usage: $0 run|test" >&2; exit 2 ;; esac

packages=(
  build-essential cmake ninja-build pkg-config git
  libfftw3-dev libsoxr-dev portaudio19-dev libasound2-dev libjack-jackd2-dev libsndfile1-dev libflac-dev libeigen3-dev catch2 nlohmann-json3-dev
  libsqlite3-dev
  # Scale-out across processes and hosts (distributed/, docs/scale-out.md): Open MPI and its mpirun.
  openmpi-bin libopenmpi-dev
  alsa-utils libasound2-plugins
  # Clang: libFuzzer targets (tests/fuzz) with its fuzzer and sanitizer runtimes, and a plugin built
  # with another compiler and C++ library than the host (tests/plugins/toolchain_test.sh).
  clang libclang-rt-14-dev libc++-dev libc++abi-dev
  # valgrind memcheck over the sample graphs (tests/samples/memcheck_samples.sh): uninitialised reads.
  valgrind
  # The editor (Qt 6 Quick) and its headless tests: offscreen Quick Tests, a smoke test under Xvfb.
  qt6-base-dev qt6-declarative-dev qml6-module-qtqml qml6-module-qtqml-models qml6-module-qtqml-workerscript
  qml6-module-qtquick qml6-module-qtquick-controls qml6-module-qtquick-templates qml6-module-qtquick-layouts
  qml6-module-qtquick-window qml6-module-qtquick-shapes qml6-module-qt-labs-settings
  qml6-module-qttest libgl1-mesa-dri xvfb xauth imagemagick xdotool
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs=$(nproc)
cmake --preset release >/dev/null

if [ "$mode" = run ]; then
  # The programs only (the test suites build with `test`): the editor, the runner and the tools the
  # README and docs use, and the example plugins.
  cmake --build --preset release -j "$jobs" --target isochron isochron-run isochron-bench isochron-simulate-array isochron-archive \
    isochron-plugin-check isochron-plugin-manifest isochron-plugin-sandbox biquad zero_crossing_rate tones pass_through
  if [ -x build/release/bin/isochron ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec ./build/release/bin/isochron samples/quickstart.isograph.json
  fi
  echo "No display: running the sample graph headless (the editor is build/release/bin/isochron)."
  exec ./build/release/bin/isochron-run samples/quickstart.isograph.json
fi

cmake --build --preset release -j "$jobs"

# Every Catch2 suite runs its cases in random order (tests/CMakeLists.txt); the engine and operator
# suites run three times in a row, so a case that passes only sometimes shows at once.
repeated='^(engine|nodes)_tests$'
ctest --preset release -j "$jobs" -E "$repeated"
ctest --preset release -j "$jobs" -R "$repeated" --repeat until-fail:3
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" -E "$repeated"
ctest --preset asan -j "$jobs" -R "$repeated" --repeat until-fail:3
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz -j "$jobs"
echo "All tests passed (release, ASan+UBSan, and the fuzz targets)."
