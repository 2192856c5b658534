#include "distributed/rank_rates.h"

namespace isochron::distributed {

void RankRates::smooth(RankTelemetry& totals) {
    const auto rank = static_cast<std::size_t>(totals.rank);
    if (counts_.size() <= rank) counts_.resize(rank + 1);
    std::deque<Count>& counts = counts_[rank];
    const Count now{totals.elapsedSeconds, totals.items, totals.samples};
    if (counts.empty() || counts.back().items != now.items || counts.back().samples != now.samples) counts.push_back(now);
    // The window: at least kWindowSeconds and kWindowChanges changes before now.
    while (counts.size() > kWindowChanges + 1 && now.seconds - counts[1].seconds >= kWindowSeconds) counts.pop_front();
    const Count& oldest = counts.front();
    const Count& until = totals.engineState == "running" ? now : counts.back();
    const double seconds = until.seconds - oldest.seconds;
    totals.itemsPerSecond = seconds > 0 ? static_cast<double>(until.items - oldest.items) / seconds : 0.0;
    totals.samplesPerSecond = seconds > 0 ? static_cast<double>(until.samples - oldest.samples) / seconds : 0.0;
}

}  // namespace isochron::distributed
