// ScaleOut in a build without MPI: every graph runs whole in this one process.
#include "app/run/scale_out.h"

#include <iostream>
#include <stdexcept>
#include <string>

namespace isochron::run {

namespace {

/// What to change to get MPI, by why this build has none: Open MPI may well be installed.
constexpr const char* kHowToGetMpi =
#if ISOCHRON_MPI_OFF_BY_OPTION
    "this build was configured without MPI (-DISOCHRON_WITH_MPI=OFF): reconfigure with ON "
    "(cmake --preset release -DISOCHRON_WITH_MPI=ON) and build again";
#elif defined(ISOCHRON_SANITIZED)
    "sanitizer builds leave MPI out (Open MPI's allocations at exit trip LeakSanitizer): use the release build "
    "(cmake --preset release)";
#else
    "install Open MPI (Debian: openmpi-bin libopenmpi-dev) and configure again (cmake --preset release)";
#endif

}  // namespace

struct ScaleOut::State {};

ScaleOut::ScaleOut(int&, char**&) {
    if (launcherRankCount() > 1) {
        throw std::runtime_error(std::string("this isochron-run was built without MPI, so under mpirun every rank would run the whole graph. To run "
                                             "partitions on ranks, ") + kHowToGetMpi + " (docs/scale-out.md)");
    }
}

ScaleOut::~ScaleOut() = default;

int ScaleOut::rank() const { return 0; }
int ScaleOut::ranks() const { return 1; }

const ValidatedGraph& ScaleOut::localGraph(const GraphSpec& file, const ValidatedGraph& graph, int, std::vector<std::string>& notes) {
    for (const NodeSpec& node : file.nodes) {
        if (node.partition.value_or(0) != 0) {
            notes.push_back(std::string("the graph puts nodes into partitions, but this isochron-run was built without MPI: the whole graph runs in "
                                        "this process (--partitions threads runs partition k on thread k). To run partition k on rank k, ") +
                            kHowToGetMpi + ", then start it with mpirun -np N (docs/scale-out.md)");
            break;
        }
    }
    return graph;
}

std::string ScaleOut::partitionPlan(const GraphSpec&, const ValidatedGraph&) const { return {}; }

void ScaleOut::relayTelemetry(Engine&, bool, double) {}
void ScaleOut::prepareChannels(Engine&) {}
void ScaleOut::readyToGoOn() {}
int ScaleOut::refuse(const std::string& refusal) {
    std::cerr << refusal << std::flush;
    return 1;
}
void ScaleOut::stop() {}
nlohmann::ordered_json ScaleOut::endRun(const std::string&, const std::function<bool()>&) { return nullptr; }
void ScaleOut::reportWritten() {}
std::string ScaleOut::channelsText() const { return {}; }
nlohmann::ordered_json ScaleOut::channelsJson() const { return nullptr; }
int ScaleOut::channelEnds() const { return 0; }
std::string ScaleOut::rankPath(const std::string& path) const { return path; }
int ScaleOut::finish(int status) { return status; }

}  // namespace isochron::run
