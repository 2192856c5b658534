// Whether every rank can run, agreed in one collective step (docs/scale-out.md, "When a rank cannot
// run"). A rank that refused alone (its graph file unreadable on its host, a node that cannot start
// there) used to end the job through MPI_Abort while the others waited in a collective call: the job
// ended with Open MPI's abort banner, a refusal every rank shared was printed by whichever ranks got
// to it first, and the others ended without a word. Agreeing first lets every rank leave alike.
#pragma once

#include <string>
#include <vector>

namespace isochron::distributed {

/// Every rank's refusal by rank ("" for a rank that is ready to go on), as each rank learns them:
/// `refusal` is this rank's. A collective call on MPI_COMM_WORLD: every rank makes it at the same
/// point of its start, the ready ones and the refusing ones alike. [the MPI thread]
std::vector<std::string> gatherRefusals(const std::string& refusal);

/// Whether this rank (`rank`) is the one to print its refusal: it refused, and no lower rank refused
/// in the same words (a refusal every rank shares, such as two sinks on one file, is printed once,
/// by the lowest rank). [any thread]
bool printsRefusal(const std::vector<std::string>& refusals, int rank);

}  // namespace isochron::distributed
