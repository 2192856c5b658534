#include "engine/items/event_record.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

#include "engine/memory/memory_pool.h"

namespace isochron {

const char* internName(std::string_view name) {
    static std::mutex mutex;
    static std::set<std::string, std::less<>>* names = new std::set<std::string, std::less<>>();
    std::lock_guard lock(mutex);
    auto it = names->find(name);
    if (it == names->end()) it = names->emplace(name).first;
    return it->c_str();
}

EventRecord* EventRecord::create(std::string_view label) {
    const char* interned = internName(label);
    return new (MemoryPool::instance().allocate(sizeof(EventRecord))) EventRecord(interned);
}

void EventRecord::destroy() noexcept {
    this->~EventRecord();
    MemoryPool::instance().release(this);
}

void EventRecord::set(std::string_view name, double value) {
    for (std::uint32_t i = 0; i < count_; ++i) {
        if (name == attributes_[i].name) {
            attributes_[i].value = value;
            return;
        }
    }
    if (count_ == kMaxAttributes) throw std::length_error("EventRecord: too many attributes");
    attributes_[count_++] = EventAttribute{internName(name), value};
}

std::optional<double> EventRecord::get(std::string_view name) const noexcept {
    for (std::uint32_t i = 0; i < count_; ++i) {
        if (name == attributes_[i].name) return attributes_[i].value;
    }
    return std::nullopt;
}

}  // namespace isochron
