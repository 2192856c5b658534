#include "engine/operators/port_type.h"

namespace isochron {
namespace {

// Custom type names are dotted identifiers ("tones.tone"), so they read well inside "custom<...>".
bool isCustomTypeName(std::string_view name) {
    if (name.empty()) return false;
    for (char ch : name) {
        const bool letterOrDigit = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        if (!letterOrDigit && ch != '_' && ch != '.' && ch != '-') return false;
    }
    return true;
}

}  // namespace

PortType PortType::custom(std::string_view typeName) {
    PortType type{ItemKind::Custom, std::nullopt};
    type.customType = internName(typeName);
    return type;
}

bool PortType::accepts(const PortType& produced) const {
    if (kind && produced.kind != kind) return false;
    if (kind && carriesSamples() && sampleType && produced.sampleType != sampleType) return false;
    // Interned names: equal names are the same pointer.
    if (kind == ItemKind::Custom && customType && produced.customType != customType) return false;
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
    if (kind == ItemKind::Custom) {
        text += "<";
        text += customType ? customType : "any";
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
    for (ItemKind k : {ItemKind::Signal, ItemKind::Frame, ItemKind::Scalar, ItemKind::TimeRange, ItemKind::Event,
                       ItemKind::Custom}) {
        if (itemKindName(k) != kindText) continue;
        PortType type{k, std::nullopt};
        if (k == ItemKind::Custom) {
            if (kindText.size() == text.size() || sampleText == "any") return type;
            if (!isCustomTypeName(sampleText)) return std::nullopt;
            return PortType::custom(sampleText);
        }
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
