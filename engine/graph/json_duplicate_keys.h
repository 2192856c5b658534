// Reading user JSON (graph files, array geometry files) so that an object giving one key twice is an
// error, and a number too large for a double names where it is. nlohmann::json, like most JSON readers, keeps the last value silently: a geometry file with two
// "mics" arrays used the second one, and a node with two "path" parameters wrote to the second file.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "engine/graph/stop_poll.h"

namespace isochron {

/// JSON that is well formed but holds what a reader refuses; what() says what and where. [value type]
class RefusedJson : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A key given twice in one JSON object; what() says which key and where ("key \"mics\" is given
/// twice in the top-level object"). [value type]
class DuplicateJsonKey : public RefusedJson {
public:
    using RefusedJson::RefusedJson;
};

/// A number beyond what a double holds (1e400); what() says which and what to do, the JSON
/// library's words kept as a detail. [value type]
class JsonNumberOutOfRange : public RefusedJson {
public:
    JsonNumberOutOfRange(std::string field, std::string node, const std::string& message)
        : RefusedJson(message), field(std::move(field)), node(std::move(node)) {}
    std::string field;  ///< where the number is: "nodes[0].params.rate"; "" at the top level
    std::string node;   ///< the "id" of the nearest object around it that gave one before it, else ""
};

/// Parses `text` as nlohmann::json::parse does (and throws what it throws for bad JSON), and throws
/// DuplicateJsonKey for the first object that gives a key twice and JsonNumberOutOfRange for a number
/// beyond a double's range. Asks `stop` every kStepsPerStopPoll values read and gives up with
/// StartStopped when it says so (a 9.5 MB graph takes about a second to parse). [any thread]
nlohmann::json parseJsonRefusingDuplicateKeys(std::string_view text, const StopPoll& stop = {});

}  // namespace isochron
