// The lock-free channel behind a probe: the engine thread appends the values flowing through a wire,
// the ui thread copies the newest ones when it redraws. Neither waits; a reader that was overtaken
// while copying notices and copies again.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace isochron::ui {

/// Single-producer, single-consumer history of float values. [writer: engine thread, no allocation;
/// reader: any one other thread]
class ProbeRing {
public:
    explicit ProbeRing(std::size_t capacity = std::size_t{1} << 16);

    // ---- writer ----
    void write(const float* values, std::size_t count) noexcept;
    /// Values per frame (0 for a stream of samples or scalars) and the sample rate they describe.
    void describe(int frameLength, double rateHz) noexcept;

    // ---- reader ----
    /// Copy the newest min(count, available) values into `out`, oldest first; returns how many.
    std::size_t readLatest(float* out, std::size_t count) const;
    std::uint64_t written() const noexcept { return head_.load(std::memory_order_acquire); }
    int frameLength() const noexcept { return frameLength_.load(std::memory_order_relaxed); }
    double rateHz() const noexcept { return rateHz_.load(std::memory_order_relaxed); }

private:
    std::vector<std::atomic<float>> buffer_;
    std::atomic<std::uint64_t> head_{0};  // values written since the start
    std::atomic<int> frameLength_{0};
    std::atomic<double> rateHz_{0};
};

/// Rings by probe key, so a probe's view finds the ring its tap writes (probes on one wire share
/// one ring). [any thread; used when probes come and go, never while items flow]
class ProbeRegistry {
public:
    static ProbeRegistry& instance();
    void add(const std::string& key, std::shared_ptr<ProbeRing> ring);
    std::shared_ptr<ProbeRing> find(const std::string& key) const;
    void remove(const std::string& key);

private:
    struct State;
    ProbeRegistry();
    std::unique_ptr<State> state_;
};

}  // namespace isochron::ui
