// Reading the files a test's child run wrote: whole text, or a JSON report that must exist.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace isochron::test {

/// The whole content of `path` ("" when it cannot be read).
inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The JSON in `path`; fails the test case (naming the file) when it does not exist.
inline nlohmann::json readJson(const std::filesystem::path& path) {
    INFO("report " << path);
    REQUIRE(std::filesystem::exists(path));
    return nlohmann::json::parse(readText(path));
}

}  // namespace isochron::test
