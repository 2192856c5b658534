#include "nodes/io/archive_downsampler.h"

#include <algorithm>
#include <span>
#include <utility>

namespace isochron {
namespace {

/// The smallest multiple of `factor` at or above `index` (indices may be negative).
std::int64_t alignUp(std::int64_t index, std::int64_t factor) {
    const std::int64_t remainder = ((index % factor) + factor) % factor;
    return remainder == 0 ? index : index + (factor - remainder);
}

}  // namespace

ArchiveDownsampler::ArchiveDownsampler(std::int64_t factor, const Timebase& inputTimebase, const Timebase& storedTimebase, Store store)
    : factor_(factor), inputTimebase_(&inputTimebase), storedTimebase_(&storedTimebase), store_(std::move(store)) {}

void ArchiveDownsampler::push(const SigSeg<float>& samples) {
    std::int64_t from = samples.startIndex();
    if (resampler_ && from != inputNext_) finish();  // a gap: this stretch ends
    if (!resampler_) {
        // Never before what the last stretch stored: its rounded tail may reach half a stored sample past its input.
        from = alignUp(from, factor_);
        if (storedAny_) from = std::max(from, storedNext_ * factor_);
        if (from >= samples.endIndex()) return;
        resampler_ = std::make_unique<resample::SoxrStream>(inputTimebase_->rateHz(), storedTimebase_->rateHz(), resample::ResampleQuality::High);
        storedNext_ = from / factor_;
    }
    const SigSeg<float> fresh = from > samples.startIndex() ? samples.subseg(from, samples.endIndex() - from) : samples;
    // A SigSeg's samples may lie in several runs of storage; each run goes to libsoxr in turn.
    output_.clear();
    fresh.forEachSpan([&](std::span<const float> run) {
        resampler_->process(run.data(), run.size(), runOutput_);
        output_.insert(output_.end(), runOutput_.begin(), runOutput_.end());
    });
    inputNext_ = fresh.endIndex();
    storeOutput();
}

void ArchiveDownsampler::finish() {
    if (!resampler_) return;
    resampler_->finish(output_);
    storeOutput();
    resampler_.reset();
}

void ArchiveDownsampler::storeOutput() {
    if (output_.empty()) return;
    const auto length = static_cast<std::int64_t>(output_.size());
    SigSeg<float> piece = SigSeg<float>::allocate(length, storedNext_, storedTimebase_);
    std::copy(output_.begin(), output_.end(), piece.writable().begin());
    store_(storedNext_, std::move(piece));
    storedNext_ += length;
    storedAny_ = true;
}

}  // namespace isochron
