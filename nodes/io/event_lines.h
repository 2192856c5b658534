// Reading event JSON lines (the format io.jsonl_event_sink writes) back into events.
#pragma once

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

/// Parse JSON lines: each non-blank line an object with numbers `t_start` and `t_end` (s,
/// t_end >= t_start), an optional string `label` and number `score` (or `value`); every other
/// numeric key becomes an attribute ("attribute.X" becomes X; other types are ignored). At most
/// `maxAttributes` attributes per line. Throws std::runtime_error naming `source` and the line.
/// [any thread] [allocates]
std::vector<EventLine> parseEventLines(std::string_view text, std::string_view source, int maxAttributes);

}  // namespace isochron
