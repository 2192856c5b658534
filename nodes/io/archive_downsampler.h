// ArchiveDownsampler: one channel of io.archive_sink's "downsample" representation. It resamples the
// channel by an integer factor with libsoxr (nodes/resample/soxr_stream.h) before the samples are
// stored, on a timebase of its own: stored sample m lies at the input's sample m x factor (the same
// zero time and clock, rate / factor), libsoxr's filter delay removed.
//
// A stretch starts at the first input sample whose index is a multiple of the factor (earlier ones
// are dropped); a gap in the input indices ends it (the filter's tail is flushed, as at the end) and
// a new stretch starts after it, so stored pieces never overlap and never bridge a gap.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/signal/sigseg.h"
#include "nodes/resample/soxr_stream.h"

namespace isochron {

/// Downsamples one channel for the archive, handing each stored-rate piece to a callback. [engine thread]
class ArchiveDownsampler {
public:
    /// Receives one downsampled piece: its first stored sample index and the samples (on the stored timebase).
    using Store = std::function<void(std::int64_t storedStart, SigSeg<float> samples)>;

    /// `factor` >= 2; `storedTimebase`: the input's rate / factor, same zero time and clock.
    ArchiveDownsampler(std::int64_t factor, const Timebase& inputTimebase, const Timebase& storedTimebase, Store store);

    /// Take `samples` (input indices; the caller keeps them after what came before). [allocates a
    /// resampler at the start of a stretch]
    void push(const SigSeg<float>& samples);
    /// End of input: store the filter's tail. [may allocate]
    void finish();

private:
    void storeOutput();

    std::int64_t factor_;
    const Timebase* inputTimebase_;
    const Timebase* storedTimebase_;
    Store store_;
    std::unique_ptr<resample::SoxrStream> resampler_;  // the open stretch's, or null
    std::int64_t inputNext_ = 0;   // input index the open stretch expects next
    std::int64_t storedNext_ = 0;  // stored index of the stretch's next output sample (after a stretch: one past its end)
    bool storedAny_ = false;       // a stretch has stored something
    std::vector<float> output_;     // what one push (or finish) produced, reused
    std::vector<float> runOutput_;  // libsoxr's output for one run of the input's storage, reused
};

}  // namespace isochron
