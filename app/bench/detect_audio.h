// DETECTAUDIO (XStream's detection benchmark) as the localization benchmarks build it from
// samples/xstream-detectaudio-localize.isograph.json, for other benchmarks that measure it beside something else.
#pragma once

#include <string>

#include "app/bench/array_recording.h"
#include "app/bench/benchmark.h"
#include "engine/graph/graph_spec.h"

namespace isochron::bench {

/// How much of DETECTAUDIO runs: detection only (the plan cut before sync), detection and sync
/// cutting every channel (the paper's benchmark), or both plus SRP-PHAT on every event.
enum class Stage { Detect, Sync, Localize };

/// "detect", "detect+sync" or "detect+sync+srp".
const char* stageName(Stage stage);

/// samples/xstream-detectaudio-localize.isograph.json on `recording` (`channels` mics at `geometry`),
/// unpaced, cut to `stage`, ending in null sinks; `loop` replays the recording from memory until stopped.
GraphSpec detectAudioGraph(const BenchContext& context, const ArrayRecording& recording, const std::string& geometry, int channels,
                           Stage stage, bool loop);

/// A file in the system's temporary folder, private to this process.
std::filesystem::path scratchFile(const std::string& name);

}  // namespace isochron::bench
