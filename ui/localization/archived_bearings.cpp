#include "ui/localization/archived_bearings.h"

#include <cmath>
#include <cstdio>

#include "engine/archive/archive_store.h"
#include "ui/localization/archived_attributes.h"

namespace isochron::ui {
namespace {

std::string secondsText(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f s", seconds);
    return text;
}

}  // namespace

std::vector<BearingEvent> readArchivedBearings(const std::string& path, const std::string& stream, double fromSeconds, double toSeconds) {
    ArchiveStore store(path, ArchiveAccess::Read);
    const std::optional<ArchivedStreamInfo> info = store.stream(stream);
    if (!info) throw ArchiveError("archive '" + path + "' holds no stream '" + stream + "'");
    if (info->kind != ArchivedStreamInfo::Kind::Items) {
        throw ArchiveError("stream '" + stream + "' holds a signal, not events: localization events are the items a localizer emits");
    }
    const double rate = info->rateHz;
    const std::int64_t l = std::llround(fromSeconds * rate), h = std::llround(toSeconds * rate);
    const std::string interval = secondsText(fromSeconds) + " to " + secondsText(toSeconds);
    const std::vector<ArchivedItem> items = store.getItems(stream, l, h);
    if (items.empty()) throw ArchiveError("stream '" + stream + "' holds no events from " + interval);
    std::vector<BearingEvent> bearings;
    for (const ArchivedItem& item : items) {
        const ArchivedAttributes attribute(item.json);
        if (!attribute.has("azimuth_deg")) continue;
        BearingEvent e;
        e.startSeconds = static_cast<double>(item.start) / rate;
        e.endSeconds = static_cast<double>(item.start + item.length) / rate;
        e.azimuthDeg = attribute("azimuth_deg", 0);
        e.elevationDeg = attribute("elevation_deg", 0);
        e.confidence = attribute("confidence", 0);
        e.trackId = static_cast<int>(attribute("track_id", -1));
        bearings.push_back(e);
    }
    if (bearings.empty()) {
        throw ArchiveError("stream '" + stream + "' holds " + std::to_string(items.size()) + " item(s) from " + interval +
                           " but no localization event (an event with an azimuth_deg attribute, as a localizer emits)");
    }
    return bearings;
}

}  // namespace isochron::ui
