#include "engine/plugins/sandbox/shared_exchange.h"

#include "engine/files/standard_streams.h"

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace isochron::sandbox {
namespace {

// The control block gets a page of its own; the areas follow, page aligned: two for requests, then
// the one for responses.
constexpr std::size_t kControlBytes = 4096;
constexpr std::size_t kMappingBytes = kControlBytes + 3 * SharedExchange::kAreaBytes;
// Polls before sleeping: a few microseconds, in which a hook on a short segment often answers (sparing
// two futex calls); longer spins only burn the core the other side needs on a busy machine.
constexpr int kSpins = 30;

std::runtime_error systemError(const std::string& what) { return std::runtime_error(what + ": " + std::strerror(errno)); }

// Shared (not private) futexes: the two processes map the same memory.
void futexWait(std::atomic<std::uint32_t>& word, std::uint32_t expected, const timespec* timeout) {
    syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT, expected, timeout, nullptr, 0);
}
void futexWake(std::atomic<std::uint32_t>& word) { syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE, 1, nullptr, nullptr, 0); }

// Spin until `word` differs from `value`; false if it did not within kSpins polls.
bool spinWhileEquals(const std::atomic<std::uint32_t>& word, std::uint32_t value) {
    for (int i = 0;; ++i) {
        if (word.load(std::memory_order_acquire) != value) return true;
        if (i == kSpins) return false;
        __builtin_ia32_pause();
    }
}

}  // namespace

std::int64_t steadyNowNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

SharedExchange SharedExchange::create() {
    const int fd = aboveStandardStreams(memfd_create("isochron-sandbox", MFD_CLOEXEC));
    if (fd < 0) throw systemError("memfd_create");
    if (ftruncate(fd, static_cast<off_t>(kMappingBytes)) != 0) {
        close(fd);
        throw systemError("ftruncate of the sandbox's shared memory");
    }
    void* mapping = mmap(nullptr, kMappingBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapping == MAP_FAILED) {
        close(fd);
        throw systemError("mmap of the sandbox's shared memory");
    }
    new (mapping) ExchangeControl();
    return SharedExchange(fd, static_cast<std::byte*>(mapping));
}

SharedExchange SharedExchange::attach(int fd) {
    void* mapping = mmap(nullptr, kMappingBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapping == MAP_FAILED) throw systemError("mmap of the sandbox's shared memory");
    return SharedExchange(fd, static_cast<std::byte*>(mapping));
}

SharedExchange::SharedExchange(int fd, std::byte* mapping)
    : fd_(fd),
      mapping_(mapping),
      control_(reinterpret_cast<ExchangeControl*>(mapping)),
      requests_(mapping + kControlBytes),
      responses_(mapping + kControlBytes + 2 * kAreaBytes) {}

SharedExchange::SharedExchange(SharedExchange&& other) noexcept { *this = std::move(other); }

SharedExchange& SharedExchange::operator=(SharedExchange&& other) noexcept {
    std::swap(fd_, other.fd_);
    std::swap(mapping_, other.mapping_);
    std::swap(control_, other.control_);
    std::swap(requests_, other.requests_);
    std::swap(responses_, other.responses_);
    return *this;
}

SharedExchange::~SharedExchange() {
    if (mapping_) munmap(mapping_, kMappingBytes);
    if (fd_ >= 0) close(fd_);
}

std::uint32_t SharedExchange::sendRequest(std::uint32_t area, std::size_t bytes) {
    control_->requestArea = area;
    control_->requestBytes = bytes;
    control_->committedBytes.store(0, std::memory_order_relaxed);
    const std::uint32_t sequence = control_->requestSequence.fetch_add(1, std::memory_order_seq_cst) + 1;
    if (control_->childSleeping.load(std::memory_order_seq_cst)) futexWake(control_->requestSequence);
    return sequence;
}

bool SharedExchange::awaitResponse(std::uint32_t sequence, std::chrono::milliseconds slice) {
    std::atomic<std::uint32_t>& word = control_->responseSequence;
    const std::uint32_t before = sequence - 1;
    if (spinWhileEquals(word, before)) return true;
    control_->hostSleeping.store(1, std::memory_order_seq_cst);
    if (word.load(std::memory_order_seq_cst) == before) {
        const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(slice);
        const timespec timeout{static_cast<time_t>(seconds.count()), static_cast<long>((slice - seconds).count() * 1'000'000)};
        futexWait(word, before, &timeout);
    }
    control_->hostSleeping.store(0, std::memory_order_relaxed);
    return word.load(std::memory_order_acquire) != before;
}

std::uint32_t SharedExchange::awaitRequest(std::uint32_t previous) {
    std::atomic<std::uint32_t>& word = control_->requestSequence;
    for (;;) {
        if (spinWhileEquals(word, previous)) return word.load(std::memory_order_acquire);
        control_->childSleeping.store(1, std::memory_order_seq_cst);
        if (word.load(std::memory_order_seq_cst) == previous) futexWait(word, previous, nullptr);
        control_->childSleeping.store(0, std::memory_order_relaxed);
    }
}

void SharedExchange::sendResponse(std::size_t bytes) {
    control_->responseBytes = bytes;
    control_->responseSequence.fetch_add(1, std::memory_order_seq_cst);
    if (control_->hostSleeping.load(std::memory_order_seq_cst)) futexWake(control_->responseSequence);
}

}  // namespace isochron::sandbox
