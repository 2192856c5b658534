// An engine port has one wire tap: a probe and a live recording of the same output share it through
// this, which shows each item to both.
#pragma once

#include <memory>
#include <utility>

#include "engine/runtime/wire_tap.h"

namespace isochron::ui {

/// Shows each item to two taps, `first` first. [observe: engine thread, no allocation]
class TapFanOut final : public WireTap {
public:
    TapFanOut(std::shared_ptr<WireTap> first, std::shared_ptr<WireTap> second) : first_(std::move(first)), second_(std::move(second)) {}
    void observe(const Item& item) noexcept override {
        first_->observe(item);
        second_->observe(item);
    }

private:
    std::shared_ptr<WireTap> first_, second_;
};

}  // namespace isochron::ui
