// A counter the engine thread keeps and another thread (the telemetry watcher) reads while the run
// goes on. It is a relaxed atomic with exactly one writer, so an increment is a load, an add and a
// store (plain moves on x86, no lock prefix): the per-item path costs what a plain field costs, and
// a reader on another thread sees a recent value without a data race.
#pragma once

#include <atomic>
#include <cstdint>

namespace isochron {

/// A count written by one thread and read by any. [written on one thread at a time; read from any thread] [no allocation]
class PublishedCount {
public:
    PublishedCount() = default;
    PublishedCount(std::uint64_t value) noexcept : value_(value) {}
    PublishedCount(const PublishedCount& other) noexcept : value_(other.load()) {}
    PublishedCount& operator=(const PublishedCount& other) noexcept { return *this = other.load(); }
    PublishedCount& operator=(std::uint64_t value) noexcept {
        value_.store(value, std::memory_order_relaxed);
        return *this;
    }

    /// Add `n`. Not a read-modify-write: only the one writing thread may call it. [writer]
    PublishedCount& operator+=(std::uint64_t n) noexcept { return *this = load() + n; }
    PublishedCount& operator++() noexcept { return *this += 1; }
    std::uint64_t load() const noexcept { return value_.load(std::memory_order_relaxed); }
    operator std::uint64_t() const noexcept { return load(); }

private:
    std::atomic<std::uint64_t> value_{0};
};

}  // namespace isochron
