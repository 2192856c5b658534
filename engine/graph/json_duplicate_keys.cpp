#include "engine/graph/json_duplicate_keys.h"

#include <set>
#include <vector>

namespace isochron {
namespace {

/// One open object or array while parsing, and how the parser got into the next one.
struct OpenValue {
    bool isObject = false;
    std::set<std::string, std::less<>> keys;  // objects: the keys given so far
    std::string lastKey;                      // objects: the key of the value being read
    std::size_t index = 0;                    // arrays: the index of the element being read
    std::string id;                           // objects: the string given for "id" so far, if any
};

/// Where the value being read is, e.g. "nodes[2].params.rate" ("" for the top-level value).
std::string pathOfValueBeingRead(const std::vector<OpenValue>& open) {
    std::string path;
    for (const OpenValue& value : open) {
        if (value.isObject) {
            if (!path.empty()) path += '.';
            path += value.lastKey;
        } else {
            path += '[' + std::to_string(value.index) + ']';
        }
    }
    return path;
}

/// The "id" of the innermost open object that gave one, or "".
std::string innermostId(const std::vector<OpenValue>& open) {
    for (auto value = open.rbegin(); value != open.rend(); ++value) {
        if (!value->id.empty()) return value->id;
    }
    return {};
}

/// Where the innermost open object is, e.g. "the object at nodes[2].params".
std::string whereInnermost(const std::vector<OpenValue>& open) {
    std::string path;
    for (std::size_t i = 0; i + 1 < open.size(); ++i) {
        if (open[i].isObject) {
            if (!path.empty()) path += '.';
            path += open[i].lastKey;
        } else {
            path += '[';
            path += std::to_string(open[i].index);
            path += ']';
        }
    }
    return path.empty() ? "the top-level object" : "the object at " + path;
}

}  // namespace

nlohmann::json parseJsonRefusingDuplicateKeys(std::string_view text) {
    using Event = nlohmann::json::parse_event_t;
    std::vector<OpenValue> open;
    // An element of an array is complete: the next one has the next index.
    const auto elementDone = [&open] {
        if (!open.empty() && !open.back().isObject) ++open.back().index;
    };
    try {
        return nlohmann::json::parse(text, [&](int, Event event, nlohmann::json& parsed) {
            switch (event) {
                case Event::object_start:
                case Event::array_start:
                    open.push_back(OpenValue{event == Event::object_start});
                    break;
                case Event::key: {
                    OpenValue& object = open.back();
                    object.lastKey = parsed.get<std::string>();
                    if (!object.keys.insert(object.lastKey).second) {
                        throw DuplicateJsonKey("key \"" + object.lastKey + "\" is given twice in " + whereInnermost(open) +
                                               " (give each key once: a JSON reader would keep one of them silently)");
                    }
                    break;
                }
                case Event::object_end:
                case Event::array_end:
                    open.pop_back();
                    elementDone();
                    break;
                case Event::value:
                    if (!open.empty() && open.back().isObject && open.back().lastKey == "id" && parsed.is_string()) {
                        open.back().id = parsed.get<std::string>();
                    }
                    elementDone();
                    break;
            }
            return true;
        });
    } catch (const nlohmann::json::out_of_range& e) {
        if (e.id != 406) throw;  // 406: "number overflow parsing '1e400'"
        const std::string what = e.what();
        const std::size_t quote = what.find('\'');
        const std::string number = quote == std::string::npos ? std::string() : " " + what.substr(quote);
        throw JsonNumberOutOfRange(pathOfValueBeingRead(open), innermostId(open),
                                   "the number" + number + " is beyond the range of numbers (about -1.8e308 to 1.8e308): give a value in it (" +
                                       what + ")");
    }
}

}  // namespace isochron
