// spatial.aml_doa: direction of arrival per event by approximate maximum likelihood (steered beam power).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor amlDoaDescriptor();

}  // namespace isochron
