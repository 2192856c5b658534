#include "nodes/resample/resampler.h"

#include <cmath>
#include <optional>
#include <stdexcept>

#include "engine/operators/operator.h"
#include "nodes/resample/soxr_stream.h"

namespace isochron {
namespace {

using resample::SoxrStream;

/// Resamples one stream at a time; see resampler.h for the timebase and progress rules.
class Resampler final : public Operator {
public:
    explicit Resampler(OutputRateRule rule) : rule_(std::move(rule)) {}

protected:
    void onActivate() override { quality_ = resample::resampleQualityFromName(params().getString("quality")); }

    void process(int, Item&& item) override {
        const SigSeg<float> input = item.takeSignal<float>();
        if (input.empty()) return;
        if (input.timebase() != inputTimebase_ || input.startIndex() != nextInputIndex_) {
            endStream();
            startStream(input);
        }
        nextInputIndex_ = input.endIndex();
        input.forEachSpan([&](std::span<const float> run) {
            stream_->process(run.data(), run.size(), scratch_);
            emitScratch();
        });
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!outputTimebase_) return inputProgress;
        return std::min(inputProgress, outputTimebase_->timeOf(nextOutputIndex_));
    }

    void onFinish() override { endStream(); }

private:
    void startStream(const SigSeg<float>& first) {
        const double inputRate = first.timebase()->rateHz();
        double outputRate = 0.0;
        try {
            outputRate = rule_(params(), inputRate);
            stream_.emplace(inputRate, outputRate, quality_);
        } catch (const std::invalid_argument& e) {
            throw OperatorError(std::string(e.what()) + " (stream at " + first.timebase()->describe() + ")");
        }
        // Room for the output of large items and for the filter's tail at the end (a few thousand
        // samples at very high quality), so that neither reallocates in the steady state or at the end.
        scratch_.reserve(static_cast<std::size_t>(16384.0 * std::max(1.0, outputRate / inputRate)));
        inputTimebase_ = first.timebase();
        const double exactIndex = static_cast<double>(first.startIndex()) * outputRate / inputRate;
        const double wholeIndex = std::round(exactIndex);
        if (std::abs(exactIndex - wholeIndex) < 1e-9 * std::max(1.0, std::abs(exactIndex))) {
            outputTimebase_ = &Timebase::get(outputRate, inputTimebase_->zeroTimeNs(), inputTimebase_->clock());
            nextOutputIndex_ = static_cast<std::int64_t>(wholeIndex);
        } else {
            outputTimebase_ = &Timebase::get(outputRate, first.startTime(), inputTimebase_->clock());
            nextOutputIndex_ = 0;
        }
    }

    void endStream() {
        if (!stream_) return;
        stream_->finish(scratch_);
        emitScratch();
        stream_.reset();
    }

    void emitScratch() {
        if (scratch_.empty()) return;
        SigSeg<float> output = SigSeg<float>::copyOf(scratch_, nextOutputIndex_, outputTimebase_);
        nextOutputIndex_ = output.endIndex();
        emit(0, Item::signal(std::move(output)));
    }

    OutputRateRule rule_;
    resample::ResampleQuality quality_ = resample::ResampleQuality::High;
    std::optional<SoxrStream> stream_;
    const Timebase* inputTimebase_ = nullptr;
    const Timebase* outputTimebase_ = nullptr;
    std::int64_t nextInputIndex_ = 0;
    std::int64_t nextOutputIndex_ = 0;
    std::vector<float> scratch_;
};

}  // namespace

std::unique_ptr<Operator> makeResampler(OutputRateRule rule) { return std::make_unique<Resampler>(std::move(rule)); }

ParamSpec resampleQualityParameter() {
    ParamSpec quality{"quality", ParamKind::Choice, std::string("high"), {}, {}, "",
                      "libsoxr recipe: quick (cubic), low and medium (16-bit), high (20-bit), very_high (28-bit); linear phase"};
    quality.choices = resample::resampleQualityNames();
    return quality;
}

}  // namespace isochron
