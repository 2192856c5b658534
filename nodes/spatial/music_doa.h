// spatial.music: directions of arrival per event by wideband MUSIC (signal subspace of the
// cross-spectral matrices), one bearing per expected source.
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor musicDoaDescriptor();

}  // namespace isochron
