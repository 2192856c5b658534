// CustomPayload: the payload of a Custom item, a type an operator (often a plugin's) defines itself.
//
// A custom item type has a name ("tones.tone"); ports carrying it are typed "custom<tones.tone>",
// so graph validation keeps producers and consumers of different custom types apart. The payload is
// reference counted like an event record: emitted once, then shared read-only by every consumer.
// Payload objects come from the engine's memory pool (class-level operator new), so emitting one
// costs no system allocation in the steady state.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace isochron {

/// Receives the fields of a payload, e.g. to write it as JSON; names are valid during the call only.
/// [engine thread]
class CustomFieldVisitor {
public:
    /// One numeric field (unit in the name, e.g. "frequency_hz"). [no allocation]
    virtual void number(std::string_view name, double value) = 0;
    /// One text field. [no allocation]
    virtual void text(std::string_view name, std::string_view value) = 0;

protected:
    ~CustomFieldVisitor() = default;
};

/// Base of every custom payload: derive, add fields, implement typeName() and visitFields(). [any thread]
class CustomPayload {
public:
    /// Pool-backed: `new MyPayload(...)` inside process() allocates nothing from the system in the
    /// steady state. [any thread] [pool allocation]
    static void* operator new(std::size_t bytes);
    /// Returns the memory to the pool. [any thread]
    static void operator delete(void* memory) noexcept;

    CustomPayload(const CustomPayload&) = delete;
    CustomPayload& operator=(const CustomPayload&) = delete;

    /// Take one more reference. [any thread] [no allocation]
    void addRef() noexcept { references_.fetch_add(1, std::memory_order_relaxed); }
    /// Drop one reference; the last one destroys the payload. [any thread] [no allocation]
    void release() noexcept {
        if (references_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }

    /// The item type's name, as in the port type "custom<name>". [any thread] [no allocation]
    virtual std::string_view typeName() const noexcept = 0;
    /// Report every field (for sinks, inspectors and the plugin checker's comparisons).
    /// [engine thread] [no allocation]
    virtual void visitFields(CustomFieldVisitor& visitor) const = 0;

protected:
    CustomPayload() = default;
    virtual ~CustomPayload();

private:
    std::atomic<std::uint32_t> references_{1};
};

}  // namespace isochron
