// streams.slack: Aurora's slack: restores order within a grace period deduced from arrivals.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

/// Descriptor of "streams.slack".
OperatorDescriptor slackDescriptor();

}  // namespace isochron
