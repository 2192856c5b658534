#include "nodes/io/run_output_paths.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/archive/archive_store.h"
#include "engine/plugins/plugin_manifest.h"
#include "engine/files/file_kind.h"
#include "nodes/io/output_path.h"
#include "nodes/io/partial_file.h"

namespace isochron {
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
    std::string stream;     // io.archive_sink: the stream it records ("stream", else the node id)

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
    if (file.path.empty()) throw std::runtime_error(file.named() + ": no file given (it is empty): give the file to write" +
                                                    (file.archive ? std::string() : ", or '-' for standard output"));
    if (!file.archive) {
        refuseUnwritableOutput(file.path, file.named());
        return;
    }
    try {
        refuseUnrecordableArchive(file.path);
    } catch (const ArchiveError& e) {
        throw std::runtime_error(file.named() + ": " + e.what());
    }
    refuseUnwritableOutput(file.path, file.named());
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

/// Throws std::runtime_error when the folder the report `path` is written in (beside its target,
/// partial_file.h) cannot take a test file of one byte (one block on the disk), written and removed
/// again: a full disk was found only when the run ended, and an hour's run lost its report.
void refuseReportFolderFull(const std::string& path) {
    const std::string target = followSymlinks(path);
    if (!nonRegularFileKind(target).empty()) return;  // a device (/dev/null) is written in place
    const std::string probe = createPartialFile(target);
    const char byte = '\n';
    int error = 0;
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        error = errno;
    } else {
        const ssize_t written = ::write(fd, &byte, 1);
        if (written != 1) error = written < 0 ? errno : ENOSPC;
        if (::close(fd) != 0 && error == 0) error = errno;
    }
    std::remove(probe.c_str());
    if (error == 0) return;
    throw std::runtime_error("cannot write report " + path + ": a test write of one byte beside it failed (" + std::strerror(error) +
                             "), so the report would be lost when the run ends: free space on that disk, or give a path on another");
}

std::vector<NodeFile> nodeFiles(const ValidatedGraph& graph) {
    std::vector<NodeFile> files;
    for (const ValidatedNode& node : graph.nodes) {
        for (const ParamSpec& spec : node.descriptor->params) {
            if (spec.kind != ParamKind::Path) continue;
            const std::string& path = node.params.getString(spec.name);
            const std::string& type = node.descriptor->typeName;
            // A sink writes its `path`; its other files (a geometry to store, say) are read.
            const bool written = (node.outputs.empty() || type == "io.archive_sink") && spec.name == "path";
            const bool ioFamily = node.descriptor->category == "io";
            // An io sink without a file is refused when it starts: say so before (refuseUnwritable). So
            // is an archive sink on "-": an archive is a file written in place, never standard output.
            if ((path.empty() || (path == "-" && type == "io.archive_sink")) && written && ioFamily) {
                files.push_back({node.id, spec.name, path, written, type == "io.archive_sink", ioFamily, {}});
                continue;
            }
            if (path.empty() || path == "-" || path.starts_with("{")) continue;  // none, standard output, inline JSON
            std::string stream;
            if (type == "io.archive_sink") stream = node.params.getString("stream").empty() ? node.id : node.params.getString("stream");
            files.push_back({node.id, spec.name, path, written, type == "io.archive_sink" || type == "io.archive_source", ioFamily, stream});
        }
    }
    return files;
}

/// The sinks whose path parameter is "-" (standard output), as "node 'x' (parameter 'path')".
std::vector<std::string> standardOutputWriters(const ValidatedGraph& graph) {
    std::vector<std::string> writers;
    for (const ValidatedNode& node : graph.nodes) {
        if (!node.outputs.empty() && node.descriptor->typeName != "io.archive_sink") continue;  // "-" of a source is standard input
        for (const ParamSpec& spec : node.descriptor->params) {
            if (spec.kind == ParamKind::Path && node.params.getString(spec.name) == "-") writers.push_back("node '" + node.id + "' (parameter '" + spec.name + "')");
        }
    }
    return writers;
}

/// Whether `path` is, by identity, the file standard output (descriptor 1) writes: /dev/stdout,
/// /dev/fd/1, /proc/self/fd/1, or the file the shell redirected it to under any name. A device
/// (/dev/null, a terminal) is not: writers share it in place, nothing is replaced.
bool isStandardOutputFile(const std::string& path) {
    struct stat standardOutput {}, named {};
    if (::fstat(STDOUT_FILENO, &standardOutput) != 0 || ::stat(path.c_str(), &named) != 0) return false;
    if (S_ISCHR(standardOutput.st_mode) || S_ISBLK(standardOutput.st_mode)) return false;
    return standardOutput.st_dev == named.st_dev && standardOutput.st_ino == named.st_ino;
}

// A device (/dev/null, a terminal) is written in place, never replaced: several writers may share it.
bool isDevice(const std::string& path) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    return std::filesystem::is_character_file(status) || std::filesystem::is_block_file(status);
}

/// checkNodeOutputPaths() for the file files[i] a node writes.
void checkWrittenFile(const std::vector<NodeFile>& files, std::size_t i, const std::vector<RunInput>& inputs) {
    for (const RunInput& input : inputs) {
        if (!sameFile(files[i].path, input.path)) continue;
        throw std::runtime_error(files[i].describe() + " " + files[i].path + ", " + input.what + ": it would be overwritten");
    }
    refuseUnwritable(files[i]);
    for (std::size_t j = 0; j < files.size(); ++j) {
        if (j != i && files[j].archive) refuseArchiveCompanion(files[i].describe(), files[i].path, files[j]);
    }
    for (std::size_t j = i + 1; j < files.size(); ++j) {
        // Two recorders of one stream stored every piece twice, and reading it mixed them.
        if (files[i].stream.empty() || files[i].stream != files[j].stream || !sameFile(files[i].path, files[j].path)) continue;
        throw std::runtime_error("node '" + files[i].node + "' and node '" + files[j].node + "' both record the stream '" + files[i].stream +
                                 "' of the archive " + files[i].path + ": give one of them another 'stream' (several streams may share an archive)");
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

}  // namespace

std::vector<RunInput> runInputs(const std::string& graphPath, const ValidatedGraph& graph, const std::vector<std::filesystem::path>& plugins) {
    std::vector<RunInput> inputs;
    if (!graphPath.empty()) inputs.push_back({graphPath, "the graph file itself"});
    for (const std::filesystem::path& file : graph.subgraphFiles) {
        inputs.push_back({file.string(), "the subgraph file " + file.string() + " the graph includes"});
    }
    std::set<std::filesystem::path> pluginFiles(plugins.begin(), plugins.end());
    for (const ValidatedNode& node : graph.nodes) {
        if (node.descriptor->origin != "built-in") pluginFiles.insert(node.descriptor->origin);
    }
    for (const std::filesystem::path& plugin : pluginFiles) {
        inputs.push_back({plugin.string(), "the plugin " + plugin.string() + " the run loads"});
        const std::string manifest = manifestPathFor(plugin).string();
        inputs.push_back({manifest, "the manifest " + manifest + " of the plugin " + plugin.filename().string() + " the run loads"});
    }
    return inputs;
}

NodeOutputPathError::NodeOutputPathError(std::string node, const std::string& message) : std::runtime_error(message), node_(std::move(node)) {}

std::string NodeOutputPathError::withoutNode() const {
    const std::string message = what();
    const std::string named = "node '" + node_ + "'";
    if (!message.starts_with(named)) return message;
    return message.substr(message.compare(named.size(), 2, ", ") == 0 ? named.size() + 2 : named.size() + 1);
}

void checkNodeOutputPaths(const ValidatedGraph& graph, const std::vector<RunInput>& inputs) {
    const std::vector<NodeFile> files = nodeFiles(graph);
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!files[i].written) continue;
        try {
            checkWrittenFile(files, i, inputs);
        } catch (const std::runtime_error& e) {
            throw NodeOutputPathError(files[i].node, e.what());
        }
    }
}

void checkRunOutputPaths(const RunOutputFiles& outputs, const ValidatedGraph& graph, const std::vector<RunInput>& inputs) {
    const std::vector<NodeFile> files = nodeFiles(graph);
    auto refuseInputs = [&](const std::optional<std::string>& path, const char* flag) {
        if (!path) return;
        for (const RunInput& input : inputs) {
            if (sameFile(*path, input.path)) throw std::runtime_error(std::string(flag) + " " + *path + " is " + input.what + ": it would be overwritten");
        }
        for (const NodeFile& file : files) {
            if (file.archive) refuseArchiveCompanion(flag, *path, file);
            if (!sameFile(*path, file.path) || (file.written && isDevice(*path))) continue;
            throw std::runtime_error(std::string(flag) + " " + *path + " is the file " + file.describe() + ": " +
                                     (file.written ? "each would clobber the other" : "it would be overwritten"));
        }
    };
    refuseInputs(outputs.report, "--report");
    refuseInputs(outputs.telemetry, "--telemetry");
    if (outputs.telemetry) refuseUnwritableOutput(*outputs.telemetry, "--telemetry");
    if (outputs.report && outputs.telemetry && sameFile(*outputs.report, *outputs.telemetry) && !isDevice(*outputs.report)) {
        throw std::runtime_error("--report and --telemetry name the same file " + *outputs.report + ": each would clobber the other");
    }
    if (outputs.report) {
        std::error_code error;
        const bool existed = std::filesystem::exists(*outputs.report, error);
        std::ofstream probe(*outputs.report, std::ios::app);
        if (!probe) throw std::runtime_error("cannot write report " + *outputs.report + ": " + std::strerror(errno));
        probe.close();
        if (!existed) std::filesystem::remove(*outputs.report, error);
        refuseReportFolderFull(*outputs.report);
    }
}

void checkStandardOutputWriters(const RunOutputFiles& outputs, const ValidatedGraph& graph) {
    const std::vector<std::string> writers = standardOutputWriters(graph);
    if (writers.size() > 1) {
        throw std::runtime_error(writers[0] + " and " + writers[1] + " both write to standard output ('-'): their data would be mixed in one " +
                                 "stream; give one of them a file");
    }
    if (writers.empty()) return;
    auto refuse = [&](const std::string& what, const std::string& path) {
        if (!isStandardOutputFile(path)) return;
        throw std::runtime_error(what + " " + path + " is standard output, where " + writers[0] + " writes its data ('-'): one would " +
                                 "overwrite or corrupt the other; write to another file");
    };
    if (outputs.report) refuse("--report", *outputs.report);
    if (outputs.telemetry) refuse("--telemetry", *outputs.telemetry);
    for (const NodeFile& file : nodeFiles(graph)) {
        if (file.written) refuse(file.describe(), file.path);
    }
}

}  // namespace isochron
