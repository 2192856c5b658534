// The custom item type "tones.tone": one window's dominant tone.
#pragma once

#include <isochron/plugin.h>

namespace tones {

/// Payload of a custom<tones.tone> item; immutable once emitted. [any thread]
class Tone final : public isochron::CustomPayload {
public:
    static constexpr const char* kTypeName = "tones.tone";

    Tone(double frequencyHz, double peak, double rms) : frequencyHz(frequencyHz), peak(peak), rms(rms) {}

    std::string_view typeName() const noexcept override { return kTypeName; }
    void visitFields(isochron::CustomFieldVisitor& visitor) const override {
        visitor.number("frequency_hz", frequencyHz);
        visitor.number("peak", peak);
        visitor.number("rms", rms);
    }

    const double frequencyHz;  ///< from the spacing of upward zero crossings, in Hz
    const double peak;         ///< largest absolute sample, in the signal's unit
    const double rms;          ///< root mean square, in the signal's unit
};

}  // namespace tones
