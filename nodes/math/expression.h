// math.expression: a compact arithmetic expression over aligned input signals (`a*0.5 + b`),
// compiled once into a postfix program evaluated over whole blocks (see expression_program.h).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor expressionDescriptor();

}  // namespace isochron
