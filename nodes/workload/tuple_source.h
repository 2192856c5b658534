// workload.tuple_source: the input streams of an Aurora-style workload (VLDB 2003, section 5.1):
// `streams` outputs, each receiving scalar items at `rate` per second, evenly spaced or in bursts
// (section 5.4's bursty workload: the same items per second, delivered `burst` at a time).
#pragma once

#include "engine/operators/descriptor.h"

namespace isochron {

OperatorDescriptor tupleSourceDescriptor();

}  // namespace isochron
