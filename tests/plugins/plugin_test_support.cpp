#include "tests/plugins/plugin_test_support.h"

#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "engine/graph/graph_file.h"
#include "engine/graph/validated_graph.h"
#include "engine/plugins/plugin_error.h"
#include "engine/runtime/engine.h"
#include "tests/support/test_operators.h"

namespace isochron::test {

pid_t startRunner(const std::vector<std::string>& arguments, const std::filesystem::path& outputPath) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        alarm(120);  // a run that cannot be stopped ends the test instead of stalling it
        const int out = ::open(outputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0) _exit(127);
        setenv("XDG_DATA_HOME", "/nonexistent-isochron-test", 1);
        std::vector<char*> argv{const_cast<char*>(ISOCHRON_RUN_BINARY)};
        for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(ISOCHRON_RUN_BINARY, argv.data());
        _exit(127);
    }
    return pid;
}

bool mainThreadSleeps(pid_t pid) {
    std::ifstream wchan("/proc/" + std::to_string(pid) + "/wchan");
    std::string channel;
    wchan >> channel;
    return channel.find("nanosleep") != std::string::npos;
}

std::vector<pid_t> childProcesses(pid_t pid) {
    std::vector<pid_t> children;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        std::getline(stat, text);
        // "PID (COMMAND) STATE PPID ...": the command may hold spaces and parentheses.
        const std::size_t end = text.rfind(')');
        if (end == std::string::npos) continue;
        std::istringstream fields(text.substr(end + 1));
        char state = 0;
        pid_t parent = 0;
        if (fields >> state >> parent && parent == pid) children.push_back(std::stoi(name));
    }
    return children;
}

std::filesystem::path examplePlugin(const std::string& name) { return std::filesystem::path(ISOCHRON_EXAMPLE_PLUGIN_DIR) / (name + ".so"); }
std::filesystem::path fixturePlugin(const std::string& name) { return std::filesystem::path(ISOCHRON_FIXTURE_DIR) / (name + ".so"); }

ScratchFolder::ScratchFolder(const std::string& name)
    : path_(std::filesystem::temp_directory_path() / ("isochron-plugin-test-" + name + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

ScratchFolder::~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::filesystem::path copyPlugin(const std::filesystem::path& plugin, const std::filesystem::path& folder, const std::string& name,
                                 const std::function<void(nlohmann::json&)>& editManifest) {
    const std::filesystem::path target = folder / (name + ".so");
    std::filesystem::copy_file(plugin, target, std::filesystem::copy_options::overwrite_existing);
    std::ifstream in(manifestPathFor(plugin));
    nlohmann::json manifest = nlohmann::json::parse(in);
    if (editManifest) editManifest(manifest);
    std::ofstream(manifestPathFor(target)) << manifest.dump(2);
    return target;
}

std::string refusalOf(PluginHost& host, const std::filesystem::path& plugin) {
    try {
        host.load(plugin);
    } catch (const PluginError& e) {
        return e.what();
    }
    return "";
}

OperatorRegistry& registryWithExamplePlugins() {
    // Never unloaded: items kept in the test's static feeds and collections may hold custom
    // payloads whose code lives in the plugins until the very end of the process.
    static PluginHost* host = [] {
        auto* loaded = new PluginHost(testRegistry());
        for (const char* name : {"biquad", "zero_crossing_rate", "tones"}) loaded->load(examplePlugin(name));
        return loaded;
    }();
    return host->registry();
}

RunOutcome runGraphWith(OperatorRegistry& registry, const std::string& graphJson) {
    ValidatedGraph graph = validateGraph(parseGraph(graphJson), registry);
    Engine engine(graph, SchedulerSpec{"df", {}});
    return engine.run();
}

}  // namespace isochron::test
