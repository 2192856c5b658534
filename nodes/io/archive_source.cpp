#include "nodes/io/archive_source.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "engine/items/event_record.h"
#include "engine/operators/operator.h"
#include "engine/time/wall_clock.h"
#include "nodes/io/block_pacer.h"
#include "nodes/spatial/array_geometry.h"
#include "nodes/spatial/channel_geometry.h"

namespace isochron {
namespace {

/// The recorded stream `name` of `store` (else ArchiveError).
ArchivedStreamInfo recordedStream(ArchiveStore& store, const std::string& name) {
    const std::optional<ArchivedStreamInfo> info = store.stream(name);
    if (info) return *info;
    std::string held;
    for (const ArchivedStreamInfo& stream : store.streams()) held += (held.empty() ? "" : ", ") + stream.name;
    throw ArchiveError("archive '" + store.path() + "' holds no stream '" + name + "' (" + (held.empty() ? "it holds none" : "it holds: " + held) + ")");
}

/// What the replay's outputs carry: signal<f32>, or for an item stream the kind of its first stored
/// item (event or scalar; event when it holds none).
std::string replayedType(ArchiveStore& store, const ArchivedStreamInfo& info) {
    if (info.kind == ArchivedStreamInfo::Kind::Signal) return "signal<f32>";
    const std::optional<std::int64_t> first = store.storedStart(info.name);
    if (!first) return "event";
    const std::vector<ArchivedItem> items = store.getItems(info.name, *first, *first + 1);
    return !items.empty() && nlohmann::json::parse(items.front().json, nullptr, false).value("kind", "") == "scalar" ? "scalar" : "event";
}

/// OperatorDescriptor::channelsOut: output k is labelled "ch k" and placed at mic k of `geometry` when
/// it is given (one mic per output), else at mic k of the geometry the archive stores with the stream
/// (so an array operator downstream needs none of its own), else not placed. An archive or stream
/// that cannot be read leaves them unplaced: the replay's start refuses it. [setup thread]
std::vector<ChannelLayout> replayedChannels(const ParamSet& params, const std::vector<ChannelLayout>& inputs, std::size_t outputs) {
    if (params.getString("type") != "signal<f32>") {
        if (!params.getString("geometry").empty()) throw ParameterError("geometry", "places the channels of a signal stream; this node replays " + params.getString("type") + " items");
        return std::vector<ChannelLayout>(outputs);
    }
    std::vector<ChannelLayout> channels = placedSourceChannels(params, inputs, outputs);
    if (!params.getString("geometry").empty()) return channels;
    std::optional<ArchivedStreamInfo> info;
    try {
        ArchiveStore store(params.getString("path"), ArchiveAccess::Read);
        info = store.stream(params.getString("stream"));
    } catch (const ArchiveError&) {
        return channels;
    }
    if (!info || info->geometry.empty()) return channels;
    ArrayGeometry stored;
    try {
        stored = loadGeometry(info->geometry);
    } catch (const std::invalid_argument& e) {
        throw ParameterError("geometry", "the geometry stored with stream '" + info->name + "' cannot be read (" + e.what() +
                                             "): give the array's geometry here (a preset such as square4:0.2, or a JSON file)");
    }
    for (std::size_t k = 0; k < outputs && k < stored.mics.size(); ++k) {
        const Eigen::Vector3d& p = stored.mics[k];
        channels[k][0].position = std::array<double, 3>{p.x(), p.y(), p.z()};
    }
    return channels;
}

/// A JSON number, or NaN for null (how the archive stores a NaN).
double numberOr(const nlohmann::ordered_json& value) { return value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN(); }

/// The stored item as the item io.archive_sink recorded (docs/archive.md: kind, label, score,
/// attributes / value), over its recorded range on `timebase`. Throws OperatorError for malformed JSON
/// or an item of another kind than `kind`.
Item replayedItem(const ArchivedItem& stored, const Timebase* timebase, ItemKind kind) {
    // Ordered: the attributes come back in the order they were stored (the producer's).
    const nlohmann::ordered_json json = nlohmann::ordered_json::parse(stored.json, nullptr, false);
    const std::string storedKind = json.is_object() ? json.value("kind", "") : "";
    const SampleRange range{timebase, stored.start, stored.length};
    if (kind == ItemKind::Scalar && storedKind == "scalar") return Item::scalar(numberOr(json["value"]), range);
    if (kind == ItemKind::Event && storedKind == "event" && json["label"].is_string() && json["attributes"].is_object()) {
        EventRecord* record = EventRecord::create(json["label"].get<std::string>());
        for (const auto& [name, value] : json["attributes"].items()) record->set(name, numberOr(value));
        return Item::event(record, range, numberOr(json["score"]));
    }
    throw OperatorError("the item stored at sample " + std::to_string(stored.start) + " is not " +
                        (kind == ItemKind::Scalar ? "a scalar" : "an event") + " as io.archive_sink stores them: " + stored.json.substr(0, 200));
}

/// Replays samples [from, to) of a recorded stream: the interval is cut into blocks (BlockPacer,
/// positions counted from `from`), and each block emits, per channel, the stored pieces inside it on
/// the stream's own timebase; what was not stored is not emitted (a gap in the indices), so the
/// replay is sample-exact what was recorded. An item stream's block emits the items starting in it,
/// in start order, as the scalars or events they were.
class ArchiveSource final : public Operator {
protected:
    void onActivate() override {
        try {
            store_ = std::make_unique<ArchiveStore>(params().getString("path"), ArchiveAccess::Read);
            streamName_ = params().getString("stream");
            const ArchivedStreamInfo info = recordedStream(*store_, streamName_);
            replaysItems_ = info.kind == ArchivedStreamInfo::Kind::Items;
            const std::string type = replayedType(*store_, info);
            if (params().getString("type") != type) {
                throw OperatorError("stream '" + streamName_ + "' replays as " + type + ", not " + params().getString("type") + " (type auto reads it from the archive)");
            }
            itemKind_ = type == "scalar" ? ItemKind::Scalar : ItemKind::Event;
            if (info.channels < outputCount()) {
                throw OperatorError("stream '" + streamName_ + "' has " + std::to_string(info.channels) + " channel(s), fewer than the " +
                                    std::to_string(outputCount()) + " asked for");
            }
            timebase_ = &info.timebase();
            from_ = std::llround(params().getReal("from") * info.rateHz);
            std::int64_t to = from_;
            if (params().getReal("duration") > 0) {
                to = from_ + std::llround(params().getReal("duration") * info.rateHz);
            } else {
                for (int channel = 0; channel < outputCount(); ++channel) to = std::max(to, store_->storedEnd(streamName_, channel).value_or(from_));
            }
            if (to == from_) warn("stream '" + streamName_ + "' holds nothing from " + std::to_string(params().getReal("from")) + " s on");

            BlockPacerSettings settings = pacingSettingsFrom(params());
            settings.rateHz = info.rateHz;
            settings.blockLength = params().getInt("block");
            // Items are read 10 ms of their timebase at a time, so a paced replay keeps their pace.
            if (replaysItems_) settings.blockLength = std::clamp<std::int64_t>(std::llround(info.rateHz * 0.01), 1, settings.blockLength);
            settings.totalLength = to - from_;
            pacer_.configure(settings);
        } catch (const ArchiveError& e) {
            throw OperatorError(e.what());
        }
    }

    bool followsWallClock() const override { return pacer_.paced(); }

    SourceStatus onProduce() override {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) warn("fell more than max_lag behind the pace: dropped " + std::to_string(dropped) + " samples per channel");
        while (!pacer_.roundOver() && admissionOpen()) {
            const std::optional<DueBlock> block = pacer_.nextBlock();
            if (!block) break;
            try {
                if (replaysItems_) emitItems(*block);
                else emitSamples(*block);
            } catch (const ArchiveError& e) {
                throw OperatorError(e.what());
            }
            if (block->progressDue) emitProgress(timebase_->timeOf(from_ + block->end()));
        }
        return pacer_.endRound();
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace") pacer_.changePace(params().getReal("pace"));
    }

    void onDeactivate() override { store_.reset(); }

private:
    /// An item stream's block: the items starting in it, as they were recorded.
    void emitItems(const DueBlock& block) {
        for (const ArchivedItem& stored : store_->getItems(streamName_, from_ + block.start, from_ + block.end())) {
            Item item = replayedItem(stored, timebase_, itemKind_);
            item.setArrivalNs(block.arrivalNs);
            emit(0, std::move(item));
        }
    }
    /// A signal stream's block: per channel, the stored pieces inside it (gaps are not emitted).
    void emitSamples(const DueBlock& block) {
        for (int channel = 0; channel < outputCount(); ++channel) {
            for (ArchivedPiece& piece : store_->get(streamName_, channel, from_ + block.start, from_ + block.end())) {
                if (piece.isGap()) continue;
                Item item = Item::signal(std::move(piece.samples));
                item.setArrivalNs(block.arrivalNs);
                emit(channel, std::move(item));
            }
        }
    }

    std::unique_ptr<ArchiveStore> store_;
    std::string streamName_;
    const Timebase* timebase_ = nullptr;  // the stream's, as recorded
    std::int64_t from_ = 0;               // sample index of the interval's start
    bool replaysItems_ = false;           // a scalar/event stream, else a signal
    ItemKind itemKind_ = ItemKind::Event; // what an item stream's items are
    BlockPacer pacer_;
};

}  // namespace

OperatorDescriptor archiveSourceDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.archive_source";
    d.category = "io";
    d.summary = "Replays an interval of a signal, scalar or event stream recorded in a stream archive, exactly";
    d.documentation =
        "Reads the stream 'stream' of the archive 'path' (docs/archive.md) over [from, from + duration) (seconds: "
        "sample index / rate on the stream's timebase) and emits channel k on output k with the recorded timebase and "
        "sample indices. Stretches that were not recorded are not emitted (a gap in the indices, never stitched). "
        "A scalar or event stream replays on one output as the items it recorded (label, score, attributes, or value, "
        "over the recorded sample range), in start order, read 10 ms of the stream's timebase at a time. "
        "Pace 0 replays as fast as possible, pace 1 at the recorded pace. A signal stream's channels carry the mic "
        "positions the archive stores with it (or 'geometry' gives), so an array operator downstream needs no geometry of its own.";
    d.outputs = {PortSpec{"out", PortType::any(), "channel k of the stream (an item stream: its items, on out0)", false, "channels", "", "type"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "archive file (SQLite) to read"},
        ParamSpec{"stream", ParamKind::String, std::string(), {}, {}, "", "name of the recorded stream (signal, event or scalar)"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 0.0, 1024.0, "",
                  "outputs: the stream's first N channels; 0 = as many as the stream has (read from the archive); an item stream has 1"},
        ParamSpec{"type", ParamKind::Choice, std::string("auto"), {}, {}, "",
                  "what the stream holds: auto = read from the archive (signal<f32>, event or scalar)", {"auto", "signal<f32>", "event", "scalar"}},
        ParamSpec{"from", ParamKind::Real, 0.0, {}, {}, "s", "start of the interval (sample index / rate)"},
        ParamSpec{"duration", ParamKind::Real, 0.0, 0.0, {}, "s", "length of the interval; 0 = up to the end of what is stored"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{4096}, 1.0, {}, "samples", "samples per emitted block per channel (at most; items: at most 10 ms)"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) d.params.push_back(std::move(spec));
    d.params.push_back(ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "",
                                 "where the channels' mics are: a JSON file {\"mics\": [[x, y, z], ...]} in metres or a preset such as "
                                 "square4:0.2, one mic per output; empty = the geometry the archive stores with the stream (isochron-archive "
                                 "info shows it), if any. The positions follow the channels downstream, so an array operator there needs no "
                                 "geometry of its own"});
    d.channelsOut = replayedChannels;
    d.create = [] { return std::make_unique<ArchiveSource>(); };
    // The archive is read at validation, so that --check refuses what the start would: channels and
    // type are compared with the stored stream (and read from it when 0 / auto).
    d.deriveParams = [](ParamSet& params) {
        refuseUnusablePace(params);
        const bool readChannels = params.getInt("channels") == 0, readType = params.getString("type") == "auto";
        ArchivedStreamInfo info;
        std::string type;
        try {
            ArchiveStore store(params.getString("path"), ArchiveAccess::Read);
            info = recordedStream(store, params.getString("stream"));
            type = replayedType(store, info);
        } catch (const ArchiveError& e) {
            // Both given: the stream may be one another node of the run records; its start says what is missing.
            if (!readChannels && !readType) return;
            const std::string read = readChannels && readType ? "channels 0 and type auto are" : readChannels ? "channels 0 is" : "type auto is";
            throw ParameterError("path", std::string(e.what()) + " (" + read + " read from the archive)");
        }
        if (readChannels) params.set("channels", static_cast<std::int64_t>(info.channels));
        if (readType) params.set("type", type);
        if (params.getString("type") != type) {
            throw ParameterError("type", "stream '" + info.name + "' replays as " + type + ", not " + params.getString("type") + ": set type to " + type +
                                             " or auto (read from the archive)");
        }
        if (params.getInt("channels") > info.channels) {
            throw ParameterError("channels", "stream '" + info.name + "' has " + std::to_string(info.channels) + " channel(s), fewer than the " +
                                                 std::to_string(params.getInt("channels")) + " asked for: set channels to at most " +
                                                 std::to_string(info.channels) + ", or 0 (as many as it has)");
        }
    };
    return d;
}

}  // namespace isochron
