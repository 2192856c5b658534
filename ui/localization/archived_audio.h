// Play-back of past localization events: the audio of an event's interval, read from a signal stream
// recorded into the same archive as the events (streams recorded by one graph share a timebase, so an
// event's seconds are the audio's).
#pragma once

#include <string>
#include <vector>

namespace isochron::ui {

/// The samples of one interval of an archived audio stream, or why there are none. [value type]
struct ArchivedAudio {
    std::vector<float> samples;
    double rateHz = 0;
    std::string stream;  ///< the stream they come from
    std::string why;     ///< set when `samples` is empty
};

/// [fromSeconds, toSeconds) from the archive at `path`: of its signal streams that store the whole
/// interval in every channel, the one with the most channels (a microphone array's; ties: the first by
/// name); its channel `mic`, or all channels averaged when `mic` < 0 or past its channels. Throws
/// ArchiveError when the file is no archive. [any thread] [reads the disk: an event's interval]
ArchivedAudio readArchivedAudio(const std::string& path, double fromSeconds, double toSeconds, int mic);

}  // namespace isochron::ui
