#include "distributed/mpi_refusals.h"

#include <mpi.h>

#include <algorithm>
#include <cstddef>

namespace isochron::distributed {

std::vector<std::string> gatherRefusals(const std::string& refusal) {
    int ranks = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int length = static_cast<int>(refusal.size());
    std::vector<int> lengths(static_cast<std::size_t>(ranks));
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = total;
        total += lengths[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Allgatherv(refusal.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
    std::vector<std::string> refusals;
    for (std::size_t r = 0; r < lengths.size(); ++r) refusals.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
    return refusals;
}

bool printsRefusal(const std::vector<std::string>& refusals, int rank) {
    const std::string& own = refusals.at(static_cast<std::size_t>(rank));
    return !own.empty() && std::find(refusals.begin(), refusals.begin() + rank, own) == refusals.begin() + rank;
}

}  // namespace isochron::distributed
