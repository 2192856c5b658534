// SharedExchange: the memory a sandboxed node and its host share, and the doorbells between them.
//
// One memfd holds a control block and three areas: two for requests (host -> child: hooks to call
// and their items, samples included), used in turn so the host writes the next request while the
// child works on the last, and one for responses (child -> host: what the hooks emitted, then
// their results). Exactly one request is outstanding at a time, so each side owns an area while it
// writes it and a sequence number hands it over. Waiting spins briefly (a hook on a 4096-sample
// segment returns in microseconds) and then sleeps on a futex; the host's waits are sliced so it
// notices a child that died or overran its watchdog.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace isochron::sandbox {

/// The start of the shared memory. [both processes]
struct ExchangeControl {
    std::atomic<std::uint32_t> requestSequence{0};   ///< raised by the host once a request is written
    std::atomic<std::uint32_t> responseSequence{0};  ///< raised by the child once its response is written
    std::atomic<std::uint32_t> hostSleeping{0};      ///< the host sleeps on responseSequence: wake it
    std::atomic<std::uint32_t> childSleeping{0};     ///< the child sleeps on requestSequence: wake it
    std::uint32_t requestArea = 0;                   ///< which request area holds the current request
    std::uint64_t requestBytes = 0;                  ///< bytes of the current request
    std::uint64_t responseBytes = 0;                 ///< bytes of the current response
    /// Bytes of the current response that are complete answers (the child raises it after each one),
    /// so the host can replay what a child finished before it died.
    std::atomic<std::uint64_t> committedBytes{0};
};

/// The steady clock both processes read (CLOCK_MONOTONIC: the same for every process), in ns.
std::int64_t steadyNowNs();

/// A shared mapping and its doorbells. Move-only; unmaps and closes on destruction. [one thread per side]
class SharedExchange {
public:
    /// Bytes of each area: a request or a response must fit (one segment of 8 M float samples does).
    /// Pages are committed only when touched.
    static constexpr std::size_t kAreaBytes = std::size_t{64} << 20;

    /// A new exchange (the host's side). Throws std::runtime_error. [may allocate]
    static SharedExchange create();
    /// The exchange whose memfd is `fd` (the child's side). Throws std::runtime_error.
    static SharedExchange attach(int fd);
    SharedExchange(SharedExchange&& other) noexcept;
    SharedExchange& operator=(SharedExchange&& other) noexcept;
    ~SharedExchange();

    int fd() const { return fd_; }
    ExchangeControl& control() { return *control_; }
    /// Request area `area` (0 or 1).
    std::byte* requests(std::uint32_t area) { return requests_ + area * kAreaBytes; }
    std::byte* responses() { return responses_; }

    /// Host: the request of `bytes` is written in request area `area`; ring the child; returns the
    /// request's sequence number. [no allocation]
    std::uint32_t sendRequest(std::uint32_t area, std::size_t bytes);
    /// Host: whether the response to request `sequence` is there, without waiting. [no allocation]
    bool responseArrived(std::uint32_t sequence) const {
        return control_->responseSequence.load(std::memory_order_acquire) == sequence;
    }
    /// Host: wait up to `slice` for the response to request `sequence`; true once it is there.
    /// [no allocation]
    bool awaitResponse(std::uint32_t sequence, std::chrono::milliseconds slice);
    /// Child: wait (as long as it takes) for the request after `previous`; returns its sequence.
    std::uint32_t awaitRequest(std::uint32_t previous);
    /// Child: the first `bytes` of the response are complete answers. [no allocation]
    void commitResponse(std::size_t bytes) { control_->committedBytes.store(bytes, std::memory_order_release); }
    /// Child: the response of `bytes` is written; ring the host. [no allocation]
    void sendResponse(std::size_t bytes);

private:
    SharedExchange(int fd, std::byte* mapping);

    int fd_ = -1;
    std::byte* mapping_ = nullptr;
    ExchangeControl* control_ = nullptr;
    std::byte* requests_ = nullptr;
    std::byte* responses_ = nullptr;
};

}  // namespace isochron::sandbox
