// launcherRankCount(): what the environment of an MPI launcher says, in builds with and without MPI.
#include <algorithm>
#include <cstdlib>

#include "app/run/scale_out.h"

namespace isochron::run {

int launcherRankCount() {
    // Open MPI's mpirun, then PMI launchers (MPICH's hydra, Slurm's srun).
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
        if (const char* value = std::getenv(variable)) return std::max(1, std::atoi(value));
    }
    return 1;
}

}  // namespace isochron::run
