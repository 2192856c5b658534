// The C ABI's plain values on the engine side: timebases (the interned isochron_timebase beside
// each engine Timebase), and item kinds and sample types in both directions.
#pragma once

#include <optional>

#include "engine/items/item.h"
#include "isochron/isochron.h"

namespace isochron {

/// The ABI's view of `timebase`: interned, so one pointer per engine Timebase, valid until the
/// process ends. [any thread] [allocates on a timebase's first use]
const isochron_timebase* abiTimebase(const Timebase& timebase);
/// The engine Timebase behind an ABI timebase the engine made (its host_data). [any thread] [no allocation]
inline const Timebase& engineTimebase(const isochron_timebase& timebase) { return *static_cast<const Timebase*>(timebase.host_data); }

/// Whether `timebase` is one the engine made, so engineTimebase() may read it (a plugin could
/// hand in a struct of its own). [any thread] [no allocation]
bool isEngineTimebase(const isochron_timebase* timebase);

/// One-entry cache in front of abiTimebase: a node sees the same timebase item after item.
/// [one thread] [no allocation after a timebase's first use]
class AbiTimebaseCache {
public:
    const isochron_timebase* operator()(const Timebase* timebase) {
        if (!timebase) return nullptr;
        if (timebase != last_) {
            last_ = timebase;
            lastAbi_ = abiTimebase(*timebase);
        }
        return lastAbi_;
    }

private:
    const Timebase* last_ = nullptr;
    const isochron_timebase* lastAbi_ = nullptr;
};

/// The ABI's sample type for an engine one, and back (nullopt for a number the ABI does not define).
isochron_sample_type abiSampleType(SampleType type);
std::optional<SampleType> engineSampleType(std::uint32_t type);

/// The ABI's item kind for an engine one (Progress has none: it is not an item for plugins), and back.
isochron_item_kind abiItemKind(ItemKind kind);
std::optional<ItemKind> engineItemKind(std::uint32_t kind);

}  // namespace isochron
