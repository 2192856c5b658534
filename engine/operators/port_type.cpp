#include "engine/operators/port_type.h"

namespace isochron {

bool PortType::accepts(const PortType& produced) const {
    if (kind && produced.kind != kind) return false;
    if (kind && carriesSamples() && sampleType && produced.sampleType != sampleType) return false;
    return true;
}

std::string PortType::toString() const {
    if (!kind) return "any";
    std::string text(itemKindName(*kind));
    if (carriesSamples()) {
        text += "<";
        text += sampleType ? std::string(sampleTypeName(*sampleType)) : std::string("any");
        text += ">";
    }
    return text;
}

std::optional<PortType> PortType::parse(std::string_view text) {
    if (text == "any") return PortType::any();
    std::string_view kindText = text;
    std::string_view sampleText;
    if (auto open = text.find('<'); open != std::string_view::npos) {
        if (text.back() != '>') return std::nullopt;
        kindText = text.substr(0, open);
        sampleText = text.substr(open + 1, text.size() - open - 2);
    }
    for (ItemKind k : {ItemKind::Signal, ItemKind::Frame, ItemKind::Scalar, ItemKind::TimeRange, ItemKind::Event}) {
        if (itemKindName(k) != kindText) continue;
        PortType type{k, std::nullopt};
        if (type.carriesSamples()) {
            if (sampleText.empty() || sampleText == "any") return type;
            auto sample = parseSampleType(sampleText);
            if (!sample) return std::nullopt;
            type.sampleType = sample;
        } else if (!sampleText.empty()) {
            return std::nullopt;
        }
        return type;
    }
    return std::nullopt;
}

}  // namespace isochron
