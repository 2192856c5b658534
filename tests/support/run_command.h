// Running the project's executables from tests: a command line, its exit status and its output.
#pragma once

#include <cstdio>
#include <string>

#include <catch2/catch.hpp>
#include <sys/wait.h>

namespace isochron::test {

/// What a finished command did. [value type]
struct CommandResult {
    int status;          ///< exit status, -1 if it did not exit normally
    std::string output;  ///< standard output and standard error together
};

/// Runs `program arguments` through the shell and waits for it. [blocks]
inline CommandResult runProgram(const std::string& program, const std::string& arguments) {
    const std::string command = program + " " + arguments + " 2>&1";
    CommandResult result{-1, {}};
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
    const int raw = pclose(pipe);
    result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return result;
}

}  // namespace isochron::test
