// io.csv_sink: scalar streams written as the columns of a CSV file, one row per time.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor csvSinkDescriptor();

}  // namespace isochron
