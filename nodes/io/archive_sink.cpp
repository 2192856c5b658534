#include "nodes/io/archive_sink.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "engine/operators/operator.h"
#include "engine/time/wall_clock.h"

namespace isochron {
namespace {

/// A scalar or event item as the JSON text the archive stores (docs/archive.md).
std::string itemJson(const Item& item) {
    nlohmann::json json;
    if (item.kind() == ItemKind::Scalar) {
        json["kind"] = "scalar";
        json["value"] = item.value();
    } else {
        json["kind"] = "event";
        json["label"] = item.event()->label();
        json["score"] = item.value();
        nlohmann::json attributes = nlohmann::json::object();
        for (const EventAttribute& attribute : item.event()->attributes()) attributes[attribute.name] = attribute.value;
        json["attributes"] = std::move(attributes);
    }
    return json.dump();
}

/// Appends what arrives to one archive stream, created at the first item with that item's timebase.
/// Pieces of a channel never overlap: the part of a segment before what the channel already stored
/// (an earlier run of the same stream, or a late item) is dropped and counted late. An archive that
/// cannot be opened or written disables this node only (the rest of the graph keeps running).
class ArchiveSink final : public Operator {
protected:
    void onActivate() override {
        streamName_ = params().getString("stream").empty() ? std::string(nodeId()) : params().getString("stream");
        commitNs_ = static_cast<TimeNs>(params().getReal("commit_s") * 1e9);
        recordsSignal_ = inputPort(0).type.kind == ItemKind::Signal;
        for (int port = 0; port < inputCount(); ++port) {
            const PortType& type = inputPort(port).type;
            const bool signal = type.kind == ItemKind::Signal;
            if (signal && type.sampleType != SampleType::Float32) {
                throw OperatorError("records f32 signals; input " + std::to_string(port) + " carries " +
                                    std::string(sampleTypeName(*type.sampleType)) + " (convert it first)");
            }
            if (!signal && type.kind != ItemKind::Scalar && type.kind != ItemKind::Event) {
                throw OperatorError("records f32 signals, scalars or events; input " + std::to_string(port) + " carries " + type.toString());
            }
            if (signal != recordsSignal_ || (!signal && inputCount() > 1)) {
                throw OperatorError("records one signal stream (any number of channels) or one scalar/event stream, not a mix");
            }
        }
        storedEnd_.assign(static_cast<std::size_t>(inputCount()), kNothingStored);
        try {
            store_ = std::make_unique<ArchiveStore>(params().getString("path"), ArchiveAccess::Record);
        } catch (const ArchiveError& e) {
            // Reported as this node's failure once data arrives (or at the end), not as a refusal to
            // start: recording is an addition that must not stop the graph it records.
            openProblem_ = e.what();
            warn(std::string(e.what()) + ": not recording");
        }
        lastCommitWallNs_ = wallClockNs();
    }

    void process(int port, Item&& item) override {
        requireOpenStore();
        try {
            if (recordsSignal_) record(port, item.signal<float>());
            else recordItem(item);
            commitWhenDue();
        } catch (const ArchiveError& e) {
            store_.reset();
            throw OperatorError(std::string(e.what()) + " (recording stopped)");
        }
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (store_) {
            try {
                commitWhenDue();
            } catch (const ArchiveError& e) {
                store_.reset();
                throw OperatorError(std::string(e.what()) + " (recording stopped)");
            }
        }
        return inputProgress;
    }

    void onFinish() override {
        requireOpenStore();
        try {
            store_->commit();
        } catch (const ArchiveError& e) {
            store_.reset();
            throw OperatorError(e.what());
        }
    }

    void onDeactivate() override {
        if (!store_) return;
        try {
            store_->commit();
        } catch (const ArchiveError& e) {
            warn(e.what());
        }
        store_.reset();
    }

private:
    static constexpr std::int64_t kNothingStored = std::numeric_limits<std::int64_t>::min();

    void requireOpenStore() const {
        if (!openProblem_.empty()) throw OperatorError(openProblem_);
    }

    /// The stream's id, creating it on the first item with `timebase`; later items must share it.
    std::int64_t streamFor(const Timebase& timebase) {
        if (!streamId_) {
            ArchivedStreamInfo info;
            info.name = streamName_;
            info.kind = recordsSignal_ ? ArchivedStreamInfo::Kind::Signal : ArchivedStreamInfo::Kind::Items;
            info.rateHz = timebase.rateHz();
            info.zeroTimeNs = timebase.zeroTimeNs();
            info.clock = timebase.clock().name();
            info.channels = recordsSignal_ ? inputCount() : 1;
            info.sampleType = recordsSignal_ ? "f32" : "json";
            info.units = params().getString("units");
            info.graph = params().getString("graph");
            info.node = std::string(nodeId());
            streamId_ = store_->openStream(info);
            timebase_ = &timebase;
            for (int channel = 0; channel < inputCount(); ++channel) {
                storedEnd_[static_cast<std::size_t>(channel)] = store_->storedEnd(streamName_, channel).value_or(kNothingStored);
            }
        } else if (&timebase != timebase_) {
            throw OperatorError("every item of stream '" + streamName_ + "' must share one timebase: " + timebase_->describe() + ", then " +
                                timebase.describe());
        }
        return *streamId_;
    }

    void record(int channel, const SigSeg<float>& samples) {
        const std::int64_t id = streamFor(*samples.timebase());
        std::int64_t& end = storedEnd_[static_cast<std::size_t>(channel)];
        const std::int64_t from = std::max(samples.startIndex(), end);
        if (from >= samples.endIndex()) {
            countLate(channel);
            return;
        }
        if (from > samples.startIndex()) countLate(channel);
        const SigSeg<float> fresh = from > samples.startIndex() ? samples.subseg(from, samples.endIndex() - from) : samples;
        store_->appendSamples(id, channel, from, fresh.materialize());
        end = fresh.endIndex();
        noteWritten(from, end);
    }

    void recordItem(const Item& item) {
        const SampleRange range = item.range();
        const std::int64_t id = streamFor(*range.timebase);
        store_->appendItem(id, range.start, range.length, itemJson(item));
        noteWritten(range.start, range.end());
    }

    /// Samples [start, end) of the stream went into the open transaction.
    void noteWritten(std::int64_t start, std::int64_t end) {
        if (!uncommitted_) uncommittedStart_ = start;
        uncommitted_ = true;
        latestEnd_ = std::max(latestEnd_, end);
    }

    /// Commit once `commit_s` of data (by the stream's sample indices) or of wall time has passed
    /// since the last commit, so a killed process loses at most about that much.
    void commitWhenDue() {
        if (!uncommitted_) return;
        const TimeNs now = wallClockNs();
        if (now - lastCommitWallNs_ < commitNs_ && timebase_->durationOf(latestEnd_ - uncommittedStart_) < commitNs_) return;
        store_->commit();
        lastCommitWallNs_ = now;
        uncommitted_ = false;
    }

    std::string streamName_;
    TimeNs commitNs_ = 0;
    bool recordsSignal_ = true;
    std::unique_ptr<ArchiveStore> store_;
    std::string openProblem_;  // why the archive could not be opened, or empty
    std::optional<std::int64_t> streamId_;
    const Timebase* timebase_ = nullptr;        // the stream's, from its first item
    std::vector<std::int64_t> storedEnd_;       // [channel]: one past the last sample stored
    bool uncommitted_ = false;                  // the open transaction holds data
    std::int64_t uncommittedStart_ = 0;             // sample index where the open transaction's data starts
    std::int64_t latestEnd_ = kNothingStored;   // the furthest sample index written, any channel
    TimeNs lastCommitWallNs_ = 0;
};

}  // namespace

OperatorDescriptor archiveSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.archive_sink";
    d.category = "io";
    d.summary = "Records a signal or a scalar/event stream into a stream archive (SQLite)";
    d.documentation =
        "Appends to the stream 'stream' of the archive file 'path' (created if missing; docs/archive.md): f32 signal "
        "inputs as one channel each (sample pieces keyed by channel and start index), or one scalar/event input as JSON "
        "rows. The stream's metadata (timebase, channels, units, this node) is stored with its first item; recording "
        "again into an existing stream appends after what it holds and needs the same timebase and channels. Data is "
        "committed every commit_s of data or of wall time, so a killed process loses at most about that much. An "
        "archive that cannot be opened or written fails this node with a message naming the file, while the rest of "
        "the graph keeps running.";
    d.inputs = {PortSpec{"in", PortType::any(), "channel k of an f32 signal, or one scalar/event stream", false, "channels"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "archive file (SQLite) to record into"},
        ParamSpec{"stream", ParamKind::String, std::string(), {}, {}, "", "name of the stream in the archive; empty = this node's id"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "", "signal inputs (channels); 1 for a scalar/event stream"},
        ParamSpec{"units", ParamKind::String, std::string(), {}, {}, "", "units of the values, stored with the stream (e.g. Pa); may be empty"},
        ParamSpec{"graph", ParamKind::String, std::string(), {}, {}, "", "name of the graph that produces the stream, stored with it; may be empty"},
        ParamSpec{"commit_s", ParamKind::Real, 0.5, 0.01, 10.0, "s", "data (or wall time) per transaction: the most a crash loses"},
    };
    d.create = [] { return std::make_unique<ArchiveSink>(); };
    return d;
}

}  // namespace isochron
