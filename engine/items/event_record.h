// The payload of an event item: a label and named numeric attributes, pool-allocated and shared.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace isochron {

/// A process-wide interned copy of `name`, valid forever; equal names give equal pointers.
/// [any thread] [allocates on the first use of a name]
const char* internName(std::string_view name);

/// One named value of an event (e.g. {"azimuth_deg", 42.0}). `name` is interned.
struct EventAttribute {
    const char* name;
    double value;
};

/// Reference-counted event details: a label and up to kMaxAttributes attributes. [any thread]
class EventRecord {
public:
    static constexpr int kMaxAttributes = 14;

    /// A new record with one reference. `label` is interned. [pool allocation, no system allocation]
    static EventRecord* create(std::string_view label);

    void addRef() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
    }

    const char* label() const noexcept { return label_; }
    /// Set (or add) an attribute; throws std::length_error past kMaxAttributes. Only before sharing.
    void set(std::string_view name, double value);
    std::optional<double> get(std::string_view name) const noexcept;
    std::span<const EventAttribute> attributes() const noexcept { return {attributes_, count_}; }

private:
    explicit EventRecord(const char* label) : label_(label) {}
    void destroy() noexcept;

    std::atomic<std::uint32_t> refs_{1};
    std::uint32_t count_ = 0;
    const char* label_;
    EventAttribute attributes_[kMaxAttributes];
};

}  // namespace isochron
