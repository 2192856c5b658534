#include "ui/run/live_recording.h"

#include <chrono>
#include <cmath>

#include "engine/time/timebase.h"
#include "nodes/io/archive_item_json.h"

namespace isochron::ui {
namespace {

// How often the writer thread looks at the taps: a few blocks of a paced source; the rings hold far more.
constexpr std::chrono::milliseconds kDrainInterval{10};

}  // namespace

LiveRecording::LiveRecording(std::string path, ArchivedStreamInfo info, ArchiveWriter::Options options, double keepHours, double liveSeconds)
    : path_(std::move(path)), info_(std::move(info)), options_(std::move(options)), keepHours_(keepHours), liveSeconds_(liveSeconds) {
    store_ = std::make_unique<ArchiveStore>(path_, ArchiveAccess::Record);
    for (int channel = 0; channel < info_.channels; ++channel) taps_.push_back(std::make_shared<RecordTap>());
    thread_ = std::thread([this] { run(); });
}

LiveRecording::~LiveRecording() {
    if (!ended_) end();
}

std::optional<std::string> LiveRecording::end() {
    ended_ = true;
    {
        std::lock_guard lock(mutex_);
        ending_ = true;
    }
    wake_.notify_all();
    thread_.join();
    return writer_ ? writer_->close() : std::nullopt;
}

std::optional<std::string> LiveRecording::problem() const {
    std::lock_guard lock(mutex_);
    if (problem_) return problem_;
    if (std::optional<std::string> writing = writer_ ? writer_->problem() : std::nullopt) return writing;
    // A full ring drops segments rather than stall the engine: the archive then has gaps, which a
    // user must hear of, not find later.
    std::uint64_t dropped = 0;
    for (const auto& tap : taps_) dropped += tap->dropped();
    if (dropped == 0) return std::nullopt;
    return "the recording of '" + path_ + "' fell behind the wire: " + std::to_string(dropped) +
           (info_.kind == ArchivedStreamInfo::Kind::Signal ? " segment(s) were not stored, so the archive has gaps there"
                                                           : " item(s) were not stored, so the archive misses them") +
           " (a slow disk? record from the next start instead)";
}

void LiveRecording::fail(std::string why) {
    std::lock_guard lock(mutex_);
    if (!problem_) problem_ = std::move(why);
}

void LiveRecording::run() {
    for (;;) {
        bool ending = false;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, kDrainInterval, [this] { return ending_; });
            ending = ending_;
        }
        const bool recording = drain();  // at the end too: what the taps still hold is written
        if (ending || !recording) break;
    }
    if (writer_) writer_->flush();
}

bool LiveRecording::drain() {
    for (std::size_t channel = 0; channel < taps_.size(); ++channel) {
        Item item;
        while (taps_[channel]->take(item)) {
            const SampleRange range = item.range();
            if (range.length == 0 && item.kind() == ItemKind::Signal) continue;
            if (item.kind() != ItemKind::Signal && !archivePersists(item)) continue;
            const Timebase& timebase = *range.timebase;
            if (writer_ && &timebase != timebase_) {
                fail("every channel of stream '" + info_.name + "' must share one timebase: channel " + std::to_string(channel) + " brought " +
                     timebase.describe() + " after " + timebase_->describe() + "; record each rate with its own wire");
                return false;
            }
            if (!writer_ && !openWriter(timebase)) return false;
            const bool queued = item.kind() == ItemKind::Signal ? writer_->pushSamples(static_cast<int>(channel), range.start, item.takeSignal<float>())
                                                                : writer_->pushItem(range.start, range.length, archivedItemJson(item));
            if (!queued) return false;
        }
    }
    return true;
}

bool LiveRecording::openWriter(const Timebase& timebase) {
    timebase_ = &timebase;
    ArchivedStreamInfo info = info_;
    info.rateHz = timebase.rateHz();
    info.zeroTimeNs = timebase.zeroTimeNs();
    info.clock = timebase.clock().name();
    try {
        if (std::optional<std::string> conflict = store_->conflictWith(info)) {
            fail(*conflict);
            return false;
        }
        options_.keepSamples = static_cast<std::int64_t>(std::ceil(keepHours_ * 3600 * timebase.rateHz()));
        options_.liveSamples = static_cast<std::int64_t>(std::ceil(liveSeconds_ * timebase.rateHz()));
        writer_ = std::make_unique<ArchiveWriter>(std::move(store_), std::move(info), options_);
    } catch (const std::exception& e) {
        fail(e.what());
        return false;
    }
    return true;
}

}  // namespace isochron::ui
