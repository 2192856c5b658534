// The audio of recent events, copied out of the items the audio tap delivers (one signal per mic
// per event, cut by `sync`, or the continuous stream of every mic in blocks), so the event list can
// play any of them back: one mic, or all mixed. Bounded: the oldest clips go first once `maxSamples`
// samples are held.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace isochron::ui {

/// Recent event clips, each a sample range of the stream with one sample vector per mic. [ui thread]
class EventAudio {
public:
    /// Hold at most `maxSamples` samples over all clips and mics (>= 1).
    explicit EventAudio(std::int64_t maxSamples = std::int64_t{16} << 20);

    /// Mic `mic`'s samples [start, start + samples.size()) at `rateHz`; mics of one event share a range.
    void add(int mic, std::int64_t start, double rateHz, std::vector<float> samples);
    /// The samples of [startSeconds, endSeconds) of mic `mic`, or of all mics averaged (`mic` < 0),
    /// from the clips that cover it (consecutive blocks are joined; a missing block is silence); empty
    /// when no clip overlaps. What lies before the first or after the last covered sample is left out.
    std::vector<float> extract(double startSeconds, double endSeconds, int mic) const;
    /// The sample rate of the clip extract() would use (0 if none).
    double rateOf(double startSeconds, double endSeconds) const;
    /// Mics of the newest clip (0 when empty).
    int mics() const;
    void clear();

private:
    struct Clip {
        std::int64_t start = 0;
        std::int64_t length = 0;
        double rateHz = 0;
        std::vector<std::vector<float>> mics;
    };
    std::deque<Clip> clips_;
    std::int64_t held_ = 0;
    std::int64_t maxSamples_;
};

}  // namespace isochron::ui
