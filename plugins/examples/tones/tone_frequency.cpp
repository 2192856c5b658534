#include "tone_frequency.h"

#include "tone.h"

namespace tones {
namespace {

using namespace isochron::sdk;

/// A consumer of the custom type: one scalar per tone, over the tone's range.
class ToneFrequency final : public Operator {
protected:
    void process(int, const Item& item) override {
        const std::optional<double> frequency = item.record().number(kFrequencyField);
        if (!frequency) throw Error("a tones.tone item without frequency_hz");
        emit(0, Item::scalar(*frequency, item.range()));
    }
};

}  // namespace

OperatorType toneFrequencyType() {
    return OperatorType::of<ToneFrequency>("tones.frequency")
        .category("features")
        .summary("The frequency of each tone, as a scalar")
        .input("tones", "custom<tones.tone>", "tones from tones.detect")
        .output("frequency", "scalar", "frequency_hz of each tone, over the tone's sample range");
}

}  // namespace tones
