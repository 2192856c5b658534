#include "app/run/output_paths.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "engine/archive/archive_store.h"
#include "nodes/io/output_path.h"

namespace isochron::run {
namespace {

// A file named by a node's path parameter. A node without outputs (a sink) writes its files; the
// others read theirs (sources, array geometries).
struct NodeFile {
    std::string node;
    std::string param;
    std::string path;
    bool written = false;
    bool archive = false;   // an archive: several sinks may record into one, and sources read it meanwhile
    bool ioFamily = false;  // an io operator's file (a plugin's sink may read its path, even from a pipe)

    std::string describe() const { return "node '" + node + "' " + (written ? "writes" : "reads") + " (parameter '" + param + "')"; }
    /// "node 'x', parameter 'path'", to begin a message about the file itself.
    std::string named() const { return "node '" + node + "', parameter '" + param + "'"; }
};

/// Throws std::runtime_error naming the node when an io sink could not write its file at all:
/// a named pipe or socket for a file sink, and for io.archive_sink whatever is no file to record into
/// (a folder, a device, a missing folder, another application's database). The sinks refuse these
/// when they start; here --check says so too, before a run.
void refuseUnwritable(const NodeFile& file) {
    if (!file.written || !file.ioFamily) return;
    if (!file.archive) {
        refuseUnwritableOutput(file.path, file.named());
        return;
    }
    try {
        refuseUnrecordableArchive(file.path);
    } catch (const ArchiveError& e) {
        throw std::runtime_error(file.named() + ": " + e.what());
    }
}

/// Throws std::runtime_error when `path` is one of the files SQLite keeps beside the
/// archive `archive` ("-wal", "-shm", "-journal"): SQLite removes or rewrites it while the archive is
/// open (a WAV written to "<archive>-wal" was gone after the run).
void refuseArchiveCompanion(const std::string& what, const std::string& path, const NodeFile& archive) {
    const std::optional<std::string> suffix = archiveFileNamed(path, archive.path);
    if (!suffix || suffix->empty()) return;
    throw std::runtime_error(what + " " + path + " is the file '" + *suffix + "' SQLite keeps beside the archive " + archive.describe() + " " +
                             archive.path + ": SQLite would remove or overwrite it; write to another file");
}

std::vector<NodeFile> nodeFiles(const ValidatedGraph& graph) {
    std::vector<NodeFile> files;
    for (const ValidatedNode& node : graph.nodes) {
        for (const ParamSpec& spec : node.descriptor->params) {
            if (spec.kind != ParamKind::Path) continue;
            const std::string& path = node.params.getString(spec.name);
            if (path.empty() || path == "-" || path.starts_with("{")) continue;  // none, standard output, inline JSON
            const std::string& type = node.descriptor->typeName;
            const bool written = node.outputs.empty() || type == "io.archive_sink";
            files.push_back({node.id, spec.name, path, written, type == "io.archive_sink" || type == "io.archive_source", node.descriptor->category == "io"});
        }
    }
    return files;
}

// A device (/dev/null, a terminal) is written in place, never replaced: several writers may share it.
bool isDevice(const std::string& path) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    return std::filesystem::is_character_file(status) || std::filesystem::is_block_file(status);
}

}  // namespace

void checkNodeOutputPaths(const ValidatedGraph& graph, const std::string& graphPath) {
    const std::vector<NodeFile> files = nodeFiles(graph);
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!files[i].written) continue;
        if (sameFile(files[i].path, graphPath)) {
            throw std::runtime_error(files[i].describe() + " " + files[i].path + ", the graph file itself: it would be overwritten");
        }
        refuseUnwritable(files[i]);
        for (std::size_t j = 0; j < files.size(); ++j) {
            if (j != i && files[j].archive) refuseArchiveCompanion(files[i].describe(), files[i].path, files[j]);
        }
        for (std::size_t j = 0; j < files.size(); ++j) {
            // Each pair of writers once; a reader against every writer.
            if (j == i || (files[j].written && j < i) || (files[i].archive && files[j].archive) || !sameFile(files[i].path, files[j].path)) continue;
            if (files[j].written && isDevice(files[i].path)) continue;  // two sinks into /dev/null
            if (files[j].written) {
                throw std::runtime_error(files[i].describe() + " " + files[i].path + " and " + files[j].describe() + " " + files[j].path +
                                         ": one file, each would clobber the other");
            }
            // The sink's file replaced the input at the end of the run (exit 0): an archive became a WAV.
            throw std::runtime_error(files[i].describe() + " " + files[i].path + ", the file " + files[j].describe() + " " + files[j].path +
                                     ": the input would be overwritten; write to another file");
        }
    }
}

void checkRunOutputPaths(const RunOptions& options, const ValidatedGraph& graph) {
    const std::vector<NodeFile> files = nodeFiles(graph);
    auto refuseInputs = [&](const std::optional<std::string>& path, const char* flag) {
        if (!path) return;
        if (sameFile(*path, options.graphPath)) {
            throw std::runtime_error(std::string(flag) + " " + *path + " is the graph file itself: it would be overwritten");
        }
        for (const NodeFile& file : files) {
            if (file.archive) refuseArchiveCompanion(flag, *path, file);
            if (!sameFile(*path, file.path) || (file.written && isDevice(*path))) continue;
            throw std::runtime_error(std::string(flag) + " " + *path + " is the file " + file.describe() + ": " +
                                     (file.written ? "each would clobber the other" : "it would be overwritten"));
        }
    };
    refuseInputs(options.reportPath, "--report");
    refuseInputs(options.telemetryPath, "--telemetry");
    if (options.reportPath && options.telemetryPath && sameFile(*options.reportPath, *options.telemetryPath) && !isDevice(*options.reportPath)) {
        throw std::runtime_error("--report and --telemetry name the same file " + *options.reportPath + ": each would clobber the other");
    }
    if (options.reportPath) {
        std::error_code error;
        const bool existed = std::filesystem::exists(*options.reportPath, error);
        std::ofstream probe(*options.reportPath, std::ios::app);
        if (!probe) throw std::runtime_error("cannot write report " + *options.reportPath + ": " + std::strerror(errno));
        probe.close();
        if (!existed) std::filesystem::remove(*options.reportPath, error);
    }
}

}  // namespace isochron::run
