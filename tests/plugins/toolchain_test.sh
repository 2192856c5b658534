#!/usr/bin/env bash
# A plugin built with another compiler and C++ standard library (Clang with libc++) against the
# installed SDK loads and runs in this host (GCC with libstdc++): the tones example, built out of
# tree that way, passes isochron-plugin-check and gives exactly the in-tree build's output, in
# process and sandboxed.
# Usage: toolchain_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build_dir=$2

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
sdk=$scratch/sdk
cmake --install "$build_dir" --component sdk --prefix "$sdk" > /dev/null
# The SDK holds the tools writing-plugins.md lists, nothing else of Isochron.
tools=$(ls "$sdk/bin" | tr '\n' ' ')
[ "$tools" = "isochron-plugin-check isochron-plugin-manifest isochron-run " ] || { echo "the SDK's bin/ holds: $tools" >&2; exit 1; }

# The manifest is written at build time by the SDK's isochron-plugin-manifest (built with GCC),
# which loads the Clang-built plugin: the build itself is the first check.
cmake -S "$source_dir/plugins/examples/tones" -B "$scratch/tones" -G Ninja -DCMAKE_PREFIX_PATH="$sdk" \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS=-stdlib=libc++ -DCMAKE_MODULE_LINKER_FLAGS=-stdlib=libc++ > /dev/null
cmake --build "$scratch/tones" > /dev/null
plugin=$scratch/tones/plugins/tones.so
readelf -d "$plugin" | grep -q 'NEEDED.*libc++\.so' || { echo "$plugin is not linked with libc++" >&2; exit 1; }
if readelf -d "$plugin" | grep -q 'NEEDED.*libstdc++'; then
  echo "$plugin is linked with libstdc++ too" >&2
  exit 1
fi
"$sdk/bin/isochron-plugin-check" --samples 8192 --random-splits 1 "$plugin" | tail -1 | grep -qx 'OK: no problems'

graph() {  # graph NAME: a tone through tones.detect and tones.frequency into two JSON Lines files
  cat > "$scratch/$1.isograph.json" <<JSON
{
  "format": "isochron-graph/1",
  "nodes": [
    {"id": "tone", "type": "generators.signal_generator", "params": {"frequency": 523.25, "amplitude": 0.4, "rate": 16000, "duration": 2, "block": 700}},
    {"id": "detect", "type": "tones.detect", "params": {"window": 1600}},
    {"id": "frequency", "type": "tones.frequency"},
    {"id": "tones", "type": "io.jsonl_event_sink", "params": {"path": "$scratch/$1-tones.jsonl"}},
    {"id": "frequencies", "type": "io.jsonl_event_sink", "params": {"path": "$scratch/$1-frequencies.jsonl"}}
  ],
  "edges": [
    {"from": "tone.out", "to": "detect.in"}, {"from": "detect.tones", "to": "tones.in"},
    {"from": "detect.tones", "to": "frequency.tones"}, {"from": "frequency.frequency", "to": "frequencies.in"}
  ]
}
JSON
  echo "$scratch/$1.isograph.json"
}
export XDG_DATA_HOME=$scratch/no-user-plugins ISOCHRON_PLUGIN_PATH=
run=$sdk/bin/isochron-run
"$run" --quiet "$(graph gcc)" --plugin "$build_dir/plugins/tones.so"
"$run" --quiet "$(graph clang)" --plugin "$plugin"
"$run" --quiet "$(graph clang-sandboxed)" --plugin "$plugin" --sandbox
for output in tones frequencies; do
  test "$(wc -l < "$scratch/gcc-$output.jsonl")" -eq 20
  cmp "$scratch/gcc-$output.jsonl" "$scratch/clang-$output.jsonl"
  cmp "$scratch/gcc-$output.jsonl" "$scratch/clang-sandboxed-$output.jsonl"
done
echo "a Clang/libc++ build of the tones plugin ran in the GCC/libstdc++ host, with the same results"
