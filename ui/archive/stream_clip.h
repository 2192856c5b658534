// The audio under the Archive tab's playhead: an interval of one signal stream, its channels mixed to
// one (averaged), gaps as silence, to play through the editor's audio output. No Qt.
#pragma once

#include <vector>

#include "engine/archive/archive_store.h"

namespace isochron::ui {

/// Samples [fromSeconds, toSeconds) (seconds from sample 0) of the signal stream `info`, channels
/// averaged, silence where nothing is stored; empty when the interval is. [any thread] [reads the disk]
std::vector<float> readStreamClip(ArchiveStore& store, const ArchivedStreamInfo& info, double fromSeconds, double toSeconds);

}  // namespace isochron::ui
