#include "engine/graph/node_surroundings.h"

#include <map>
#include <mutex>

namespace isochron {
namespace {

/// The hooks by operator type, and the lock that guards them (registries may be built on several threads).
struct Hooks {
    std::mutex lock;
    std::map<std::string, SurroundingsHook, std::less<>> byType;
};

Hooks& hooks() {
    static Hooks table;
    return table;
}

}  // namespace

void adoptSurroundings(const std::string& typeName, SurroundingsHook hook) {
    std::lock_guard guard(hooks().lock);
    hooks().byType[typeName] = std::move(hook);
}

const SurroundingsHook* surroundingsHook(std::string_view typeName) {
    std::lock_guard guard(hooks().lock);
    const auto found = hooks().byType.find(typeName);
    return found == hooks().byType.end() ? nullptr : &found->second;
}

}  // namespace isochron
