#include "engine/items/custom_payload.h"

#include "engine/memory/memory_pool.h"

namespace isochron {

CustomPayload::~CustomPayload() = default;

void* CustomPayload::operator new(std::size_t bytes) { return MemoryPool::instance().allocate(bytes); }

void CustomPayload::operator delete(void* memory) noexcept { MemoryPool::instance().release(memory); }

}  // namespace isochron
