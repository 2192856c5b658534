#pragma once
#include "engine/operators/registry.h"
namespace isochron { void registerBuiltinNodes(OperatorRegistry& registry); }
