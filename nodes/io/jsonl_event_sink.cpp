#include "nodes/io/jsonl_event_sink.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/operators/operator_error_in_hook.h"
#include "nodes/io/text_output.h"

namespace isochron {
namespace {

/// Keys every line may carry; an event attribute with one of these names is written as "attribute.<name>".
constexpr std::array<std::string_view, 8> kFixedKeys = {"t_start", "t_end", "kind", "value", "label", "score", "samples", "type"};

/// Whether an attribute or field name would clash with a fixed key (and so gets the "attribute." prefix).
bool clashesWithFixedKey(std::string_view name) {
    return std::find(kFixedKeys.begin(), kFixedKeys.end(), name) != kFixedKeys.end();
}

/// Writes one JSON object on one line of a stdio file, key by key. [no allocation]
class JsonLine {
public:
    explicit JsonLine(std::FILE* file) : file_(file) {}

    /// `"keyPrefix key": value`; NaN and infinities become null (JSON has no such numbers).
    void number(std::string_view key, double value, std::string_view keyPrefix = {}) {
        writeKey(key, keyPrefix);
        if (!std::isfinite(value)) {
            std::fputs("null", file_);
            return;
        }
        char text[32];
        const auto result = std::to_chars(text, text + sizeof text, value);  // shortest exact form
        std::fwrite(text, 1, static_cast<std::size_t>(result.ptr - text), file_);
    }
    void null(std::string_view key) {
        writeKey(key);
        std::fputs("null", file_);
    }
    void string(std::string_view key, std::string_view value, std::string_view keyPrefix = {}) {
        writeKey(key, keyPrefix);
        writeString(value);
    }
    /// Close the object and the line (after at least one key).
    void end() { std::fputs("}\n", file_); }

private:
    void writeKey(std::string_view key, std::string_view keyPrefix = {}) {
        std::fputc(first_ ? '{' : ',', file_);
        first_ = false;
        std::fputc('"', file_);
        writeEscaped(keyPrefix);
        writeEscaped(key);
        std::fputs("\":", file_);
    }
    void writeString(std::string_view text) {
        std::fputc('"', file_);
        writeEscaped(text);
        std::fputc('"', file_);
    }
    void writeEscaped(std::string_view text) {
        for (char ch : text) {
            switch (ch) {
                case '"': std::fputs("\\\"", file_); break;
                case '\\': std::fputs("\\\\", file_); break;
                case '\n': std::fputs("\\n", file_); break;
                case '\r': std::fputs("\\r", file_); break;
                case '\t': std::fputs("\\t", file_); break;
                default:
                    if (static_cast<unsigned char>(ch) < 0x20) std::fprintf(file_, "\\u%04x", static_cast<unsigned>(ch));
                    else std::fputc(ch, file_);
            }
        }
    }

    std::FILE* file_;
    bool first_ = true;
};

/// Writes a custom payload's fields as keys of the current line.
class CustomFieldsToLine final : public CustomFieldVisitor {
public:
    explicit CustomFieldsToLine(JsonLine& line) : line_(line) {}
    void number(std::string_view name, double value) override {
        line_.number(name, value, clashesWithFixedKey(name) ? "attribute." : "");
    }
    void text(std::string_view name, std::string_view value) override {
        line_.string(name, value, clashesWithFixedKey(name) ? "attribute." : "");
    }

private:
    JsonLine& line_;
};

/// Appends one line per data item to a file (a new one under its name, a replacement under its
/// partial name: text_output.h); with `flush`, each line reaches the OS at once (so a reader
/// following that file sees it).
class JsonlEventSink final : public Operator {
protected:
    void onActivate() override {
        path_ = params().getString("path");
        if (path_.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
        flushEachLine_ = params().getBool("flush");
        fields_ = parseFields(params().getString("fields"));
        try {
            output_.open(path_);
        } catch (const std::runtime_error& e) {
            throw OperatorError(e.what());
        }
        out_ = output_.stream();
    }

    void process(int, Item&& item) override {
        ran_ = true;
        JsonLine line(out_);
        if (fields_.empty()) writeEverything(line, item);
        else for (const std::string& field : fields_) writeField(line, item, field);
        line.end();
        if (flushEachLine_) std::fflush(out_);
        // The message names the file and what went wrong; the hook that noticed is no news to the user.
        if (std::string problem = output_.writeError(); !problem.empty()) throw OperatorErrorInHook(problem);
    }

    TimeNs onProgress(TimeNs inputProgress) override {
        ran_ = true;
        return inputProgress;
    }

    void onFinish() override { closeOutput(true); }

    // A stopped run (Ctrl-C, SIGTERM) or a failure elsewhere ends here without onFinish(): every item
    // that reached the sink was written as it came, so the file holds them all. A run refused while
    // its nodes started (another node could not) never ran: it leaves no empty file.
    void onDeactivate() override {
        if (!ran_) return output_.discard();
        closeOutput(false);
    }

private:
    /// Close the file and give it its name (text_output.h): a problem fails the node when the run
    /// completed (`complete`), and is a warning after a stop, as is the news that the file was cut short.
    void closeOutput(bool complete) {
        const GrowingFile::Ending ending = output_.close(complete, "the JSON lines file");
        if (!ending.warning.empty()) warn(ending.warning);
        if (ending.problem.empty()) return;
        if (complete) throw OperatorError(ending.problem);
        warn(ending.problem);
    }

    /// The names in a comma-separated list (spaces around names ignored); empty text = none.
    static std::vector<std::string> parseFields(std::string_view text) {
        std::vector<std::string> fields;
        if (text.find_first_not_of(' ') == std::string_view::npos) return fields;
        for (std::size_t start = 0; start <= text.size();) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            std::string_view name = text.substr(start, comma - start);
            while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
            while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
            if (name.empty()) throw OperatorError("parameter 'fields': an empty name in '" + std::string(text) + "'");
            fields.emplace_back(name);
            start = comma + 1;
        }
        return fields;
    }

    /// Time span, kind, and what the kind carries (see the descriptor's documentation).
    void writeEverything(JsonLine& line, const Item& item) {
        const SampleRange range = item.range();
        if (range.timebase) {
            line.number("t_start", static_cast<double>(range.start) / range.timebase->rateHz());
            line.number("t_end", static_cast<double>(range.end()) / range.timebase->rateHz());
        } else {
            line.null("t_start");
            line.null("t_end");
        }
        line.string("kind", itemKindName(item.kind()));
        switch (item.kind()) {
            case ItemKind::Scalar:
                line.number("value", item.value());
                break;
            case ItemKind::Event:
                line.string("label", item.event()->label());
                line.number("score", item.value());
                for (const EventAttribute& attribute : item.event()->attributes()) writeAttribute(line, attribute);
                break;
            case ItemKind::Custom: {
                line.string("type", item.custom()->typeName());
                line.number("value", item.value());
                CustomFieldsToLine fields(line);
                item.custom()->visitFields(fields);
                break;
            }
            case ItemKind::Signal:
            case ItemKind::Frame:
                line.number("samples", static_cast<double>(item.segment().length()));
                break;
            case ItemKind::TimeRange:
            case ItemKind::Progress:
                break;
        }
    }

    /// One named field: a fixed key, else an event attribute; null when the item has no such value
    /// (a custom item's own fields are written only by writeEverything).
    static void writeField(JsonLine& line, const Item& item, const std::string& field) {
        const SampleRange range = item.range();
        const bool isEvent = item.kind() == ItemKind::Event;
        const bool isSamples = item.kind() == ItemKind::Signal || item.kind() == ItemKind::Frame;
        if (field == "t_start" || field == "t_end") {
            if (!range.timebase) return line.null(field);
            const std::int64_t index = field == "t_start" ? range.start : range.end();
            return line.number(field, static_cast<double>(index) / range.timebase->rateHz());
        }
        if (field == "kind") return line.string(field, itemKindName(item.kind()));
        if (field == "label") return isEvent ? line.string(field, item.event()->label()) : line.null(field);
        const bool hasValue = item.kind() == ItemKind::Scalar || item.kind() == ItemKind::Custom;
        if (field == "value") return hasValue ? line.number(field, item.value()) : line.null(field);
        if (field == "type") return item.kind() == ItemKind::Custom ? line.string(field, item.custom()->typeName()) : line.null(field);
        if (field == "score") return isEvent ? line.number(field, item.value()) : line.null(field);
        if (field == "samples") return isSamples ? line.number(field, static_cast<double>(item.segment().length())) : line.null(field);
        const std::optional<double> attribute = isEvent ? item.event()->get(field) : std::nullopt;
        return attribute ? line.number(field, *attribute) : line.null(field);
    }

    static void writeAttribute(JsonLine& line, const EventAttribute& attribute) {
        const std::string_view name = attribute.name;
        line.number(name, attribute.value, clashesWithFixedKey(name) ? "attribute." : "");
    }

    std::string path_;
    bool flushEachLine_ = true;
    bool ran_ = false;  // an item or progress arrived: the run started
    std::vector<std::string> fields_;  // empty: write everything
    TextOutput output_;
    std::FILE* out_ = nullptr;  // output_'s stream
};

}  // namespace

OperatorDescriptor jsonlEventSinkDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.jsonl_event_sink";
    d.category = "io";
    d.summary = "Writes every item as one JSON object per line (JSON Lines)";
    d.documentation =
        "Each line has t_start and t_end (seconds: sample index / rate of the item's timebase) and kind, "
        "plus value (scalars), label, score and every attribute (events), type, value and every field "
        "(custom items), or samples (signals and frames: the segment's length). With 'fields', each line has "
        "exactly those keys in that order (a fixed key or an event attribute), null where the item has no such value. "
        "A new file is written under 'path' from the start (a reader can follow it). One that replaces an existing file grows "
        "under a name of its own beside it, 'path.<pid>.partial', is renamed to 'path' when the run completes and keeps the old "
        "file's permissions; one cut short (a stop, a failure) never replaces an existing file: it stays under its partial name, with a "
        "warning naming both; where no file was, it stays 'path', with a warning that it was cut short. A run refused while its nodes "
        "start (another node cannot) leaves no file. A write-protected file is "
        "refused. Either way it holds every item that "
        "reached the sink.";
    d.inputs = {PortSpec{"in", PortType::any(), "items of any kind"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "file to write (replaced when the run completes); - = standard output"},
        ParamSpec{"flush", ParamKind::Bool, true, {}, {}, "", "hand each line to the OS at once (for a reader following the file as it grows)"},
        ParamSpec{"fields", ParamKind::String, std::string(), {}, {}, "",
                  "comma-separated keys to write, e.g. t_start,t_end,azimuth_deg; empty = everything"},
    };
    d.create = [] { return std::make_unique<JsonlEventSink>(); };
    return d;
}

}  // namespace isochron
