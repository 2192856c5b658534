// One slot per thread in a fixed table that any thread may read: what a stop request that is not
// honoured reads to name the call each thread is still inside (a node's, a plugin's), with no lock
// and no allocation on the thread that writes its slot.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>

namespace isochron {

/// The table of `Slot`s (atomics only, empty when value-initialised; `Slot::clear()` empties one):
/// one table per Slot type, shared by the process. A thread claims a slot on its first mine() and
/// gives it back, cleared, when it ends; a thread that finds every slot taken gets none. [any thread]
template <typename Slot, std::size_t Count = 256>
class ThreadSlots {
public:
    /// The calling thread's slot; null when every slot is taken (its calls are then not named).
    static Slot* mine() noexcept {
        thread_local const Claim claim;
        return claim.slot;
    }

    /// Calls `visit(slot)` for every slot, taken or not (a free one is empty).
    template <typename Visit>
    static void forEach(Visit&& visit) {
        for (Slot& slot : slots) visit(slot);
    }

private:
    inline static std::array<Slot, Count> slots{};
    inline static std::array<std::atomic<bool>, Count> taken{};

    /// One thread's hold on a slot, for the thread's lifetime.
    struct Claim {
        Slot* slot = nullptr;
        std::size_t index = 0;
        Claim() noexcept {
            for (std::size_t i = 0; i < Count; ++i) {
                bool expected = false;
                if (!taken[i].load(std::memory_order_relaxed) && taken[i].compare_exchange_strong(expected, true)) {
                    slot = &slots[i];
                    index = i;
                    return;
                }
            }
        }
        ~Claim() {
            if (!slot) return;
            slot->clear();
            taken[index].store(false);
        }
    };
};

}  // namespace isochron
