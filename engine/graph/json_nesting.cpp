#include "engine/graph/json_nesting.h"

namespace isochron {

std::optional<std::size_t> jsonNestedBeyond(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') ++i;  // the escaped character cannot end the string
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

std::string jsonNestingProblem(std::string_view text) {
    const std::optional<std::size_t> at = jsonNestedBeyond(text);
    if (!at) return {};
    return "nested more than " + std::to_string(kMaxJsonNesting) + " levels deep (at byte " + std::to_string(*at) +
           "): JSON this deep is refused, as reading it would overflow the stack";
}

}  // namespace isochron
