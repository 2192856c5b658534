// A counting allocator for the whole process: this test binary defines malloc and friends (and so
// operator new, which calls malloc) on top of glibc's, counting calls while counting is switched on.
#pragma once

#include <cstdint>

namespace isochron::test {

/// Number of malloc/calloc/realloc/memalign calls since the last resetAllocationCount(). [any thread]
std::uint64_t allocationCount();
void resetAllocationCount();

}  // namespace isochron::test
