#include "nodes/families.h"
#include "nodes/math/abs.h"
#include "nodes/math/add.h"
#include "nodes/math/clip.h"
#include "nodes/math/decibels.h"
#include "nodes/math/expression.h"
#include "nodes/math/log.h"
#include "nodes/math/multiply.h"
#include "nodes/math/phase.h"
#include "nodes/math/power.h"
#include "nodes/math/scale.h"
#include "nodes/math/subtract.h"

namespace isochron {

void registerMathNodes(OperatorRegistry& registry) {
    registry.add(addDescriptor());
    registry.add(subtractDescriptor());
    registry.add(multiplyDescriptor());
    registry.add(keepingChannels(scaleDescriptor()));
    registry.add(keepingChannels(absDescriptor()));
    registry.add(keepingChannels(logDescriptor()));
    registry.add(keepingChannels(decibelsDescriptor()));
    registry.add(keepingChannels(powerDescriptor()));
    registry.add(keepingChannels(clipDescriptor()));
    registry.add(keepingChannels(phaseDescriptor()));
    registry.add(expressionDescriptor());
}

}  // namespace isochron
