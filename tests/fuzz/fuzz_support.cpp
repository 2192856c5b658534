#include "tests/fuzz/fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

#include "engine/graph/graph_error.h"
#include "engine/graph/validated_graph.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/node_context.h"
#include "engine/schedulers/scheduler.h"
#include "nodes/register_builtin_nodes.h"

namespace isochron::fuzz {
namespace {

std::filesystem::path makeScratchDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "isochron-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        std::perror("isochron fuzz: cannot create a scratch folder");
        std::abort();
    }
    return pattern;
}

}  // namespace

const std::filesystem::path& scratchDirectory() {
    static const std::filesystem::path directory = makeScratchDirectory();
    static const bool cleanupRegistered = [] {
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(directory, ignored);
        });
        return true;
    }();
    (void)cleanupRegistered;
    return directory;
}

void writeFile(const std::filesystem::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
        std::fprintf(stderr, "isochron fuzz: cannot write %s\n", path.c_str());
        std::abort();
    }
}

std::vector<std::string_view> splitAtNul(const std::uint8_t* data, std::size_t size, std::size_t maxParts) {
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> parts;
    while (parts.size() + 1 < maxParts) {
        const std::size_t nul = rest.find('\0');
        if (nul == std::string_view::npos) break;
        parts.push_back(rest.substr(0, nul));
        rest.remove_prefix(nul + 1);
    }
    parts.push_back(rest);
    return parts;
}

void require(bool holds, std::string_view what) {
    if (holds) return;
    std::fprintf(stderr, "isochron fuzz: property violated: %.*s\n", static_cast<int>(what.size()), what.data());
    std::abort();
}

GraphRun runGraph(const GraphSpec& graph, const std::string& scheduler) {
    GraphRun run;
    try {
        ValidatedGraph validated = validateGraph(graph, builtinRegistry());
        Engine engine(validated, parseSchedulerText(scheduler));
        RunOutcome outcome = engine.run();
        if (!outcome.failures.empty()) run.error = outcome.failures.front();
        for (const NodeContext* node : engine.nodes()) {
            std::uint64_t items = 0, samples = 0;
            for (const InputState& in : node->inputs) {
                items += in.items;
                samples += in.samples;
            }
            run.itemsIn[node->id] = items;
            run.samplesIn[node->id] = samples;
        }
        require(outcome.completed || !run.error.empty(), "a run that neither completed nor failed");
    } catch (const GraphException& e) {
        run.error = e.what();
        require(!run.error.empty(), "a GraphException without a message");
    } catch (const std::invalid_argument& e) {
        run.error = e.what();
        require(!run.error.empty(), "an invalid_argument without a message");
    }
    return run;
}

}  // namespace isochron::fuzz
