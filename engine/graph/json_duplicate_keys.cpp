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

/// nlohmann's document builder, watching the keys of every open object. A SAX handler, not
/// json::parse's callback: that parser's end of an object scans every element of the enclosing array
/// for discarded values, so a graph of 100 000 nodes took 10 s (quadratic) to read.
class DuplicateKeyWatcher {
public:
    using Json = nlohmann::json;

    DuplicateKeyWatcher(Json& result, const StopPoll& stop) : builder_(result), stopPoller_(stop, "reading the graph file") {}

    bool null() { return valueDone(builder_.null()); }
    bool boolean(bool value) { return valueDone(builder_.boolean(value)); }
    bool number_integer(Json::number_integer_t value) { return valueDone(builder_.number_integer(value)); }
    bool number_unsigned(Json::number_unsigned_t value) { return valueDone(builder_.number_unsigned(value)); }
    bool number_float(Json::number_float_t value, const Json::string_t& text) { return valueDone(builder_.number_float(value, text)); }
    bool string(Json::string_t& value) {
        if (!open_.empty() && open_.back().isObject && open_.back().lastKey == "id") open_.back().id = value;
        return valueDone(builder_.string(value));
    }
    bool binary(Json::binary_t& value) { return valueDone(builder_.binary(value)); }
    bool start_object(std::size_t length) {
        open_.push_back(OpenValue{true});
        return builder_.start_object(length);
    }
    bool start_array(std::size_t length) {
        open_.push_back(OpenValue{false});
        return builder_.start_array(length);
    }
    bool key(Json::string_t& name) {
        OpenValue& object = open_.back();
        object.lastKey = name;
        if (!object.keys.insert(object.lastKey).second) {
            throw DuplicateJsonKey("key \"" + object.lastKey + "\" is given twice in " + whereInnermost(open_) +
                                   " (give each key once: a JSON reader would keep one of them silently)");
        }
        return builder_.key(name);
    }
    bool end_object() { return closeValue(builder_.end_object()); }
    bool end_array() { return closeValue(builder_.end_array()); }
    bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& error) {
        if (error.id == 406) {  // "number overflow parsing '1e400'": say where, and the range
            const std::string what = error.what();
            const std::size_t quote = what.find('\'');
            const std::string number = quote == std::string::npos ? std::string() : " " + what.substr(quote);
            throw JsonNumberOutOfRange(pathOfValueBeingRead(open_), innermostId(open_),
                                       "the number" + number + " is beyond the range of numbers (about -1.8e308 to 1.8e308): give a value in it (" +
                                           what + ")");
        }
        return builder_.parse_error(position, token, error);  // throws it, as json::parse does
    }

private:
    /// An element of an array is complete: the next one has the next index.
    bool valueDone(bool keepParsing) {
        stopPoller_.unit();
        if (!open_.empty() && !open_.back().isObject) ++open_.back().index;
        return keepParsing;
    }
    bool closeValue(bool keepParsing) {
        open_.pop_back();
        return valueDone(keepParsing);
    }

    nlohmann::detail::json_sax_dom_parser<Json> builder_;
    std::vector<OpenValue> open_;
    StopPoller stopPoller_;
};

}  // namespace

nlohmann::json parseJsonRefusingDuplicateKeys(std::string_view text, const StopPoll& stop) {
    nlohmann::json result;
    DuplicateKeyWatcher watcher(result, stop);
    nlohmann::json::sax_parse(text, &watcher);
    return result;
}

}  // namespace isochron
