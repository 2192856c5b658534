// An operator type's C declaration (isochron_operator_type) as the engine's OperatorDescriptor.
#pragma once

#include "engine/operators/descriptor.h"
#include "isochron/isochron.h"

namespace isochron {

/// Everything `type` declares, without a factory; strings are copied. Throws std::invalid_argument
/// naming the field at fault ("operator 'x', params[1] 'q': kind 9 is not a parameter kind").
/// [setup thread] [may allocate]
OperatorDescriptor descriptorFromAbi(const isochron_operator_type& type);

}  // namespace isochron
