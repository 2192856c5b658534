#include "nodes/io/event_lines.h"

#include <array>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/runtime/start_interruption.h"

namespace isochron {

namespace {

[[noreturn]] void fail(std::string_view source, int line, const std::string& why) {
    throw std::runtime_error(std::string(source) + ", line " + std::to_string(line) + ": " + why);
}

double requiredNumber(const nlohmann::ordered_json& object, const char* key, std::string_view source, int line) {
    const auto it = object.find(key);
    if (it == object.end()) fail(source, line, std::string("no \"") + key + "\"");
    if (!it->is_number()) fail(source, line, std::string("\"") + key + "\" is not a number");
    const double value = it->get<double>();
    if (!std::isfinite(value)) fail(source, line, std::string("\"") + key + "\" is not finite");
    // Beyond this the time wrapped silently (1e300 s came out as -1.9e14 s).
    if (std::abs(value) > kMaxEventSeconds) {
        std::ostringstream text;
        text << "\"" << key << "\" is " << value << " s, beyond the +-9.2e9 s (about 290 years) the engine's times hold";
        fail(source, line, text.str());
    }
    return value;
}

}  // namespace

std::string readEventText(std::istream& in, std::string_view source, std::size_t maxLineBytes) {
    auto refuse = [&](int lineNumber) { throw std::runtime_error(longLineMessage(source, lineNumber, maxLineBytes)); };
    std::string text;
    std::array<char, 64 * 1024> chunk{};
    std::size_t lineStart = 0;
    int lineNumber = 1;
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        if (startsInterrupted()) return {};  // the run is stopping before it began: nothing to replay
        const std::size_t from = text.size();
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        for (std::size_t newline = text.find('\n', from); newline != std::string::npos; newline = text.find('\n', newline + 1)) {
            if (newline - lineStart > maxLineBytes) refuse(lineNumber);
            lineStart = newline + 1;
            ++lineNumber;
        }
        if (text.size() - lineStart > maxLineBytes) refuse(lineNumber);
    }
    return text;
}

std::string longLineMessage(std::string_view source, int lineNumber, std::size_t maxLineBytes) {
    const std::string limit = maxLineBytes % (1 << 20) == 0 ? std::to_string(maxLineBytes >> 20) + " MiB" : std::to_string(maxLineBytes) + " bytes";
    return std::string(source) + ", line " + std::to_string(lineNumber) + ": longer than " + limit +
           " without a line break: not an event line (is this an event file?)";
}

std::optional<EventLine> parseEventLine(std::string_view line, int lineNumber, std::string_view source, int maxAttributes) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) return std::nullopt;
    const nlohmann::ordered_json object = nlohmann::ordered_json::parse(line, nullptr, false);
    if (object.is_discarded()) fail(source, lineNumber, "not valid JSON");
    if (!object.is_object()) fail(source, lineNumber, "not a JSON object");
    EventLine event;
    event.lineNumber = lineNumber;
    event.startSeconds = requiredNumber(object, "t_start", source, lineNumber);
    event.endSeconds = requiredNumber(object, "t_end", source, lineNumber);
    if (event.endSeconds < event.startSeconds) fail(source, lineNumber, "t_end is before t_start");
    for (const auto& [key, value] : object.items()) {
        if (key == "t_start" || key == "t_end") continue;
        if (key == "label") {
            if (value.is_string()) event.label = value.get<std::string>();
            continue;
        }
        if (!value.is_number()) continue;
        const double number = value.get<double>();
        if (key == "score" || key == "value") {
            event.score = number;
            continue;
        }
        const std::string name = key.starts_with("attribute.") ? key.substr(10) : key;
        if (static_cast<int>(event.attributes.size()) == maxAttributes) {
            fail(source, lineNumber, "more than " + std::to_string(maxAttributes) + " numeric fields (an event holds at most that many)");
        }
        event.attributes.emplace_back(name, number);
    }
    return event;
}

std::vector<EventLine> parseEventLines(std::string_view text, std::string_view source, int maxAttributes) {
    std::vector<EventLine> events;
    int lineNumber = 0;
    for (std::size_t at = 0; at < text.size();) {
        if (startsInterrupted()) return {};
        const std::size_t newline = text.find('\n', at);
        const std::string_view line = text.substr(at, newline == std::string_view::npos ? std::string_view::npos : newline - at);
        at = newline == std::string_view::npos ? text.size() : newline + 1;
        if (std::optional<EventLine> event = parseEventLine(line, ++lineNumber, source, maxAttributes)) events.push_back(std::move(*event));
    }
    return events;
}

}  // namespace isochron
