#include "ui/localization/archived_tracks.h"

#include <cmath>

#include "engine/archive/archive_store.h"
#include "ui/localization/archived_attributes.h"

namespace isochron::ui {
namespace {

constexpr std::string_view kEventsPort = ".events";

/// Calls `take(seconds, attributes)` for every event item of the item stream `name` starting in
/// [fromSeconds, toSeconds); false when the archive holds no such item stream.
template <class Take>
bool forEachEvent(ArchiveStore& store, const std::string& name, double fromSeconds, double toSeconds, const Take& take) {
    const std::optional<ArchivedStreamInfo> info = store.stream(name);
    if (!info || info->kind != ArchivedStreamInfo::Kind::Items) return false;
    const double rate = info->rateHz;
    for (const ArchivedItem& item : store.getItems(name, std::llround(fromSeconds * rate), std::llround(toSeconds * rate))) {
        const ArchivedAttributes attributes(item.json);
        if (attributes.isEvent()) take(static_cast<double>(item.start) / rate, attributes);
    }
    return true;
}

}  // namespace

std::optional<TrackerStreams> trackerStreamsOf(const std::string& eventsStream) {
    if (eventsStream.size() <= kEventsPort.size() || !eventsStream.ends_with(kEventsPort)) return std::nullopt;
    const std::string tracker = eventsStream.substr(0, eventsStream.size() - kEventsPort.size());
    return TrackerStreams{tracker + ".tracks", tracker + ".background"};
}

ArchivedTracks readArchivedTracks(const std::string& path, const TrackerStreams& streams, double fromSeconds, double toSeconds) {
    ArchiveStore store(path, ArchiveAccess::Read);
    ArchivedTracks read;
    read.tracksRecorded = forEachEvent(store, streams.tracks, fromSeconds, toSeconds, [&](double seconds, const ArchivedAttributes& attributes) {
        read.points.push_back(trackPointOf(seconds, 0, attributes));
    });
    read.backgroundRecorded =
        forEachEvent(store, streams.background, fromSeconds, toSeconds, [&](double seconds, const ArchivedAttributes& attributes) {
            read.background.push_back(backgroundPointOf(seconds, 0, attributes));
        });
    return read;
}

}  // namespace isochron::ui
