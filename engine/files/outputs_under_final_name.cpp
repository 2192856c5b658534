#include "engine/files/outputs_under_final_name.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

namespace isochron {
namespace {

enum SlotState : int { kFree, kBusy, kRemembered };

/// One remembered output; the state guards the names (kBusy while they are written or used).
struct Slot {
    std::atomic<int> state{kFree};
    char path[PATH_MAX];
    char partialPath[PATH_MAX];
};

// More text sinks than this in one process is unheard of; a file past it is only not moved aside.
constexpr int kSlots = 64;
Slot slots[kSlots];

}  // namespace

int rememberOutputUnderFinalName(const std::string& path, const std::string& partialPath) {
    if (path.size() >= PATH_MAX || partialPath.size() >= PATH_MAX) return -1;
    for (int ticket = 0; ticket < kSlots; ++ticket) {
        int expected = kFree;
        if (!slots[ticket].state.compare_exchange_strong(expected, kBusy)) continue;
        std::memcpy(slots[ticket].path, path.c_str(), path.size() + 1);
        std::memcpy(slots[ticket].partialPath, partialPath.c_str(), partialPath.size() + 1);
        slots[ticket].state.store(kRemembered, std::memory_order_release);
        return ticket;
    }
    return -1;
}

void forgetOutputUnderFinalName(int ticket) noexcept {
    if (ticket < 0 || ticket >= kSlots) return;
    int expected = kRemembered;
    slots[ticket].state.compare_exchange_strong(expected, kFree);
}

void moveOutputsUnderFinalNameAside() noexcept {
    for (Slot& slot : slots) {
        int expected = kRemembered;
        if (!slot.state.compare_exchange_strong(expected, kBusy)) continue;
        // A file system without RENAME_NOREPLACE (EINVAL) gets the same rule, checked first.
        if (::renameat2(AT_FDCWD, slot.path, AT_FDCWD, slot.partialPath, RENAME_NOREPLACE) != 0 && errno == EINVAL &&
            ::access(slot.partialPath, F_OK) != 0) {
            ::rename(slot.path, slot.partialPath);
        }
        slot.state.store(kFree, std::memory_order_release);
    }
}

}  // namespace isochron
