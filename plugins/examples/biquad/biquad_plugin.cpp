// The biquad plugin's entry point: one operator, and settings for isochron-plugin-check.
#include <isochron/isochron.hpp>

#include "biquad_filter.h"

namespace {

isochron::sdk::Plugin describePlugin() {
    // A sharp bandpass rings longest, so it shows best whether state survives segment boundaries.
    return isochron::sdk::Plugin("biquad", "1.0.0")
        .add(biquad::filterType())
        .check("biquad.filter", R"({"response": "bandpass", "frequency_hz": 700, "q": 8})", true, 0.0);
}

}  // namespace

ISOCHRON_PLUGIN(describePlugin)
