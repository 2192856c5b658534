// Reading event JSON lines (the format io.jsonl_event_sink writes) back into events.
#pragma once

#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace isochron {

/// One event line: its span (s), label, score and numeric attributes in file order. [value type]
struct EventLine {
    int lineNumber = 0;  ///< 1-based, for messages
    double startSeconds = 0;
    double endSeconds = 0;
    std::string label = "event";
    double score = 0;
    std::vector<std::pair<std::string, double>> attributes;
};

/// Longest line an event file may hold: an event line is short, so a longer one is not an event
/// file (a device such as /dev/zero never ends its first line; reading it filled memory).
inline constexpr std::size_t kMaxEventLineBytes = 1 << 20;

/// Latest time (s, either sign) an event may start or end: the engine's times are int64 nanoseconds.
inline constexpr double kMaxEventSeconds = 9.2e9;

/// All of `in`, refusing a line longer than `maxLineBytes` with std::runtime_error naming `source`
/// and the line; nothing once starts are interrupted (engine/runtime/start_interruption.h). [any thread] [allocates]
std::string readEventText(std::istream& in, std::string_view source, std::size_t maxLineBytes = kMaxEventLineBytes);

/// The message refusing line `lineNumber` of `source` for holding more than `maxLineBytes` without a
/// line break. [any thread]
std::string longLineMessage(std::string_view source, int lineNumber, std::size_t maxLineBytes);

/// One line of an event file (without its line break), as parseEventLines() reads each: nothing for
/// a blank line. Throws std::runtime_error naming `source` and `lineNumber`. [any thread] [allocates]
std::optional<EventLine> parseEventLine(std::string_view line, int lineNumber, std::string_view source, int maxAttributes);

/// Parse JSON lines: each non-blank line an object with numbers `t_start` and `t_end` (s,
/// t_end >= t_start, both within +-kMaxEventSeconds), an optional string `label` and number `score` (or `value`); every other
/// numeric key becomes an attribute ("attribute.X" becomes X; other types are ignored). At most
/// `maxAttributes` attributes per line. Throws std::runtime_error naming `source` and the line.
/// Nothing once starts are interrupted. [any thread] [allocates]
std::vector<EventLine> parseEventLines(std::string_view text, std::string_view source, int maxAttributes);

}  // namespace isochron
