// The tones plugin's entry point: two operators and the custom item type they exchange.
#include <isochron/isochron.hpp>

#include "tone_detector.h"
#include "tone_frequency.h"

namespace {

isochron::sdk::Plugin describePlugin() {
    return isochron::sdk::Plugin("tones", "1.0.0")
        .add(tones::toneDetectorType())
        .add(tones::toneFrequencyType())
        .itemType("tones.tone", "a window's dominant tone: frequency_hz (Hz), peak and rms (signal's unit)");
}

}  // namespace

ISOCHRON_PLUGIN(describePlugin)
