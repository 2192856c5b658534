#include "ui/archive/archive_timeline.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

namespace isochron::ui {

ChannelCoverage combineCoverage(const std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>>& channels,
                                std::int64_t l, std::int64_t h) {
    // Sweep over every boundary: +1 where a channel's stretch starts, -1 where it ends.
    std::map<std::int64_t, int> delta{{l, 0}, {h, 0}};
    for (const auto& stretches : channels) {
        for (const auto& [start, end] : stretches) {
            delta[std::max(start, l)] += 1;
            delta[std::min(end, h)] -= 1;
        }
    }
    ChannelCoverage result;
    const int total = static_cast<int>(channels.size());
    auto add = [](auto& spans, std::int64_t a, std::int64_t b) {
        if (a >= b) return;
        if (!spans.empty() && spans.back().second == a) spans.back().second = b;
        else spans.emplace_back(a, b);
    };
    int covering = 0;
    for (auto it = delta.begin(); it != delta.end() && it->first < h; ++it) {
        covering += it->second;
        const std::int64_t a = it->first, b = std::next(it)->first;
        if (a < l) continue;
        if (covering >= total && total > 0) add(result.all, a, b);
        else if (covering > 0) add(result.some, a, b);
        else add(result.none, a, b);
    }
    return result;
}

std::vector<TimelineLane> readArchiveTimeline(const std::string& path, std::size_t maxTicks) {
    ArchiveStore store(path, ArchiveAccess::Read);
    std::vector<TimelineLane> lanes;
    for (ArchivedStreamInfo& info : store.streams()) {
        TimelineLane lane;
        lane.info = std::move(info);
        const std::string& name = lane.info.name;
        const double rate = lane.info.rateHz;
        auto seconds = [rate](std::int64_t index) { return static_cast<double>(index) / rate; };
        auto toSpans = [&](const std::vector<std::pair<std::int64_t, std::int64_t>>& stretches) {
            std::vector<TimelineSpan> spans;
            for (const auto& [a, b] : stretches) spans.push_back({seconds(a), seconds(b)});
            return spans;
        };
        const std::optional<ArchivedExtent> extent = store.extent(name);
        if (extent) {
            lane.empty = false;
            lane.start = seconds(extent->start);
            lane.end = seconds(extent->end);
            lane.bytes = extent->bytes;
            if (lane.info.kind == ArchivedStreamInfo::Kind::Signal) {
                std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> channels;
                for (int channel = 0; channel < lane.info.channels; ++channel) channels.push_back(store.coverage(name, channel));
                const ChannelCoverage coverage = combineCoverage(channels, extent->start, extent->end);
                lane.stored = toSpans(coverage.all);
                lane.partial = toSpans(coverage.some);
                lane.gaps = toSpans(coverage.none);
            } else {
                lane.eventCount = extent->rows;
                const std::vector<ArchivedItem> items = store.getItems(name, extent->start, extent->end);
                // As io.archive_source's type auto reads it: the first item's kind (an event stream when unclear).
                const nlohmann::json first = items.empty() ? nlohmann::json() : nlohmann::json::parse(items.front().json, nullptr, false);
                lane.itemKind = first.is_object() && first.value("kind", "") == "scalar" ? "scalar" : "event";
                for (const ArchivedItem& item : items) {
                    if (lane.eventTimes.size() >= maxTicks) break;
                    lane.eventTimes.push_back(seconds(item.start));
                }
            }
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

}  // namespace isochron::ui
