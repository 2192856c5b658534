#include "engine/graph/input_checks.h"

#include <map>

namespace isochron {
namespace {

std::map<std::string, InputCheck, std::less<>>& inputChecks() {
    static std::map<std::string, InputCheck, std::less<>> checks;
    return checks;
}

}  // namespace

void setInputCheck(std::string typeName, InputCheck check) { inputChecks()[std::move(typeName)] = std::move(check); }

const InputCheck* inputCheckOf(std::string_view typeName) {
    const auto found = inputChecks().find(typeName);
    return found == inputChecks().end() ? nullptr : &found->second;
}

}  // namespace isochron
