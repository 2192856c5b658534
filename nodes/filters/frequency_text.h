// How the filters family writes a frequency in a message: "8000 Hz", "1234.5 Hz" (no trailing zeros).
#pragma once

#include <sstream>
#include <string>

namespace isochron::filters {

/// `hz` as "<shortest of %g> Hz". [may allocate]
inline std::string hertzText(double hz) {
    std::ostringstream text;
    text << hz << " Hz";
    return text.str();
}

}  // namespace isochron::filters
