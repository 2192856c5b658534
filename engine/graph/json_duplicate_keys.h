// Reading user JSON (graph files, array geometry files) so that an object giving one key twice is an
// error. nlohmann::json, like most JSON readers, keeps the last value silently: a geometry file with two
// "mics" arrays used the second one, and a node with two "path" parameters wrote to the second file.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace isochron {

/// A key given twice in one JSON object; what() says which key and where ("key \"mics\" is given
/// twice in the top-level object"). [value type]
class DuplicateJsonKey : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses `text` as nlohmann::json::parse does (and throws what it throws for bad JSON), and throws
/// DuplicateJsonKey for the first object that gives a key twice. [any thread]
nlohmann::json parseJsonRefusingDuplicateKeys(std::string_view text);

}  // namespace isochron
