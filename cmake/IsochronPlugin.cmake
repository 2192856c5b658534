# isochron_add_plugin(<name> SOURCES <file>... [INSTALL_DESTINATION <dir>] [OUTPUT_DIRECTORY <dir>]
#                     [NO_INSTALL] [NO_MANIFEST])
#
# Builds the plugin <name>.so from SOURCES against the Isochron SDK (target Isochron::sdk: headers
# only, any C or C++ compiler and standard library) and, right after each link, writes its manifest
# <name>.manifest.json beside it with isochron-plugin-manifest, so the manifest always describes the
# binary. Both go to OUTPUT_DIRECTORY, by default ${CMAKE_BINARY_DIR}/plugins (so
# ISOCHRON_PLUGIN_PATH=<build>/plugins finds them). `cmake --install` copies both to
# INSTALL_DESTINATION, by default share/isochron/plugins under the install prefix: with
# `--prefix ~/.local` that is the per-user plugin folder the runner and the editor search.
# NO_INSTALL leaves the plugin out of the install; NO_MANIFEST skips the manifest (for binaries
# meant not to load: test fixtures).
#
# Including this file makes Release the default build type: a plugin runs in the engine's inner loop.
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type (plugins default to Release)" FORCE)
endif()

function(isochron_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_INSTALL;NO_MANIFEST" "INSTALL_DESTINATION;OUTPUT_DIRECTORY" "SOURCES")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "isochron_add_plugin(${name}): unexpected ${ARG_UNPARSED_ARGUMENTS}"
                        " (the manifest is generated from the binary now: drop MANIFEST and the file)")
  endif()
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "isochron_add_plugin(${name}): SOURCES is required")
  endif()
  if(NOT ARG_INSTALL_DESTINATION)
    set(ARG_INSTALL_DESTINATION share/isochron/plugins)
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/plugins)
  endif()

  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Isochron::sdk)
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    SUFFIX ".so"
    C_VISIBILITY_PRESET hidden    # only the entry point is exported
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  # GNU unique symbols would keep the library mapped after it is unloaded, so a reload could not
  # replace it; every symbol must resolve when linking, so a typo fails the build, not the load;
  # and the build id names this build in the manifest (the editor reloads once both agree).
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-fno-gnu-unique>)
  target_link_options(${name} PRIVATE -Wl,-z,defs -Wl,--build-id=sha1)

  if(NOT ARG_NO_MANIFEST)
    add_custom_command(TARGET ${name} POST_BUILD
      COMMAND Isochron::plugin-manifest $<TARGET_FILE:${name}>
      COMMENT "Writing the manifest of ${name}.so"
      VERBATIM)
  endif()
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}" COMPONENT plugins)
    if(NOT ARG_NO_MANIFEST)
      install(FILES "${ARG_OUTPUT_DIRECTORY}/${name}.manifest.json" DESTINATION "${ARG_INSTALL_DESTINATION}" COMPONENT plugins)
    endif()
  endif()
endfunction()
