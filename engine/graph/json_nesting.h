// How deeply JSON text nests, found by a linear scan before the text is parsed. nlohmann::json parses
// without recursion, but copying, comparing, dumping and walking a value recurse once per level: a
// graph file nested 200 000 levels deep anywhere (a node's "comment") overflowed the stack with
// SIGSEGV. Readers of user JSON refuse text nested deeper than kMaxJsonNesting before parsing it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace isochron {

/// The deepest nesting of arrays and objects a user's JSON may have: far beyond any graph, geometry
/// or manifest written by hand or by the editor, far below what the recursion can take.
inline constexpr std::size_t kMaxJsonNesting = 1000;

/// The byte offset of the bracket at which `text` first nests deeper than `limit` levels of arrays and
/// objects (brackets inside strings do not count), or nothing. Malformed text is left to the parser.
/// [any thread] [no allocation]
std::optional<std::size_t> jsonNestedBeyond(std::string_view text, std::size_t limit = kMaxJsonNesting);

/// "nested more than 1000 levels deep (at byte 12345): ...", for an error message, when `text` nests
/// deeper than kMaxJsonNesting; "" otherwise. [any thread]
std::string jsonNestingProblem(std::string_view text);

}  // namespace isochron
