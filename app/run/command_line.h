// isochron-run's command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace isochron::run {

/// What the user asked for. [value type]
struct RunOptions {
    std::string graphPath;
    std::optional<std::string> scheduler;  ///< overrides the graph file's choice
    std::vector<std::string> overrides;    ///< "node.param=value"
    std::vector<std::string> plugins;      ///< plugin binaries to load before the discovered ones
    bool sandboxAll = false;                   ///< --sandbox: every plugin out of process
    std::vector<std::string> sandboxed;        ///< --sandbox=a,b: these plugins (by name) out of process
    std::optional<double> watchdogSeconds;     ///< sandboxed: longest a hook may take, in s (none: chosen from the graph)
    std::optional<std::string> reportPath;
    std::optional<std::string> telemetryPath;  ///< JSON lines, one snapshot each
    double telemetryRate = 30.0;               ///< snapshots per second
    int channelCredits = 8;                    ///< between partitions: messages a channel may have in flight (1-4096)
    bool partitionsOnThreads = false;          ///< --partitions threads: partition k on thread k of this process
    bool quiet = false;
    bool checkOnly = false;
    bool listOperators = false;
    std::optional<std::string> operatorReferencePath;  ///< --operator-reference: write docs/operators.md here ("-" = standard output)
    bool listSchedulers = false;
    bool listDevices = false;
    bool listPlugins = false;
    bool help = false;
    bool version = false;
};

/// Parse argv; throws std::invalid_argument with a one-line message on bad usage.
RunOptions parseCommandLine(int argc, char** argv);

/// The --help text.
std::string usageText();

}  // namespace isochron::run
