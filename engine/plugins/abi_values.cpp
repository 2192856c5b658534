#include "engine/plugins/abi_values.h"

#include <map>
#include <memory>
#include <mutex>

namespace isochron {
namespace {

std::int64_t timeOfIndex(const isochron_timebase* timebase, std::int64_t index) { return engineTimebase(*timebase).timeOf(index); }
std::int64_t firstIndexAtOrAfter(const isochron_timebase* timebase, std::int64_t time) {
    return engineTimebase(*timebase).firstIndexAtOrAfter(time);
}

}  // namespace

const isochron_timebase* abiTimebase(const Timebase& timebase) {
    static std::mutex mutex;
    static auto* views = new std::map<const Timebase*, std::unique_ptr<isochron_timebase>>();  // immortal, like timebases
    std::lock_guard lock(mutex);
    auto& view = (*views)[&timebase];
    if (!view) {
        view = std::make_unique<isochron_timebase>(isochron_timebase{timebase.rateHz(), timebase.zeroTimeNs(), timebase.clock().name().c_str(),
                                                                     &timeOfIndex, &firstIndexAtOrAfter, &timebase});
    }
    return view.get();
}

bool isEngineTimebase(const isochron_timebase* timebase) { return timebase && timebase->time_of == &timeOfIndex; }

isochron_sample_type abiSampleType(SampleType type) {
    switch (type) {
        case SampleType::Float32: return ISOCHRON_SAMPLE_F32;
        case SampleType::Float64: return ISOCHRON_SAMPLE_F64;
        case SampleType::Int16: return ISOCHRON_SAMPLE_I16;
        case SampleType::ComplexFloat32: return ISOCHRON_SAMPLE_C32;
        case SampleType::None: break;
    }
    return ISOCHRON_SAMPLE_NONE;
}

std::optional<SampleType> engineSampleType(std::uint32_t type) {
    switch (type) {
        case ISOCHRON_SAMPLE_F32: return SampleType::Float32;
        case ISOCHRON_SAMPLE_F64: return SampleType::Float64;
        case ISOCHRON_SAMPLE_I16: return SampleType::Int16;
        case ISOCHRON_SAMPLE_C32: return SampleType::ComplexFloat32;
        default: return std::nullopt;
    }
}

isochron_item_kind abiItemKind(ItemKind kind) {
    switch (kind) {
        case ItemKind::Signal: return ISOCHRON_ITEM_SIGNAL;
        case ItemKind::Frame: return ISOCHRON_ITEM_FRAME;
        case ItemKind::Scalar: return ISOCHRON_ITEM_SCALAR;
        case ItemKind::TimeRange: return ISOCHRON_ITEM_TIME_RANGE;
        case ItemKind::Event: return ISOCHRON_ITEM_EVENT;
        case ItemKind::Custom: return ISOCHRON_ITEM_CUSTOM;
        case ItemKind::Progress: break;
    }
    return ISOCHRON_ITEM_SCALAR;  // unreachable: progress never reaches a plugin as an item
}

std::optional<ItemKind> engineItemKind(std::uint32_t kind) {
    switch (kind) {
        case ISOCHRON_ITEM_SIGNAL: return ItemKind::Signal;
        case ISOCHRON_ITEM_FRAME: return ItemKind::Frame;
        case ISOCHRON_ITEM_SCALAR: return ItemKind::Scalar;
        case ISOCHRON_ITEM_TIME_RANGE: return ItemKind::TimeRange;
        case ISOCHRON_ITEM_EVENT: return ItemKind::Event;
        case ISOCHRON_ITEM_CUSTOM: return ItemKind::Custom;
        default: return std::nullopt;
    }
}

}  // namespace isochron
