// A FIFO ring that grows by doubling and never shrinks: after warm-up, push and pop never allocate
// (std::deque would allocate and free blocks as it moves).
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace isochron {

/// Unbounded single-threaded FIFO of T (T default-constructible and movable). [one thread]
template <class T>
class RingBuffer {
public:
    bool empty() const noexcept { return head_ == tail_; }
    std::size_t size() const noexcept { return tail_ - head_; }

    void push(T&& value) {
        if (size() == capacity_) grow();
        slots_[tail_++ & (capacity_ - 1)] = std::move(value);
    }
    void push(const T& value) { push(T(value)); }
    T pop() noexcept { return std::move(slots_[head_++ & (capacity_ - 1)]); }
    const T& front() const noexcept { return slots_[head_ & (capacity_ - 1)]; }
    /// Element i from the front (0 = front).
    const T& operator[](std::size_t i) const noexcept { return slots_[(head_ + i) & (capacity_ - 1)]; }

private:
    void grow() {
        std::size_t capacity = capacity_ ? capacity_ * 2 : 16;
        auto slots = std::make_unique<T[]>(capacity);
        std::size_t count = size();
        for (std::size_t i = 0; i < count; ++i) slots[i] = std::move(slots_[(head_ + i) & (capacity_ - 1)]);
        slots_ = std::move(slots);
        capacity_ = capacity;
        head_ = 0;
        tail_ = count;
    }

    std::unique_ptr<T[]> slots_;
    std::size_t capacity_ = 0;
    std::size_t head_ = 0;
    std::size_t tail_ = 0;
};

}  // namespace isochron
