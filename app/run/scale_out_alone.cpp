// ScaleOut in a build without MPI: every graph runs whole in this one process.
#include "app/run/scale_out.h"

#include <stdexcept>

namespace isochron::run {

struct ScaleOut::State {};

ScaleOut::ScaleOut(int&, char**&) {
    if (launcherRankCount() > 1) {
        throw std::runtime_error("this isochron-run was built without MPI, so under mpirun every rank would run the whole graph. "
                                 "Install Open MPI (Debian: openmpi-bin libopenmpi-dev) and configure again (cmake --preset release) "
                                 "to run partitions on ranks (docs/scale-out.md)");
    }
}

ScaleOut::~ScaleOut() = default;

int ScaleOut::rank() const { return 0; }
int ScaleOut::ranks() const { return 1; }

const ValidatedGraph& ScaleOut::localGraph(const GraphSpec& file, const ValidatedGraph& graph, int, std::vector<std::string>& notes) {
    for (const NodeSpec& node : file.nodes) {
        if (node.partition.value_or(0) != 0) {
            notes.push_back("the graph puts nodes into partitions, but this isochron-run was built without MPI: the whole graph runs in this "
                            "process (--partitions threads runs partition k on thread k). To run partition k on rank k, install Open MPI "
                            "(Debian: openmpi-bin libopenmpi-dev), configure again (cmake --preset release) and start it with mpirun -np N "
                            "(docs/scale-out.md)");
            break;
        }
    }
    return graph;
}

std::string ScaleOut::partitionPlan(const GraphSpec&, const ValidatedGraph&) const { return {}; }

void ScaleOut::relayTelemetry(Engine&, bool, double) {}
bool ScaleOut::failedToRun(const std::string&, const std::function<bool()>&) { return false; }
void ScaleOut::stop() {}
int ScaleOut::failedRank() { return -1; }
nlohmann::ordered_json ScaleOut::endRun(const std::string&, const std::function<bool()>&) { return nullptr; }
void ScaleOut::reportWritten() {}
std::string ScaleOut::channelsText() const { return {}; }
nlohmann::ordered_json ScaleOut::channelsJson() const { return nullptr; }
std::string ScaleOut::rankPath(const std::string& path) const { return path; }
int ScaleOut::finish(int status) { return status; }

}  // namespace isochron::run
