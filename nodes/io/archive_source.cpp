#include "nodes/io/archive_source.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "engine/archive/archive_store.h"
#include "engine/operators/operator.h"
#include "engine/time/wall_clock.h"
#include "nodes/io/block_pacer.h"

namespace isochron {
namespace {

/// The recorded stream `name` of `store`, which must be a signal stream (else ArchiveError).
ArchivedStreamInfo signalStream(ArchiveStore& store, const std::string& name) {
    const std::optional<ArchivedStreamInfo> info = store.stream(name);
    if (!info) throw ArchiveError("archive '" + store.path() + "' holds no stream '" + name + "'");
    if (info->kind != ArchivedStreamInfo::Kind::Signal) {
        throw ArchiveError("stream '" + name + "' of archive '" + store.path() + "' holds scalars/events; io.archive_source replays signals");
    }
    return *info;
}

/// Replays samples [from, to) of a recorded signal stream: the interval is cut into blocks (BlockPacer,
/// positions counted from `from`), and each block emits, per channel, the stored pieces inside it on
/// the stream's own timebase; what was not stored is not emitted (a gap in the indices), so the
/// replay is sample-exact what was recorded.
class ArchiveSource final : public Operator {
protected:
    void onActivate() override {
        try {
            store_ = std::make_unique<ArchiveStore>(params().getString("path"), ArchiveAccess::Read);
            streamName_ = params().getString("stream");
            const ArchivedStreamInfo info = signalStream(*store_, streamName_);
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
            settings.totalLength = to - from_;
            pacer_.configure(settings);
        } catch (const ArchiveError& e) {
            throw OperatorError(e.what());
        }
    }

    SourceStatus onProduce() override {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) warn("fell more than max_lag behind the pace: dropped " + std::to_string(dropped) + " samples per channel");
        while (admissionOpen()) {
            const std::optional<DueBlock> block = pacer_.nextBlock();
            if (!block) break;
            try {
                for (int channel = 0; channel < outputCount(); ++channel) {
                    for (ArchivedPiece& piece : store_->get(streamName_, channel, from_ + block->start, from_ + block->end())) {
                        if (piece.isGap()) continue;
                        Item item = Item::signal(std::move(piece.samples));
                        item.setArrivalNs(block->arrivalNs);
                        emit(channel, std::move(item));
                    }
                }
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
    std::unique_ptr<ArchiveStore> store_;
    std::string streamName_;
    const Timebase* timebase_ = nullptr;  // the stream's, as recorded
    std::int64_t from_ = 0;               // sample index of the interval's start
    BlockPacer pacer_;
};

}  // namespace

OperatorDescriptor archiveSourceDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.archive_source";
    d.category = "io";
    d.summary = "Replays an interval of a signal stream recorded in a stream archive, sample-exact";
    d.documentation =
        "Reads the stream 'stream' of the archive 'path' (docs/archive.md) over [from, from + duration) (seconds: "
        "sample index / rate on the stream's timebase) and emits channel k on output k with the recorded timebase and "
        "sample indices. Stretches that were not recorded are not emitted (a gap in the indices, never stitched). "
        "Pace 0 replays as fast as possible, pace 1 at the recorded pace.";
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel k of the stream", false, "channels"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "archive file (SQLite) to read"},
        ParamSpec{"stream", ParamKind::String, std::string(), {}, {}, "", "name of the recorded signal stream"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 0.0, 1024.0, "",
                  "outputs: the stream's first N channels; 0 = as many as the stream has (read from the archive)"},
        ParamSpec{"from", ParamKind::Real, 0.0, {}, {}, "s", "start of the interval (sample index / rate)"},
        ParamSpec{"duration", ParamKind::Real, 0.0, 0.0, {}, "s", "length of the interval; 0 = up to the end of what is stored"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{4096}, 1.0, {}, "samples", "samples per emitted block per channel (at most)"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) d.params.push_back(std::move(spec));
    d.create = [] { return std::make_unique<ArchiveSource>(); };
    d.deriveParams = [](ParamSet& params) {
        if (params.getInt("channels") != 0) return;
        try {
            ArchiveStore store(params.getString("path"), ArchiveAccess::Read);
            params.set("channels", static_cast<std::int64_t>(signalStream(store, params.getString("stream")).channels));
        } catch (const ArchiveError& e) {
            throw ParameterError("path", std::string(e.what()) + " (channels 0 takes the channel count from the archive)");
        }
    };
    return d;
}

}  // namespace isochron
