# isochron_add_plugin(<name> SOURCES <file>... MANIFEST <file>
#                     [INSTALL_DESTINATION <dir>] [OUTPUT_DIRECTORY <dir>] [NO_INSTALL])
#
# Builds the plugin <name>.so from SOURCES against the Isochron SDK (target Isochron::sdk) and puts
# it, with MANIFEST copied beside it as <name>.manifest.json, in OUTPUT_DIRECTORY (by default
# ${CMAKE_BINARY_DIR}/plugins, so ISOCHRON_PLUGIN_PATH=<build>/plugins finds it). `cmake --install`
# copies both to INSTALL_DESTINATION, by default share/isochron/plugins: with `--prefix ~/.local`
# that is the per-user plugin folder. NO_INSTALL leaves the plugin out of the install (test fixtures).
function(isochron_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_INSTALL" "MANIFEST;INSTALL_DESTINATION;OUTPUT_DIRECTORY" "SOURCES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "isochron_add_plugin(${name}): SOURCES is required")
  endif()
  if(NOT ARG_MANIFEST)
    message(FATAL_ERROR "isochron_add_plugin(${name}): MANIFEST is required (see docs/writing-plugins.md)")
  endif()
  if(NOT ARG_INSTALL_DESTINATION)
    set(ARG_INSTALL_DESTINATION share/isochron/plugins)
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/plugins)
  endif()

  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE Isochron::sdk)
  target_compile_features(${name} PRIVATE cxx_std_20)
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    SUFFIX ".so"
    CXX_VISIBILITY_PRESET hidden  # only the entry point is exported
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  # GNU unique symbols would keep the library mapped after it is unloaded, so a reload could not
  # replace it; and every symbol must resolve when linking, so a typo fails the build, not the load.
  target_compile_options(${name} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-fno-gnu-unique>)
  target_link_options(${name} PRIVATE -Wl,-z,defs)

  get_filename_component(manifest "${ARG_MANIFEST}" ABSOLUTE)
  configure_file("${manifest}" "${ARG_OUTPUT_DIRECTORY}/${name}.manifest.json" COPYONLY)
  if(NOT ARG_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}")
    install(FILES "${manifest}" DESTINATION "${ARG_INSTALL_DESTINATION}" RENAME "${name}.manifest.json")
  endif()
endfunction()
