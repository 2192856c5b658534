#include "nodes/register_builtin_nodes.h"
namespace isochron { void registerBuiltinNodes(OperatorRegistry&) {} }
