#include "nodes/io/archive_sink.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/archive/archive_store.h"
#include "engine/archive/archive_triggers.h"
#include "engine/archive/archive_writer.h"
#include "engine/archive/live_streams.h"
#include "engine/graph/node_surroundings.h"
#include "engine/items/event_record.h"
#include "engine/operators/operator.h"
#include "engine/operators/operator_error_in_hook.h"
#include "engine/runtime/data_at_risk_warning.h"
#include "engine/time/wall_clock.h"
#include "nodes/io/archive_downsampler.h"
#include "nodes/io/archive_item_json.h"
#include "nodes/io/output_path.h"
#include "nodes/spatial/array_geometry.h"

namespace isochron {
namespace {

/// Why an io.archive_sink cannot record inputs of these types (the same rule at validation and at
/// its start), naming the input, or nothing. `types[i]` is input i's; wildcards (unconnected) pass.
std::optional<InputPortError> unrecordableInputs(const std::vector<std::pair<std::string, PortType>>& types) {
    std::optional<bool> recordsSignal;
    for (const auto& [port, type] : types) {
        if (!type.kind) continue;
        const bool signal = *type.kind == ItemKind::Signal;
        if (signal && type.sampleType && *type.sampleType != SampleType::Float32) {
            return InputPortError(port, "records f32 signals; input " + port + " carries " + type.toString() + " (convert it to f32 first)");
        }
        if (!signal && *type.kind != ItemKind::Scalar && *type.kind != ItemKind::Event) {
            return InputPortError(port, "records f32 signals, scalars or events; input " + port + " carries " + type.toString() +
                                            ": record the signal it is computed from (a replay recomputes it), or feed this input a signal, scalar or event stream");
        }
        if (recordsSignal && (signal != *recordsSignal || !signal)) {
            return InputPortError(port, "records one signal stream (any number of channels) or one scalar/event stream, not a mix: input " + port + " carries " +
                                            type.toString() + "; record it with another io.archive_sink");
        }
        recordsSignal = signal;
    }
    return std::nullopt;
}

/// The rate of the signal a source with a rate parameter in Hz (a generator, an audio input) emits, or nothing.
std::optional<double> statedRate(const InputFeeder& feeder) {
    if (!feeder.id || !feeder.descriptor->isSource()) return std::nullopt;
    const ParamSpec* rate = feeder.descriptor->findParam("rate");
    if (!rate || rate->kind != ParamKind::Real || rate->unit != "Hz") return std::nullopt;
    return feeder.params->getReal("rate");
}

/// Throws ParameterError on "stream" when the archive already holds the stream this node records
/// ("stream", its id when empty) as another kind, channel count or rate than `inputs` (rate: `rate`,
/// when a feeder states it) would record: the run would fail this node at its first item. An archive
/// that does not exist or cannot be read yet passes (the start says what is wrong with it).
void refuseStoredStreamConflict(const ParamSet& params, const std::vector<ResolvedPort>& inputs, std::optional<double> rate) {
    const std::string& path = params.getString("path");
    const std::string& name = params.getString("stream");
    std::error_code error;
    if (inputs.empty() || !inputs.front().type.kind || name.empty() || !std::filesystem::is_regular_file(path, error) ||
        std::filesystem::file_size(path, error) == 0) {
        return;
    }
    std::optional<ArchivedStreamInfo> stored;
    try {
        ArchiveStore store(path, ArchiveAccess::Read);
        stored = store.stream(name);
    } catch (const ArchiveError&) {
        return;
    }
    if (!stored) return;
    const bool signal = *inputs.front().type.kind == ItemKind::Signal;
    const int channels = signal ? static_cast<int>(inputs.size()) : 1;
    const bool sameKind = (stored->kind == ArchivedStreamInfo::Kind::Signal) == signal;
    const bool sameRate = !signal || !rate || stored->originalRate() == *rate;
    if (sameKind && stored->channels == channels && sameRate) return;
    std::ostringstream text;
    text << "archive '" << path << "' already holds a stream '" << name << "' (" << (stored->kind == ArchivedStreamInfo::Kind::Signal ? "signal, " : "items, ")
         << stored->originalRate() << " Hz, " << stored->channels << " channel(s), " << stored->sampleType << ") that differs from the one this node records ("
         << (signal ? "signal, " : "items, ");
    if (signal && rate) text << *rate << " Hz, ";
    text << channels << " channel(s), " << (signal ? "f32" : "json") << "): a stream keeps one timebase and channel count, so the run would refuse "
         << "it at the first item. Record into another stream (parameter 'stream') or another file (parameter 'path')";
    throw ParameterError("stream", text.str());
}

}  // namespace

void checkArchiveSinkInputs(const ParamSet& params, const std::vector<ResolvedPort>& inputs, const std::vector<InputFeeder>& feeders) {
    std::vector<std::pair<std::string, PortType>> types;
    for (const ResolvedPort& input : inputs) types.emplace_back(input.name, input.type);
    if (std::optional<InputPortError> refusal = unrecordableInputs(types)) throw *refusal;
    std::optional<std::size_t> first;  // the first signal input whose rate is known
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const std::optional<double> rate = inputs[i].type.kind == ItemKind::Signal ? statedRate(feeders[i]) : std::nullopt;
        if (!rate) continue;
        if (!first) {
            first = i;
            continue;
        }
        const double firstRate = *statedRate(feeders[*first]);
        if (*rate == firstRate) continue;
        std::ostringstream text;
        text << "input " << inputs[i].name << " carries " << *rate << " Hz (from node '" << *feeders[i].id << "'), input " << inputs[*first].name << " "
             << firstRate << " Hz (from node '" << *feeders[*first].id << "'): the channels of one stream share one timebase. Resample "
             << inputs[i].name << " to " << firstRate << " Hz first (resample.to_rate), or record each rate with its own io.archive_sink";
        throw InputPortError(inputs[i].name, text.str());
    }
    refuseStoredStreamConflict(params, inputs, first ? statedRate(feeders[*first]) : std::nullopt);
}

namespace {

/// Records what arrives into one archive stream through an ArchiveWriter (a thread of its own does
/// the disk work). Pieces of a channel never overlap: the part of a segment before what earlier runs
/// stored of the stream is dropped, with one warning naming the stream and its stored end (so is an
/// item that starts before what earlier runs stored of an item stream); the part before what this run
/// already queued (a late item) is dropped and counted late. What another recorder of the stream
/// (another process or sink, recording at the same time) stored first is dropped by the writer at
/// each commit (ArchiveWriter), with one warning naming the file, the stream and the interval.
/// A path that is no file to record into (refuseUnrecordableArchive) refuses the start; an archive
/// that then cannot be opened or written stops recording and fails this node only (the rest of the
/// graph keeps running). A writer `queue_mb` behind holds the graph up until it has made room when
/// when_behind is wait, or auto in a run whose sources all emit as fast as possible (an import:
/// nothing is lost by waiting); else (a live or paced run) it stops recording and fails this node.
class ArchiveSink final : public Operator {
public:
    HeldState heldState() const override {
        HeldState held;
        if (writer_) held.bytes = std::max(writer_->pendingBytes(), writer_->liveWindow()->heldBytes());
        return held;
    }

protected:
    void onActivate() override {
        streamName_ = params().getString("stream").empty() ? std::string(nodeId()) : params().getString("stream");
        recordsSignal_ = inputPort(0).type.kind == ItemKind::Signal;
        std::vector<std::pair<std::string, PortType>> types;
        for (int port = 0; port < inputCount(); ++port) types.emplace_back(inputPort(port).name, inputPort(port).type);
        if (std::optional<InputPortError> refusal = unrecordableInputs(types)) throw OperatorError(refusal->what());
        downsampleFactor_ = params().getString("representation") == "downsample" ? params().getInt("downsample_factor") : 1;
        if (downsampleFactor_ > 1 && !recordsSignal_) throw OperatorError("representation 'downsample' is for signals; this node records items");
        storedEnd_.assign(static_cast<std::size_t>(inputCount()), kNothingStored);
        storedBefore_ = storedEnd_;
        alreadyStoredWarned_ = false;
        storedElsewhereReported_ = false;
        // What the file is refuses the start (like a sound file sink's path): a folder, a pipe, a
        // missing folder, another application's database (it gained the archive's tables).
        try {
            refuseUnrecordableArchive(params().getString("path"));
        } catch (const ArchiveError& e) {
            throw OperatorError(e.what());
        }
        // So does a file or folder this user cannot write (a read-only file system): SQLite writes
        // the archive and creates its journal files beside it.
        try {
            refuseUnwritableOutput(params().getString("path"));
        } catch (const std::runtime_error& e) {
            throw OperatorError(e.what());
        }
        try {
            store_ = std::make_unique<ArchiveStore>(params().getString("path"), ArchiveAccess::Record);
            if (store_->stream(streamName_)) {
                for (int channel = 0; channel < inputCount(); ++channel) {
                    // In input samples: a stored sample m stands for input sample m x factor.
                    const std::optional<std::int64_t> end = store_->storedEnd(streamName_, channel);
                    storedEnd_[static_cast<std::size_t>(channel)] = end ? *end * downsampleFactor_ : kNothingStored;
                }
            }
            storedBefore_ = storedEnd_;
        } catch (const ArchiveError& e) {
            // Reported as this node's failure once data arrives (or at the end), not as a refusal to
            // start: recording is an addition that must not stop the graph it records (a disk that
            // fails now may work for the rest of the graph).
            store_.reset();
            openProblem_ = std::string(e.what()) + "; not recording";
            warn(openProblem_);
        }
    }

    void process(int port, Item&& item) override {
        requireRecording();
        if (recordsSignal_) record(port, item.signal<float>());
        else recordItem(item);
        announceCommits();
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        if (!writer_) return inputProgress;
        requireRecording();
        announceCommits();
        if (outputCount() == 0) return inputProgress;
        // The next announcement starts at the last one's end, or (none yet) at or after the earliest
        // sample queued; nothing queued yet: at or after the input's progress.
        if (announced_) return std::min(inputProgress, timebase_->timeOf(*announced_));
        if (lowestQueued_ != kNothingStored) return std::min(inputProgress, timebase_->timeOf(lowestQueued_));
        return inputProgress;
    }

    void onFinish() override {
        requireRecording();
        for (ArchiveDownsampler& downsampler : downsamplers_) downsampler.finish();
        requireRecording();
        if (writer_) writer_->flush();
        requireRecording();
        announceCommits();
    }

    void onDeactivate() override {
        downsamplers_.clear();
        livePublished_.reset();
        if (writer_) {
            // A run stopped early (no onFinish): what is still queued is committed now, and a commit
            // that fails is said, not lost in silence.
            writer_->flush();
            if (std::optional<std::string> problem = writer_->problem(); problem && !problemReported_) warn(*problem);
            reportStoredElsewhere();
            if (std::optional<std::string> unfolded = writer_->close()) warn(dataAtRiskWarning(*unfolded));
        }
        writer_.reset();
        store_.reset();
    }

private:
    static constexpr std::int64_t kNothingStored = std::numeric_limits<std::int64_t>::min();

    /// Throws this node's failure once recording has stopped (or never started). The writer's thread
    /// failed, not the hook that notices it: its message says what happened, without "(in process)".
    void requireRecording() {
        if (!openProblem_.empty()) throw OperatorErrorInHook(openProblem_);
        if (writer_) {
            if (std::optional<std::string> problem = writer_->problem()) {
                problemReported_ = true;
                throw OperatorErrorInHook(*problem);
            }
        }
    }

    /// Says once that what arrives before `storedEnd` (sample index on the input's timebase) of
    /// `channel` is dropped because an earlier recording of the stream holds it.
    void warnAlreadyStored(int channel, std::int64_t storedEnd) {
        if (alreadyStoredWarned_) return;
        alreadyStoredWarned_ = true;
        const std::string what = recordsSignal_ ? "samples of channel " + std::to_string(channel) : std::string("items");
        std::ostringstream end;
        end << static_cast<double>(storedEnd) / inputTimebase_->rateHz();
        warn("archive '" + params().getString("path") + "' already holds stream '" + streamName_ + "' up to " + end.str() +
             " s (sample " + std::to_string(storedEnd) + "): " + what +
             " arriving before that are dropped, not stored again (a second take needs another stream name or file)");
    }

    /// Starts the writer at the first item (arriving on input `port`), for a stream on `inputTimebase`
    /// (stored on it, or with representation downsample on its rate / factor); later items must share it.
    ArchiveWriter& writerFor(int port, const Timebase& inputTimebase) {
        if (!writer_) {
            const Timebase& timebase = downsampleFactor_ > 1 ? Timebase::get(inputTimebase.rateHz() / static_cast<double>(downsampleFactor_),
                                                                             inputTimebase.zeroTimeNs(), inputTimebase.clock())
                                                             : inputTimebase;
            ArchivedStreamInfo info;
            info.name = streamName_;
            info.kind = recordsSignal_ ? ArchivedStreamInfo::Kind::Signal : ArchivedStreamInfo::Kind::Items;
            info.rateHz = timebase.rateHz();
            info.originalRateHz = inputTimebase.rateHz();
            info.zeroTimeNs = timebase.zeroTimeNs();
            info.clock = timebase.clock().name();
            info.channels = recordsSignal_ ? inputCount() : 1;
            info.sampleType = recordsSignal_ ? "f32" : "json";
            info.units = params().getString("units");
            info.graph = params().getString("graph");
            info.node = std::string(nodeId());
            info.producer = params().getString("producer");
            info.geometry = params().getString("geometry");
            info.representation = params().getString("representation");
            ArchiveWriter::Options options;
            options.queueBytes = static_cast<std::size_t>(params().getReal("queue_mb") * (1 << 20));
            options.commitNs = static_cast<TimeNs>(params().getReal("commit_s") * 1e9);
            options.keepSamples = static_cast<std::int64_t>(std::ceil(params().getReal("keep_hours") * 3600 * timebase.rateHz()));
            options.keepBytes = static_cast<std::int64_t>(params().getReal("keep_gb") * 1e9);
            options.trigger = [](const CommittedInterval& interval) { ArchiveTriggers::instance().notify(interval); };
            options.liveSamples = static_cast<std::int64_t>(std::ceil(params().getReal("live_s") * timebase.rateHz()));
            // Asked on this thread when the queue is full: an unpaced import waits for the disk, a
            // live or paced run (which must not stall for its recording) stops recording.
            options.waitWhenBehind = [this] {
                const std::string& whenBehind = params().getString("when_behind");
                return whenBehind == "wait" || (whenBehind == "auto" && !runFollowsWallClock());
            };
            options.stopWaiting = [this] { return stopRequested(); };
            std::ostringstream advice;
            advice << "Raise queue_mb (now " << params().getReal("queue_mb") << " MiB) for longer bursts, lower the pace of the sources, "
                   << "or raise commit_s (now " << params().getReal("commit_s") << " s: fewer, larger transactions); when_behind wait holds "
                   << "the graph up instead of stopping";
            options.behindAdvice = advice.str();
            // Here, not only on the writer's thread: a stream on another timebase is refused at its
            // first item, even when everything that comes would be dropped as already stored. (A read:
            // the engine thread never waits for a write lock.)
            std::optional<std::string> conflict;
            try {
                conflict = store_->conflictWith(info);
            } catch (const ArchiveError& e) {
                conflict = e.what();
            }
            if (conflict) {
                openProblem_ = *conflict;
                throw OperatorErrorInHook(openProblem_);
            }
            writer_ = std::make_unique<ArchiveWriter>(std::move(store_), std::move(info), std::move(options));
            livePublished_ = LiveStreams::instance().publish(params().getString("path"), streamName_, writer_->liveWindow());
            timebase_ = &timebase;
            inputTimebase_ = &inputTimebase;
            firstPort_ = port;
            if (downsampleFactor_ > 1) {
                for (int channel = 0; channel < inputCount(); ++channel) {
                    downsamplers_.emplace_back(downsampleFactor_, inputTimebase, timebase, [this, channel](std::int64_t start, SigSeg<float> samples) {
                        if (!writer_->pushSamples(channel, start, std::move(samples))) requireRecording();
                    });
                }
            }
        } else if (&inputTimebase != inputTimebase_) {
            const std::string& first = inputPort(firstPort_).name;
            const std::string& other = inputPort(port).name;
            throw OperatorError("every item of stream '" + streamName_ + "' must share one timebase: input " + first + " brought " +
                                inputTimebase_->describe() + ", then input " + other + " " + inputTimebase.describe() +
                                (recordsSignal_ && first != other ? ". Resample " + other + " to " + (std::ostringstream() << inputTimebase_->rateHz()).str() +
                                                                        " Hz first (resample.to_rate), or record each rate with its own io.archive_sink"
                                                                  : std::string()));
        }
        return *writer_;
    }

    /// Says once that the writer dropped what another recorder of the stream had stored first.
    void reportStoredElsewhere() {
        if (storedElsewhereReported_ || !writer_) return;
        const std::optional<ArchiveWriter::StoredElsewhere> dropped = writer_->storedElsewhere();
        if (!dropped) return;
        storedElsewhereReported_ = true;
        const double rate = timebase_->rateHz();
        std::ostringstream text;
        text << "archive '" << params().getString("path") << "', stream '" << streamName_ << "': another recorder of this stream (another process or "
             << "io.archive_sink) stored [" << static_cast<double>(dropped->firstStart) / rate << " s, " << static_cast<double>(dropped->firstEnd) / rate
             << " s) first; what this node recorded there is dropped, not stored twice (so far "
             << (recordsSignal_ ? std::to_string(dropped->samples) + " samples, all channels" : std::to_string(dropped->items) + " items")
             << "). Recording one stream twice at a time needs another stream name or file for the second";
        warn(text.str());
    }

    /// With the `committed` output: one event "committed" over [last announced end, new end) once the
    /// writer has committed further on every channel.
    void announceCommits() {
        reportStoredElsewhere();
        if (outputCount() == 0 || !writer_) return;
        const std::optional<ArchiveWriter::CommittedSpan> span = writer_->committedSpan();
        if (!span) return;
        const std::int64_t from = announced_.value_or(span->first);
        if (span->through <= from) return;
        Item event = Item::event(EventRecord::create("committed"), SampleRange{timebase_, from, span->through - from}, 1.0);
        event.setArrivalNs(wallClockNs());
        emit(0, std::move(event));
        announced_ = span->through;
    }

    void record(int channel, const SigSeg<float>& samples) {
        ArchiveWriter& writer = writerFor(channel, *samples.timebase());
        std::int64_t& end = storedEnd_[static_cast<std::size_t>(channel)];
        const std::int64_t from = std::max(samples.startIndex(), end);
        if (from > samples.startIndex()) {
            // Before what an earlier run stored: a rerun, not a late item of this run.
            const std::int64_t storedBefore = storedBefore_[static_cast<std::size_t>(channel)];
            if (samples.startIndex() < storedBefore) warnAlreadyStored(channel, storedBefore);
            else countLate(channel);
        }
        if (from >= samples.endIndex()) return;
        SigSeg<float> fresh = from > samples.startIndex() ? samples.subseg(from, samples.endIndex() - from) : samples;
        end = fresh.endIndex();
        if (downsampleFactor_ > 1) {
            const std::int64_t storedFrom = (from + downsampleFactor_ - 1) / downsampleFactor_;  // at or after `from`, in stored samples
            lowestQueued_ = lowestQueued_ == kNothingStored ? storedFrom : std::min(lowestQueued_, storedFrom);
            downsamplers_[static_cast<std::size_t>(channel)].push(fresh);
            return;
        }
        lowestQueued_ = lowestQueued_ == kNothingStored ? from : std::min(lowestQueued_, from);
        if (!writer.pushSamples(channel, from, std::move(fresh))) requireRecording();
    }

    void recordItem(const Item& item) {
        if (!archivePersists(item)) return;
        const SampleRange range = item.range();
        ArchiveWriter& writer = writerFor(0, *range.timebase);
        // What an earlier recording of the stream stored is not stored again (a rerun, or a replay of
        // the stream while its recorder is still on); within this run items may come in any order.
        if (range.start < storedEnd_[0]) {
            warnAlreadyStored(0, storedEnd_[0]);
            return;
        }
        lowestQueued_ = lowestQueued_ == kNothingStored ? range.start : std::min(lowestQueued_, range.start);
        if (!writer.pushItem(range.start, range.length, archivedItemJson(item))) requireRecording();
    }

    std::string streamName_;
    bool recordsSignal_ = true;
    std::unique_ptr<ArchiveStore> store_;   // opened at activation, handed to the writer at the first item
    std::unique_ptr<ArchiveWriter> writer_;  // from the first item on
    std::shared_ptr<void> livePublished_;    // the writer's live window, findable by readers while recording
    std::string openProblem_;                // why the archive could not be opened, or empty
    const Timebase* timebase_ = nullptr;     // the stored stream's, from its first item
    const Timebase* inputTimebase_ = nullptr;  // the inputs' (timebase_ unless downsampled)
    int firstPort_ = 0;                      // the input whose first item set the timebase
    std::int64_t downsampleFactor_ = 1;      // input samples per stored sample (representation downsample)
    std::vector<ArchiveDownsampler> downsamplers_;  // [channel], representation downsample only
    std::vector<std::int64_t> storedEnd_;    // [channel]: one past the last sample stored or queued; items: stored before this run
    std::vector<std::int64_t> storedBefore_;  // [channel]: one past the last sample earlier runs stored (input samples)
    bool alreadyStoredWarned_ = false;        // the warning that a rerun's samples are dropped was given
    bool problemReported_ = false;            // the writer's problem failed this node already
    bool storedElsewhereReported_ = false;    // the warning that another recorder stored some of it first was given
    std::int64_t lowestQueued_ = kNothingStored;  // the earliest sample (item start) handed to the writer
    std::optional<std::int64_t> announced_;       // end of the last "committed" event emitted
};

/// {"mics": [[x, y, z], ...]} (metres, the channels' order) from the geometry `spec` (a preset, a file,
/// or such JSON), for a stream of `channels` channels (0: any count). Throws ParameterError on "geometry".
std::string storedGeometry(const std::string& spec, std::size_t channels) {
    ArrayGeometry geometry;
    try {
        geometry = loadGeometry(spec);
    } catch (const std::invalid_argument& e) {
        throw ParameterError("geometry", e.what());
    }
    if (channels > 0 && static_cast<std::size_t>(geometry.micCount()) != channels) {
        throw ParameterError("geometry", geometry.origin + " places " + std::to_string(geometry.micCount()) + " mics but the node records " +
                                             std::to_string(channels) + " channels: give one position per channel, in channel order");
    }
    nlohmann::ordered_json mics = nlohmann::ordered_json::array();
    for (const Eigen::Vector3d& mic : geometry.mics) mics.push_back({mic.x(), mic.y(), mic.z()});
    return nlohmann::ordered_json{{"mics", std::move(mics)}}.dump();
}

/// The positions the signal inputs' channels carry as a geometry (one channel per input), or "" when
/// one is not placed.
std::string carriedGeometry(const std::vector<ChannelLayout>& channels) {
    nlohmann::ordered_json mics = nlohmann::ordered_json::array();
    for (const ChannelLayout& layout : channels) {
        if (layout.size() != 1 || !layout.front().position) return "";
        const std::array<double, 3>& p = *layout.front().position;
        mics.push_back({p[0], p[1], p[2]});
    }
    return mics.empty() ? "" : nlohmann::ordered_json{{"mics", std::move(mics)}}.dump();
}

/// "node (type)" of each node feeding an input, in input order, each once, ", "-separated.
std::string producers(const std::vector<NodeSurroundings::Feeder>& feeders) {
    std::vector<std::string> named;
    for (const NodeSurroundings::Feeder& feeder : feeders) {
        if (feeder.node.empty()) continue;
        std::string text = feeder.node + " (" + feeder.type + ")";
        if (std::find(named.begin(), named.end(), text) == named.end()) named.push_back(std::move(text));
    }
    std::string joined;
    for (const std::string& text : named) joined += (joined.empty() ? "" : ", ") + text;
    return joined;
}

/// Fills what the stream's metadata says about its origin and left empty: graph, producer, geometry.
void adoptRecordedOrigin(ParamSet& params, const NodeSurroundings& surroundings) {
    if (params.getString("stream").empty()) params.set("stream", surroundings.node);
    if (params.getString("graph").empty()) params.set("graph", surroundings.graph);
    if (params.getString("producer").empty()) params.set("producer", producers(surroundings.feeders));
    const bool signal = !surroundings.inputs.empty() && surroundings.inputs.front().type.kind == ItemKind::Signal;
    const std::string& given = params.getString("geometry");
    if (!given.empty()) params.set("geometry", storedGeometry(given, signal ? surroundings.channels.size() : 0));
    else if (signal) params.set("geometry", carriedGeometry(surroundings.channels));
}

}  // namespace

void adoptArchiveSinkSurroundings() { adoptSurroundings("io.archive_sink", adoptRecordedOrigin); }

OperatorDescriptor archiveSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.archive_sink";
    d.category = "io";
    d.summary = "Records a signal or a scalar/event stream into a stream archive (SQLite)";
    d.documentation =
        "Appends to the stream 'stream' of the archive file 'path' (created if missing or empty; docs/archive.md): f32 signal "
        "inputs as one channel each (sample pieces keyed by channel and start index), or one scalar/event input as JSON "
        "rows. Any other input (frames, time ranges, f64 signals, a mix of signals and items), and signal inputs at different "
        "rates where the sources feeding them directly state their rates, are refused before the run and by --check, naming "
        "the input (one stream has one timebase: resample.to_rate, or one sink per rate); a rate known only in the run fails "
        "this node at the second rate's first item. The stream's metadata (timebase, channels, units, the graph, the nodes feeding this one and their operator types, "
        "the channels' mic positions when they carry them or 'geometry' gives them, this node) is stored with its first item; recording "
        "again into an existing stream appends after what it holds (samples, and items starting, before its stored end are "
        "dropped, with one warning naming the stream and its stored end) and needs the same timebase and channels (else this node fails at its first item). "
        "Two recorders of one stream at the same time (two processes, two sinks) store each sample once: each commit, under the "
        "file's write lock, drops the samples before a channel's stored end and the items starting before the furthest end of "
        "the items others stored, with one warning naming the file, the stream and the interval. A writer "
        "thread does the disk work (inserts, commits, WAL checkpoints) off the engine thread and commits every commit_s "
        "of data or of wall time in one short transaction (several sinks, and other processes, may record into one file: a commit "
        "that waits more than 5 s for another writer's lock is retried later, nothing lost), so a killed process loses at most about that much plus what waits in its queue. A "
        "path that cannot be an archive refuses the start, the file untouched: a folder, a device, a pipe, a missing folder, a "
        "file that is no SQLite database, another application's database (tables of its own, user_version 0) or another "
        "schema version. An archive that cannot be opened or written (a full disk) stops the recording and fails this node with a "
        "message naming the file, while the rest of the graph keeps running. A writer queue_mb behind (when_behind) holds the "
        "graph up until it has made room (wait; auto in a run whose sources all emit as fast as possible, an import), or stops the "
        "recording and fails this node with the rates in and out and what to change (stop; auto in a live or paced run), the "
        "rest of the graph going on. "
        "Retention (keep_hours, keep_gb) drops the stream's oldest pieces after each commit; an event whose attribute "
        "'persist' is 0 is not recorded; representation downsample (a change of the data, not lossless) stores each "
        "channel resampled by libsoxr to the input rate / downsample_factor, on a timebase at that rate with the input's zero "
        "time (stored sample m at input sample m x factor, the filter's delay removed; its tail flushed at a gap and at the "
        "end), and records the input rate with the stream; code in the process can subscribe to each commit (ArchiveTriggers). While it "
        "records, the newest live_s seconds per channel and whatever is not yet committed stay in memory as the stream's "
        "live window, so a reader in the process (StreamReader) gets an interval across live and stored data. With "
        "committed_output 1, output committed0 emits an event 'committed' over [a, b) each time everything recorded "
        "before b is committed on every channel (b: the least committed end over the channels; items: the furthest "
        "committed item end), one event after the other without overlap, from the first committed sample on; its "
        "progress waits for the commits.";
    d.inputs = {PortSpec{"in", PortType::any(), "channel k of an f32 signal, or one scalar/event stream", false, "channels"}};
    d.outputs = {PortSpec{"committed", PortType::event(),
                          "committed_output 1: an event 'committed' over each stretch of samples newly committed on every channel", false,
                          "committed_output"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "archive file (SQLite) to record into"},
        ParamSpec{"stream", ParamKind::String, std::string(), {}, {}, "", "name of the stream in the archive; empty = this node's id"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "", "signal inputs (channels); 1 for a scalar/event stream"},
        ParamSpec{"units", ParamKind::String, std::string(), {}, {}, "", "units of the values, stored with the stream (e.g. Pa); may be empty"},
        ParamSpec{"graph", ParamKind::String, std::string(), {}, {}, "",
                  "name of the graph that produces the stream, stored with it; empty = the graph's file name (else its name)"},
        ParamSpec{"producer", ParamKind::String, std::string(), {}, {}, "",
                  "what produces the stream, stored with it; empty = \"node (operator type)\" of each node wired into this one"},
        ParamSpec{"geometry", ParamKind::Path, std::string(), {}, {}, "",
                  "where the channels' mics are, stored with the stream: a JSON file {\"mics\": [[x, y, z], ...]} in metres or a preset "
                  "such as square4:0.2, one mic per channel; empty = the positions the inputs carry (a source given a geometry), if every "
                  "channel carries one"},
        ParamSpec{"commit_s", ParamKind::Real, 0.5, 0.01, 10.0, "s", "data (or wall time) per transaction: the most a crash loses"},
        ParamSpec{"representation", ParamKind::Choice, std::string("f32"), {}, {}, "",
                  "how signal pieces are stored: f32 as they come, flac (lossless: a piece exact at 16 or 24 bits as FLAC, any other as f32), "
                  "or downsample (resampled to the input rate / downsample_factor, then f32: changes the data)",
                  {"f32", "flac", "downsample"}},
        ParamSpec{"downsample_factor", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "",
                  "representation downsample: input samples per stored sample (>= 2; stored rate = input rate / factor); otherwise 1"},
        ParamSpec{"keep_hours", ParamKind::Real, 0.0, 0.0, 1e6, "h", "retention: keep the newest this many hours of the stream, dropping the oldest; 0 = all"},
        ParamSpec{"keep_gb", ParamKind::Real, 0.0, 0.0, 1e6, "GB", "retention: keep at most this many GB (1e9 bytes) of the stream's data, dropping the oldest; 0 = no limit"},
        ParamSpec{"queue_mb", ParamKind::Real, 64.0, 0.001, 4096.0, "MiB", "data waiting for the disk, at most; beyond it the graph waits or recording stops (when_behind)"},
        ParamSpec{"when_behind", ParamKind::Choice, std::string("auto"), {}, {}, "",
                  "when the writer is queue_mb behind: wait (hold the graph up until the disk catches up, nothing lost), stop (stop "
                  "recording, fail this node, the graph goes on), or auto (wait when every source of the run emits as fast as "
                  "possible, e.g. an import at pace 0; stop when one follows the wall clock: a device, a pace > 0)",
                  {"auto", "wait", "stop"}},
        ParamSpec{"committed_output", ParamKind::Int, std::int64_t{0}, 0.0, 1.0, "",
                  "1 = an output 'committed0' announcing each newly committed stretch as an event (a trigger for the graph)"},
        ParamSpec{"live_s", ParamKind::Real, 10.0, 0.0, 3600.0, "s",
                  "live window: the newest this many seconds per channel stay in memory for readers, besides what is not yet committed"},
    };
    d.create = [] { return std::make_unique<ArchiveSink>(); };
    d.deriveParams = [](ParamSet& params) {
        const bool downsample = params.getString("representation") == "downsample";
        const std::int64_t factor = params.getInt("downsample_factor");
        if (downsample && factor < 2) {
            throw ParameterError("downsample_factor", "representation downsample needs downsample_factor >= 2 (input samples per stored "
                                                      "sample); got " + std::to_string(factor));
        }
        if (!downsample && factor != 1) {
            throw ParameterError("downsample_factor", "downsample_factor " + std::to_string(factor) + " needs representation downsample (it is " +
                                                          params.getString("representation") + ")");
        }
    };
    return d;
}

}  // namespace isochron
