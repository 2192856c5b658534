#include "engine/plugins/plugin_library.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <system_error>

#include "engine/plugins/plugin_error.h"
#include "isochron/ext/item_types.h"

namespace isochron {
namespace {

// dlerror() text with the private copy's path replaced by the plugin's own.
std::string loaderMessage(const std::filesystem::path& loaded, const std::filesystem::path& file) {
    const char* raw = dlerror();
    std::string message = raw ? raw : "unknown loader error";
    const std::string copy = loaded.string();
    for (auto at = message.find(copy); at != std::string::npos; at = message.find(copy)) {
        message.replace(at, copy.size(), file.filename().string());
    }
    return message;
}

// A private copy of `file` in its own folder (so $ORIGIN still means that folder); empty if the
// folder is not writable, in which case the file itself is loaded.
std::filesystem::path privateCopyOf(const std::filesystem::path& file) {
    static std::atomic<unsigned> counter{0};
    // Built by appending: GCC 12 warns falsely (-Wrestrict) on a literal + std::string temporary.
    std::string name = ".";
    name += file.filename().string();
    name += '.';
    name += std::to_string(getpid());
    name += '-';
    name += std::to_string(counter++);
    const std::filesystem::path copy = file.parent_path() / name;
    std::error_code error;
    std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing, error);
    if (error) return {};
    return copy;
}

}  // namespace

std::unique_ptr<PluginLibrary> PluginLibrary::open(const std::filesystem::path& file) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) throw PluginError(file, "no such file");
    const std::filesystem::path copy = privateCopyOf(file);
    const std::filesystem::path loaded = copy.empty() ? file : copy;
    dlerror();
    void* handle = dlopen(loaded.c_str(), RTLD_NOW | RTLD_LOCAL);
    const std::string openError = handle ? std::string() : loaderMessage(loaded, file);
    if (!copy.empty()) std::filesystem::remove(copy, error);  // the mapping outlives the name
    if (!handle) throw PluginError(file, "cannot be loaded: " + openError);

    auto refuse = [&](const std::string& reason) {
        dlclose(handle);
        return PluginError(file, reason);
    };
    auto entry = reinterpret_cast<IsochronPluginEntry>(dlsym(handle, ISOCHRON_PLUGIN_ENTRY_NAME));
    if (!entry) {
        throw refuse(std::string("exports no ") + ISOCHRON_PLUGIN_ENTRY_NAME +
                     " (define it with ISOCHRON_PLUGIN_ENTRY(table) in one source file)");
    }
    const PluginTable* table = entry();
    if (!table) throw refuse(std::string(ISOCHRON_PLUGIN_ENTRY_NAME) + " returned no table");
    if (table->abiVersion != ISOCHRON_PLUGIN_ABI_VERSION) {
        throw refuse("built for plugin ABI " + std::to_string(table->abiVersion) + ", but this Isochron speaks ABI " +
                     std::to_string(ISOCHRON_PLUGIN_ABI_VERSION) + "; rebuild it against this SDK");
    }
    if (!table->toolchain || std::strcmp(table->toolchain, ISOCHRON_PLUGIN_TOOLCHAIN) != 0) {
        throw refuse(std::string("built with the C++ library ") + (table->toolchain ? table->toolchain : "(none given)") +
                     ", but this Isochron uses " + ISOCHRON_PLUGIN_TOOLCHAIN);
    }
    if (!table->name || !*table->name || !table->version) throw refuse("its table has no name or version");
    if (table->operatorCount > 0 && !table->operators) throw refuse("its table lists operators but gives none");
    return std::unique_ptr<PluginLibrary>(new PluginLibrary(file, handle, table));
}

PluginLibrary::~PluginLibrary() { dlclose(handle_); }

const void* PluginLibrary::capability(const char* id) const {
    return table_->capability ? table_->capability(id) : nullptr;
}

std::vector<OperatorDescriptor> PluginLibrary::describeOperators() const {
    std::vector<OperatorDescriptor> descriptors;
    for (std::uint32_t i = 0; i < table_->operatorCount; ++i) {
        if (!table_->operators[i]) throw PluginError(file_, "operator #" + std::to_string(i) + " has no describe function");
        try {
            descriptors.push_back(table_->operators[i]());
        } catch (const std::exception& e) {
            throw PluginError(file_, "describing operator #" + std::to_string(i) + " failed: " + e.what());
        } catch (...) {
            throw PluginError(file_, "describing operator #" + std::to_string(i) + " threw something that is not a std::exception");
        }
        descriptors.back().origin = file_.string();
    }
    return descriptors;
}

std::vector<DeclaredItemType> PluginLibrary::itemTypes() const {
    std::vector<DeclaredItemType> types;
    const auto* declared = static_cast<const ItemTypesCapability*>(capability(kItemTypesCapabilityId));
    if (!declared) return types;
    for (std::uint32_t i = 0; i < declared->typeCount; ++i) {
        const CustomItemType& type = declared->types[i];
        types.push_back({type.name ? type.name : "", type.doc ? type.doc : ""});
    }
    return types;
}

}  // namespace isochron
