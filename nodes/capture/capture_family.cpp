#include "nodes/capture/audio_input.h"
#include "nodes/families.h"

namespace isochron {

void registerCaptureNodes(OperatorRegistry& registry) { registry.add(audioInputDescriptor()); }

}  // namespace isochron
