#include "nodes/io/jsonl_event_source.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine/files/file_kind.h"
#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "nodes/io/block_pacer.h"
#include "nodes/io/event_line_stream.h"
#include "nodes/io/event_lines.h"

namespace isochron {
namespace {

/// Replays an event log on a timeline of `rate` positions per second, cut into heartbeat blocks by
/// the shared BlockPacer (so pace, max_lag and real-time replay work as for audio files), from the
/// heartbeat holding the first line (event times stay as written). Lines
/// arrive in file order, each when the timeline passes the latest start time seen so far; a file
/// may be out of order by up to `disorder` seconds. After every heartbeat block — with or without
/// events in it — the source promises progress to the block's end minus `disorder`: no later line
/// starts before that; of the empty heartbeats before a line's that are due (unpaced: all of them)
/// only the last is emitted, so the promise jumps over a gap of any length in one step. Events then carry their attributes; ranges are on the
/// `rate` timebase.
/// A named pipe is read as a stream instead (see EventLineStream): each line is emitted when it is
/// read, and progress follows the latest start read minus `disorder`.
class JsonlEventSource final : public Operator {
protected:
    void onActivate() override {
        const std::string& path = params().getString("path");
        if (path.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
        if (path == "-") {
            throw OperatorError("parameter 'path': event lines are not read from standard input ('-' is standard output, for the sinks that "
                                "write files); give a file, or a named pipe (mkfifo) that the writer feeds");
        }
        // A named pipe is a stream someone writes events into; a device or a folder is no event file
        // (/dev/zero was read without end, filling memory).
        const std::string kind = nonRegularFileKind(path);
        if (!kind.empty() && kind != "a named pipe (FIFO)") {
            throw OperatorError("parameter 'path': '" + path + "' is " + kind + ", not an event file (give a file of JSON lines, or a named pipe)");
        }
        const double rate = params().getReal("rate");
        timebase_ = &Timebase::get(rate, 0, Clock::media());
        disorder_ = std::llround(params().getReal("disorder") * rate);
        stream_.reset();
        streamLatest_ = 0;
        streamLines_ = 0;
        warnedDisorder_ = false;
        if (!kind.empty()) {
            // Read while the run goes on: a writer that never stops must not be read into memory first.
            try {
                stream_ = std::make_unique<EventLineStream>(path, EventRecord::kMaxAttributes);
            } catch (const std::exception& e) {
                throw OperatorError(e.what());
            }
            return;
        }
        std::ifstream file(path, std::ios::binary);
        if (!file) throw OperatorError("cannot open '" + path + "': " + std::strerror(errno));
        try {
            events_ = parseEventLines(readEventText(file, path), path, EventRecord::kMaxAttributes);
        } catch (const std::exception& e) {
            throw OperatorError(e.what());
        }
        // Arrival position of each line: the latest start seen up to it (file order is arrival order).
        std::int64_t latest = 0;
        arrivals_.clear();
        std::size_t beyondDisorder = 0;
        std::string firstBeyond;
        for (const EventLine& e : events_) {
            const std::int64_t start = std::llround(e.startSeconds * rate);
            if (start < latest - disorder_ && beyondDisorder++ == 0) {
                firstBeyond = "line " + std::to_string(e.lineNumber) + " starts " + paramValueToText(static_cast<double>(latest - start) / rate) + " s before an earlier line";
            }
            latest = std::max(latest, start);
            arrivals_.push_back(latest);
        }
        // Whether such a line is late depends on where the last heartbeat's promise stands when it
        // arrives, so the warning says "may": the operators downstream count the ones that are.
        if (beyondDisorder > 0) {
            warn("'" + path + "': " + std::to_string(beyondDisorder) + " line(s) out of order by more than disorder (" + paramValueToText(params().getReal("disorder")) +
                 " s), first " + firstBeyond + ": they may be late (counted as late_items and routed to 'late' outputs downstream)");
        }
        BlockPacerSettings settings;
        settings.pace = params().getReal("pace");
        settings.maxLagSeconds = params().getReal("max_lag");
        settings.rateHz = rate;
        settings.blockLength = std::max<std::int64_t>(1, std::llround(params().getReal("heartbeat") * rate));
        settings.progressInterval = settings.blockLength;
        // The replay starts at the heartbeat holding the first line, not at time 0: a log stamped in
        // Unix seconds stepped (and paced) 56 years of empty heartbeats first.
        origin_ = arrivals_.empty() ? 0 : arrivals_.front() / settings.blockLength * settings.blockLength;
        settings.totalLength = arrivals_.empty() ? 0 : arrivals_.back() + 1 - origin_;
        pacer_.configure(settings);
        heartbeatLength_ = settings.blockLength;
        next_ = 0;
    }

    bool followsWallClock() const override { return pacer_.paced(); }

    SourceStatus onProduce() override {
        if (stream_) return produceFromStream();
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) warn("fell more than max_lag behind the pace: skipped " + std::to_string(dropped / timebase_->rateHz()) + " s of the log");
        while (!pacer_.roundOver() && admissionOpen()) {
            // The heartbeats before the next line's hold nothing: of those due (unpaced: all), only
            // the last is emitted, its promise covering them all (a time jump of 1e9 s in a log
            // stepped 1e10 empty heartbeats, for minutes). A line meets the promise it met when every
            // heartbeat was stepped.
            if (next_ < events_.size()) pacer_.skipEmptyTo(arrivals_[next_] - origin_ - heartbeatLength_);
            auto block = pacer_.nextBlock();
            if (!block) break;
            const std::int64_t end = origin_ + block->end();
            for (; next_ < events_.size() && arrivals_[next_] < end; ++next_) {
                Item item = makeEvent(events_[next_]);
                item.setArrivalNs(block->arrivalNs);
                emit(0, std::move(item));
            }
            emitProgress(timebase_->timeOf(end - disorder_));
        }
        return pacer_.endRound();
    }

    void onDeactivate() override { stream_.reset(); }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace") pacer_.changePace(params().getReal("pace"));
    }

private:
    /// Lines per round from a named pipe: the rest wait in the pipe (its writer blocks when it is full).
    static constexpr std::size_t kStreamLinesPerRound = 256;
    /// How soon to look at a pipe again that had nothing to read.
    static constexpr TimeNs kStreamPollNs = 10'000'000;

    SourceStatus produceFromStream() {
        if (!admissionOpen()) return SourceStatus::produced();
        std::vector<EventLine> lines;
        EventLineStream::State state;
        try {
            state = stream_->read(lines, kStreamLinesPerRound);
        } catch (const std::exception& e) {
            throw OperatorError(e.what());
        }
        const double rate = timebase_->rateHz();
        for (const EventLine& line : lines) {
            const std::int64_t start = std::llround(line.startSeconds * rate);
            if (streamLines_++ > 0 && start < streamLatest_ - disorder_ && !warnedDisorder_) {
                warnedDisorder_ = true;
                warn("'" + params().getString("path") + "': line " + std::to_string(line.lineNumber) + " starts " +
                     paramValueToText(static_cast<double>(streamLatest_ - start) / rate) + " s before an earlier line, more than disorder (" +
                     paramValueToText(params().getReal("disorder")) +
                     " s): it and any later such line may be late (counted as late_items and routed to 'late' outputs downstream)");
            }
            streamLatest_ = streamLines_ == 1 ? start : std::max(streamLatest_, start);
            Item item = makeEvent(line);
            item.setArrivalNs(wallClockNs());
            emit(0, std::move(item));
        }
        if (!lines.empty()) emitProgress(timebase_->timeOf(streamLatest_ - disorder_));
        if (state == EventLineStream::State::Ended) return SourceStatus::finished();
        if (state == EventLineStream::State::Waiting) return SourceStatus::waitUntil(wallClockNs() + kStreamPollNs);
        return SourceStatus::produced();
    }

    Item makeEvent(const EventLine& line) const {
        const double rate = timebase_->rateHz();
        const std::int64_t start = std::llround(line.startSeconds * rate);
        const std::int64_t end = std::max<std::int64_t>(start, std::llround(line.endSeconds * rate));
        EventRecord* record = EventRecord::create(line.label);
        for (const auto& [name, value] : line.attributes) record->set(name, value);
        return Item::event(record, SampleRange{timebase_, start, end - start}, line.score);
    }

    std::vector<EventLine> events_;
    std::vector<std::int64_t> arrivals_;
    std::size_t next_ = 0;
    const Timebase* timebase_ = nullptr;
    std::int64_t disorder_ = 0;
    std::int64_t origin_ = 0;  // position of the pacer's position 0: the heartbeat holding the first line
    std::int64_t heartbeatLength_ = 1;  // positions per heartbeat block
    BlockPacer pacer_;
    std::unique_ptr<EventLineStream> stream_;  // a named pipe's lines, read during the run
    std::int64_t streamLatest_ = 0;            // latest start read from the pipe
    std::int64_t streamLines_ = 0;
    bool warnedDisorder_ = false;
};

}  // namespace

OperatorDescriptor jsonlEventSourceDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.jsonl_event_source";
    d.category = "io";
    d.summary = "Replays event JSON lines (as io.jsonl_event_sink writes them), paced, with progress heartbeats";
    d.documentation =
        "Each line: t_start, t_end (s), optional label and score, numeric fields as attributes (at most 14). "
        "The replay starts at the heartbeat holding the first line (so Unix-epoch times run at once). "
        "Lines arrive in file order when the replay passes the latest start so far; the file may be out of "
        "order by up to `disorder` s. Every `heartbeat` s of the timeline the source promises progress (its "
        "end minus `disorder`), with or without events, so downstream windows and joins close on time; a stretch of "
        "heartbeats without lines that is due (unpaced: all of it) is promised in one step, so a time jump in the file costs nothing. "
        "Event ranges are on a `rate` Hz timebase (match your audio's to cut it with segments.sync). "
        "A named pipe is read as a stream while the run goes on: each line is emitted when it is read, progress "
        "follows the latest start read minus `disorder`, pace, max_lag and heartbeat do not apply, and the source "
        "ends when its writers close the pipe.";
    d.outputs = {PortSpec{"out", PortType::event(), "the events, in file order"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(""), {}, {}, "", "the JSON-lines file, or a named pipe (not -: no source reads standard input)"},
        ParamSpec{"rate", ParamKind::Real, 48000.0, 1.0, 1e9, "Hz", "timebase of the events' ranges"},
        ParamSpec{"disorder", ParamKind::Real, 0.0, 0.0, 1e6, "s", "how far a line may start before an earlier one"},
        ParamSpec{"heartbeat", ParamKind::Real, 0.1, 1e-6, 3600.0, "s", "timeline step between progress promises"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) {
        if (spec.name == "progress_interval") continue;  // the heartbeat sets it
        d.params.push_back(std::move(spec));
    }
    d.create = [] { return std::make_unique<JsonlEventSource>(); };
    return d;
}

}  // namespace isochron
