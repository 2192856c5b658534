// Port types: what kind of item (and element type) a port carries, with wildcards for inputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/items/item.h"

namespace isochron {

/// The type of a port. An unset kind, sample type or custom type name is a wildcard ("any");
/// output ports are concrete once the graph is resolved. Spelled "signal<f32>", "frame<c32>",
/// "scalar", "signal<any>", "custom<tones.tone>", "any" in graph files and messages. [value type]
struct PortType {
    std::optional<ItemKind> kind;
    std::optional<SampleType> sampleType;  // only for signal and frame
    const char* customType = nullptr;      // only for custom: the interned item type name (internName)

    // Constructors of the common types. [any thread] [no allocation]
    static PortType signal(SampleType t) { return {ItemKind::Signal, t}; }
    static PortType anySignal() { return {ItemKind::Signal, std::nullopt}; }
    static PortType frame(SampleType t) { return {ItemKind::Frame, t}; }
    static PortType anyFrame() { return {ItemKind::Frame, std::nullopt}; }
    static PortType scalar() { return {ItemKind::Scalar, std::nullopt}; }
    static PortType timeRange() { return {ItemKind::TimeRange, std::nullopt}; }
    static PortType event() { return {ItemKind::Event, std::nullopt}; }
    /// Items whose payload is the custom type `typeName` (interned here). [any thread] [allocates on a name's first use]
    static PortType custom(std::string_view typeName);
    static PortType anyCustom() { return {ItemKind::Custom, std::nullopt}; }
    static PortType any() { return {std::nullopt, std::nullopt}; }

    /// Signals and frames carry a SigSeg. [any thread] [no allocation]
    bool carriesSamples() const { return kind == ItemKind::Signal || kind == ItemKind::Frame; }
    /// Concrete: no wildcard left. [any thread] [no allocation]
    bool isConcrete() const {
        return kind.has_value() && (!carriesSamples() || sampleType.has_value()) && (kind != ItemKind::Custom || customType);
    }
    /// Whether items of concrete type `produced` may flow into a port of this (possibly wildcard)
    /// type. [any thread] [no allocation]
    bool accepts(const PortType& produced) const;

    /// The spelling used in graph files and messages. [any thread] [may allocate]
    std::string toString() const;
    /// The inverse of toString(); nullopt for text that names no type. [any thread] [may allocate]
    static std::optional<PortType> parse(std::string_view text);
    bool operator==(const PortType&) const = default;
};

}  // namespace isochron
