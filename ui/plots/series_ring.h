// A fixed-size history of (time, value) points for one plotted figure; the oldest point is
// overwritten when full. Written at the telemetry rate, read when a plot redraws.
#pragma once

#include <cstddef>
#include <vector>

namespace isochron::ui {

/// The last `capacity` points of one series, in time order. [one thread at a time; the ui thread
/// writes, plots read during the scene graph's sync step while the ui thread waits]
class SeriesRing {
public:
    explicit SeriesRing(std::size_t capacity = 8192) : times_(capacity), values_(capacity) {}

    void push(double time, double value) {
        times_[next_] = time;
        values_[next_] = value;
        next_ = (next_ + 1) % times_.size();
        if (size_ < times_.size()) ++size_;
    }
    std::size_t size() const { return size_; }
    std::size_t capacity() const { return times_.size(); }
    /// Point i, oldest first.
    double time(std::size_t i) const { return times_[index(i)]; }
    double value(std::size_t i) const { return values_[index(i)]; }
    double lastValue() const { return size_ ? value(size_ - 1) : 0.0; }
    void clear() { size_ = next_ = 0; }

private:
    std::size_t index(std::size_t i) const { return (next_ + times_.size() - size_ + i) % times_.size(); }
    std::vector<double> times_, values_;
    std::size_t next_ = 0;
    std::size_t size_ = 0;
};

}  // namespace isochron::ui
