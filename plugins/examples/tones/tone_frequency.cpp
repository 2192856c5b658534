#include "tone_frequency.h"

#include "tone.h"

namespace tones {
namespace {

using namespace isochron;

/// A consumer of the custom type: one scalar per tone, over the tone's range.
class ToneFrequency final : public Operator {
protected:
    void process(int, Item&& item) override {
        const Tone* tone = item.customAs<Tone>();
        if (!tone) throw OperatorError("expected a tones.tone item");
        emit(0, Item::scalar(tone->frequencyHz, item.range()));
    }
};

}  // namespace

OperatorDescriptor toneFrequencyDescriptor() {
    OperatorDescriptor d;
    d.typeName = "tones.frequency";
    d.category = "features";
    d.summary = "The frequency of each tone, as a scalar";
    d.inputs = {PortSpec{"tones", PortType::custom(Tone::kTypeName), "tones from tones.detect"}};
    d.outputs = {PortSpec{"frequency", PortType::scalar(), "frequency_hz of each tone, over the tone's sample range"}};
    d.create = [] { return std::make_unique<ToneFrequency>(); };
    return d;
}

}  // namespace tones
