#include "engine/plugins/plugin_library.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <optional>
#include <system_error>

#include "engine/files/file_kind.h"

#include "engine/plugins/abi_descriptor.h"
#include "engine/plugins/abi_operator.h"
#include "engine/plugins/plugin_build_id.h"
#include "engine/plugins/plugin_error.h"

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

// The bytes an ELF file's program headers (the table itself, and every segment's file range) reach
// to, or nullopt when `in` does not start with a whole ELF header of this class.
template <typename Header, typename ProgramHeader>
std::optional<std::uint64_t> elfBytesNeeded(std::ifstream& in) {
    Header header{};
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return std::nullopt;
    std::uint64_t needed = static_cast<std::uint64_t>(header.e_phoff) + static_cast<std::uint64_t>(header.e_phnum) * sizeof(ProgramHeader);
    for (std::uint16_t i = 0; i < header.e_phnum; ++i) {
        ProgramHeader program{};
        in.seekg(static_cast<std::streamoff>(header.e_phoff + i * sizeof(ProgramHeader)));
        if (!in.read(reinterpret_cast<char*>(&program), sizeof program)) return needed;
        needed = std::max<std::uint64_t>(needed, static_cast<std::uint64_t>(program.p_offset) + program.p_filesz);
    }
    return needed;
}

// Refuses a plugin binary that is not a regular file, or an ELF file shorter than its own program
// headers say (a copy still in progress, a cut download): the loader maps those ranges, and touching
// a page past the end of the file raised SIGBUS in every run that looked at the plugin folder. A
// file that is not ELF at all is left to dlopen, which says so.
void refuseTruncatedBinary(const std::filesystem::path& file) {
    std::error_code error;
    if (const std::string kind = nonRegularFileKind(file); !kind.empty()) throw PluginError(file, "is " + kind + ", not a plugin binary");
    if (!std::filesystem::is_regular_file(file, error)) throw PluginError(file, "no such file");
    const std::uint64_t size = std::filesystem::file_size(file, error);
    std::ifstream in(file, std::ios::binary);
    unsigned char ident[EI_NIDENT] = {};
    if (error || !in.read(reinterpret_cast<char*>(ident), EI_NIDENT) || std::memcmp(ident, ELFMAG, SELFMAG) != 0) return;
    const std::optional<std::uint64_t> needed = ident[EI_CLASS] == ELFCLASS64 ? elfBytesNeeded<Elf64_Ehdr, Elf64_Phdr>(in)
                                                : ident[EI_CLASS] == ELFCLASS32 ? elfBytesNeeded<Elf32_Ehdr, Elf32_Phdr>(in)
                                                                                : std::nullopt;
    if (needed && *needed > size) {
        throw PluginError(file, "is cut short: its ELF program headers reach byte " + std::to_string(*needed) + " but the file holds " +
                                    std::to_string(size) + " bytes (a copy still in progress, or a truncated file?): not loaded");
    }
}

}  // namespace

std::string abiRefusal(std::uint32_t pluginAbi) {
    std::string text = "built for plugin ABI " + std::to_string(pluginAbi);
    if (pluginAbi == 1) text += " (the engine's C++ classes, before the C ABI)";
    return text + ", but this Isochron speaks ABI " + std::to_string(ISOCHRON_ABI_VERSION) +
           ": rebuild it against this SDK (its operators need <isochron/isochron.hpp> or <isochron/isochron.h>)";
}

std::unique_ptr<PluginLibrary> PluginLibrary::open(const std::filesystem::path& file) {
    std::error_code error;
    refuseTruncatedBinary(file);
    const std::filesystem::path copy = privateCopyOf(file);
    // Absolute: dlopen searches the library path for a name without a slash ("peak.so").
    const std::filesystem::path loaded = std::filesystem::absolute(copy.empty() ? file : copy);
    dlerror();
    void* handle = dlopen(loaded.c_str(), RTLD_NOW | RTLD_LOCAL);
    const std::string openError = handle ? std::string() : loaderMessage(loaded, file);
    if (!copy.empty()) std::filesystem::remove(copy, error);  // the mapping outlives the name
    if (!handle) throw PluginError(file, "cannot be loaded: " + openError);

    auto refuse = [&](const std::string& reason) {
        dlclose(handle);
        return PluginError(file, reason);
    };
    auto entry = reinterpret_cast<isochron_plugin_entry_function>(dlsym(handle, ISOCHRON_ENTRY_NAME));
    if (!entry) {
        throw refuse(std::string("exports no ") + ISOCHRON_ENTRY_NAME + " (define it with ISOCHRON_PLUGIN(describe) in one source file)");
    }
    const isochron_plugin* table = entry();
    if (!table) throw refuse(std::string(ISOCHRON_ENTRY_NAME) + " returned no table (the plugin could not describe itself)");
    // Every ABI version starts with the version number, so this read is safe whatever built the plugin.
    if (table->abi_version != ISOCHRON_ABI_VERSION) throw refuse(abiRefusal(table->abi_version));
    if (!table->name || !*table->name || !table->version) throw refuse("its table has no name or version");
    if (table->operator_type_count > 0 && !table->operator_types) throw refuse("its table lists operator types but gives none");
    return std::unique_ptr<PluginLibrary>(new PluginLibrary(file, handle, table));
}

PluginLibrary::~PluginLibrary() { dlclose(handle_); }

const void* PluginLibrary::extension(const char* id) const { return table_->get_extension ? table_->get_extension(id) : nullptr; }

const isochron_operator_type* PluginLibrary::operatorType(const std::string& typeName) const {
    for (std::uint32_t i = 0; i < table_->operator_type_count; ++i) {
        const isochron_operator_type& type = table_->operator_types[i];
        if (type.type_name && typeName == type.type_name) return &type;
    }
    return nullptr;
}

std::vector<OperatorDescriptor> PluginLibrary::describeOperators() const {
    std::vector<OperatorDescriptor> descriptors;
    for (std::uint32_t i = 0; i < table_->operator_type_count; ++i) {
        const isochron_operator_type& type = table_->operator_types[i];
        try {
            descriptors.push_back(descriptorFromAbi(type));
        } catch (const std::invalid_argument& e) {
            throw PluginError(file_, e.what());
        }
        OperatorDescriptor& d = descriptors.back();
        d.origin = file_.string();
        auto declared = std::make_shared<const OperatorDescriptor>(d);
        d.create = [&type, declared, origin = d.origin]() -> std::unique_ptr<Operator> {
            return std::make_unique<AbiOperator>(type, declared, origin);
        };
    }
    return descriptors;
}

std::vector<DeclaredItemType> PluginLibrary::itemTypes() const {
    std::vector<DeclaredItemType> types;
    const auto* declared = static_cast<const isochron_item_types_extension*>(extension(ISOCHRON_EXT_ITEM_TYPES));
    if (!declared) return types;
    for (std::uint32_t i = 0; i < declared->type_count; ++i) {
        const isochron_item_type& type = declared->types[i];
        types.push_back({type.name ? type.name : "", type.doc ? type.doc : ""});
    }
    return types;
}

PluginManifest PluginLibrary::impliedManifest() const {
    PluginManifest manifest;
    manifest.name = table_->name;
    manifest.version = table_->version;
    manifest.abiVersion = table_->abi_version;
    manifest.buildId = pluginBuildId(file_);
    for (const char* id : kKnownExtensions) {
        if (extension(id)) manifest.extensions.push_back(id);
    }
    manifest.itemTypes = itemTypes();
    manifest.operators = describeOperators();
    return manifest;
}

}  // namespace isochron
