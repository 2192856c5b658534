#include "nodes/io/csv_sink.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/operators/operator_error_in_hook.h"
#include "engine/runtime/ring_buffer.h"
#include "nodes/io/text_output.h"

namespace isochron {
namespace {

/// One row per distinct start time of the inputs' scalars: t_start, t_end, then each input's value
/// (an empty cell for an input without a scalar at that time). Rows are written once progress on
/// every input has passed their time, so the file is the same whatever order inputs arrive in.
class CsvSink final : public Operator {
protected:
    void onActivate() override {
        path_ = params().getString("path");
        if (path_.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
        // Standard output is mostly a pipe into a reader (`| head`, `| tail -f`): rows go on at once.
        flushEachRow_ = params().getBool("flush") || path_ == "-";
        const std::vector<std::string> names = columnNames();
        try {
            output_.open(path_);
        } catch (const std::runtime_error& e) {
            throw OperatorError(e.what());
        }
        out_ = output_.stream();
        std::fputs("t_start,t_end", out_);
        for (const std::string& name : names) {
            std::fputc(',', out_);
            writeQuoted(name);
        }
        std::fputc('\n', out_);
        held_ = std::vector<RingBuffer<Item>>(static_cast<std::size_t>(inputCount()));
    }

    void process(int port, Item&& item) override {
        ran_ = true;
        held_[static_cast<std::size_t>(port)].push(std::move(item));
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        ran_ = true;
        writeRowsBefore(inputProgress);
        return inputProgress;
    }

    void onFinish() override {
        writeRowsBefore(kEndOfTime);
        out_ = nullptr;
        closeOutput(true);
    }

    // A stopped run (Ctrl-C, SIGTERM) or a failure elsewhere ends here without onFinish(): the scalars
    // held for a row not yet complete reached the sink, so they are written too (no more can come).
    // A run refused while its nodes started (another node could not) never ran: it leaves no file.
    void onDeactivate() override {
        if (!ran_) return output_.discard();
        if (out_ && output_.writeError().empty()) {  // a write that failed was reported already
            try {
                writeRowsBefore(kEndOfTime);
            } catch (const OperatorError& e) {
                warn(e.what());
            }
        }
        out_ = nullptr;
        closeOutput(false);
    }

private:
    /// Close the file and give it its name (text_output.h): a problem fails the node when the run
    /// completed (`complete`), and is a warning after a stop, as is the news that the file was cut short.
    void closeOutput(bool complete) {
        const GrowingFile::Ending ending = output_.close(complete, "the CSV file");
        if (!ending.warning.empty()) warn(ending.warning);
        if (ending.problem.empty()) return;
        if (complete) throw OperatorError(ending.problem);
        warn(ending.problem);
    }

    /// The names in 'names' (comma-separated), else the input port names; one per input.
    std::vector<std::string> columnNames() const {
        std::vector<std::string> names;
        const std::string& text = params().getString("names");
        if (text.find_first_not_of(' ') == std::string::npos) {
            for (int port = 0; port < inputCount(); ++port) names.push_back(inputPort(port).name);
            return names;
        }
        for (std::size_t start = 0; start <= text.size();) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            std::string name = text.substr(start, comma - start);
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            names.push_back(name);
            start = comma + 1;
        }
        if (static_cast<int>(names.size()) != inputCount()) {
            throw OperatorError("parameter 'names' has " + std::to_string(names.size()) + " name(s) for " + std::to_string(inputCount()) +
                                " column(s)");
        }
        return names;
    }

    void writeRowsBefore(TimeNs before) {
        for (;;) {
            const Item* earliest = nullptr;
            for (const auto& items : held_) {
                if (!items.empty() && (!earliest || items.front().range().startTime() < earliest->range().startTime())) earliest = &items.front();
            }
            if (!earliest) return;
            const TimeNs time = earliest->range().startTime();
            if (before != kEndOfTime && time >= before) return;  // another input may still send a scalar at this time
            const SampleRange range = earliest->range();
            writeNumber(static_cast<double>(range.start) / range.timebase->rateHz());
            std::fputc(',', out_);
            writeNumber(static_cast<double>(range.end()) / range.timebase->rateHz());
            for (auto& items : held_) {
                std::fputc(',', out_);
                if (items.empty() || items.front().range().startTime() != time) continue;
                writeNumber(items.front().value());
                items.pop();
            }
            std::fputc('\n', out_);
            if (flushEachRow_) std::fflush(out_);
            // The message names the file and what went wrong; the hook that noticed is no news to the user.
            if (std::string problem = output_.writeError(); !problem.empty()) throw OperatorErrorInHook(problem);
        }
    }

    /// The shortest text that reads back as `value`; NaN and infinities as nan, inf, -inf.
    void writeNumber(double value) {
        char text[32];
        const auto result = std::to_chars(text, text + sizeof text, value);
        std::fwrite(text, 1, static_cast<std::size_t>(result.ptr - text), out_);
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
    void writeQuoted(const std::string& field) {
        if (field.find_first_of(",\"\r\n") == std::string::npos) {
            std::fputs(field.c_str(), out_);
            return;
        }
        std::fputc('"', out_);
        for (char ch : field) {
            if (ch == '"') std::fputc('"', out_);
            std::fputc(ch, out_);
        }
        std::fputc('"', out_);
    }

    std::string path_;
    bool flushEachRow_ = false;
    TextOutput output_;
    bool ran_ = false;  // an item or progress arrived: the run started
    std::FILE* out_ = nullptr;  // output_'s stream while open
    std::vector<RingBuffer<Item>> held_;  // [input]: scalars not written yet, in time order
};

}  // namespace

OperatorDescriptor csvSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.csv_sink";
    d.category = "io";
    d.summary = "Writes scalar streams as the columns of a CSV file, one row per time";
    d.documentation =
        "The first line names the columns: t_start, t_end, then one per input ('names', or the port names). Each "
        "distinct start time of the inputs' scalars gives one row: t_start and t_end in seconds (sample index / rate), "
        "then each input's value at that time, an empty cell where an input has none. Numbers are written in the "
        "shortest form that reads back exactly. Rows are written once progress on every input has passed them, so "
        "the file does not depend on the order inputs arrive in. A run stopped early (Ctrl-C, SIGTERM) still writes "
        "every row whose scalars reached the sink, an input that had not sent its scalar for the last times getting empty cells. "
        "A new file is written under 'path' from the start (a reader can follow it). One that replaces an existing file grows "
        "under a name of its own beside it, 'path.<pid>.partial', is renamed to 'path' when the run completes and keeps the old "
        "file's permissions; one cut short (a stop, a failure) never replaces an existing file: it stays under its partial name, with a "
        "warning naming both; where no file was, it stays 'path', with a warning that it was cut short. A run refused while its nodes "
        "start (another node cannot) leaves no file. A write-protected file is "
        "refused.";
    d.inputs = {PortSpec{"in", PortType::scalar(), "column k: one scalar per time", false, "columns"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "CSV file to write (replaced when the run completes); - = standard output"},
        ParamSpec{"columns", ParamKind::Int, std::int64_t{1}, 1.0, 256.0, "", "scalar inputs, one column each"},
        ParamSpec{"names", ParamKind::String, std::string(), {}, {}, "", "comma-separated column names, one per input; empty = in0, in1, ..."},
        ParamSpec{"flush", ParamKind::Bool, false, {}, {}, "", "hand each row to the OS at once (for a reader following the file as it grows; always so for standard output, '-')"},
    };
    d.create = [] { return std::make_unique<CsvSink>(); };
    return d;
}

}  // namespace isochron
