#include "nodes/spectral/short_time_analysis.h"

#include "nodes/spectral/short_time_parameters.h"

namespace isochron {

void ShortTimeAnalysis::onActivate() {
    try {
        const ShortTimeSettings settings = readShortTimeSettings(params());
        framer_.emplace(settings.size, settings.hop, params().getBool("pad_edges"));
        spectrum_.emplace(settings.size, settings.window, settings.effort);
    } catch (const std::invalid_argument& e) {
        throw OperatorError(e.what());
    }
    onAnalysisActivate();
}

void ShortTimeAnalysis::process(int, Item&& item) {
    framer_->push(item.takeSignal<float>(), [&](const SigSeg<float>& frame, const SampleRange& range) { frameReady(frame, range); });
}

TimeNs ShortTimeAnalysis::onProgress(TimeNs inputProgress) { return framer_->promise(inputProgress); }

void ShortTimeAnalysis::onFinish() {
    framer_->finish([&](const SigSeg<float>& frame, const SampleRange& range) { frameReady(frame, range); });
}

}  // namespace isochron
