# What `cmake --install` puts where, and the Debian package CPack makes of
# it (`cpack -G DEB` in the build directory, or the `package` target);
# docs/packaging.md. Included by CMakeLists.txt after the rocmdoc target.
include(GNUInstallDirs)

# The man pages, completions and changelog, generated from the built binary
# (cmake/generated_docs.cmake). Part of ALL: the pages must exist for the
# tests and for `cmake --install`.
set(ROCMDOC_GENERATED_DOCS ${CMAKE_BINARY_DIR}/generated/docs)
set(ROCMDOC_MAN_DIR ${ROCMDOC_GENERATED_DOCS}/man)
set(ROCMDOC_COMPLETIONS_DIR ${ROCMDOC_GENERATED_DOCS}/completions)
set(ROCMDOC_DEB_CHANGELOG ${CMAKE_SOURCE_DIR}/packaging/debian/changelog)
add_custom_command(
  OUTPUT ${ROCMDOC_GENERATED_DOCS}/docs.stamp
  COMMAND ${CMAKE_COMMAND} -DROCMDOC=$<TARGET_FILE:rocmdoc> -DOUT=${ROCMDOC_GENERATED_DOCS}
          -DSTAMP=${ROCMDOC_GENERATED_DOCS}/docs.stamp -DCHANGELOG=${ROCMDOC_DEB_CHANGELOG}
          -P ${CMAKE_SOURCE_DIR}/cmake/generated_docs.cmake
  DEPENDS rocmdoc ${CMAKE_SOURCE_DIR}/cmake/generated_docs.cmake ${ROCMDOC_DEB_CHANGELOG}
  COMMENT "Man pages and shell completions from rocmdoc's command line")
add_custom_target(rocmdoc_generated_docs ALL DEPENDS ${ROCMDOC_GENERATED_DOCS}/docs.stamp)

install(TARGETS rocmdoc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${ROCMDOC_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")
# The vendor directories each shell searches (bash-completion loads
# completions/NAME on first Tab; zsh's Debian fpath has vendor-completions;
# fish reads vendor_completions.d).
install(FILES ${ROCMDOC_COMPLETIONS_DIR}/rocmdoc.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME rocmdoc)
install(FILES ${ROCMDOC_COMPLETIONS_DIR}/_rocmdoc DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES ${ROCMDOC_COMPLETIONS_DIR}/rocmdoc.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/copyright ${ROCMDOC_GENERATED_DOCS}/changelog.Debian.gz
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The documents --help and the man pages cite as docs/NAME.md, under the same
# relative name: /usr/share/doc/rocmdoc/docs/NAME.md (the top-level --help
# says where they are).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md" PATTERN "*.json")
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME rocmdoc)
# The local rules folder check reads (RuleSources::local_rules_dir in
# src/rules/knowledge.h): always /etc, whatever the prefix.
install(FILES ${CMAKE_SOURCE_DIR}/packaging/debian/rules.d-README DESTINATION /etc/rocmdoc/rules.d RENAME README)

# The changelog's newest entry must be this version: a package whose
# changelog names another version misleads whoever reads it.
set(ROCMDOC_DEB_RELEASE 1)
file(STRINGS ${ROCMDOC_DEB_CHANGELOG} changelog_top LIMIT_COUNT 1)
if(NOT changelog_top MATCHES "^rocmdoc \\(${PROJECT_VERSION}-${ROCMDOC_DEB_RELEASE}\\) ")
  message(FATAL_ERROR "packaging/debian/changelog: its first entry is '${changelog_top}', not rocmdoc "
                      "(${PROJECT_VERSION}-${ROCMDOC_DEB_RELEASE}); add an entry for this version")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rocmdoc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CONTACT "rocmdoc maintainers <maintainers@users.noreply.a-seed-7abb8f60.example>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${CPACK_PACKAGE_CONTACT})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${ROCMDOC_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The probes read pci.ids (lspci's database) and run lspci where it is.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pciutils, pci.ids")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "doctor and installer for AMD ROCm")
# CPack writes the summary as the synopsis and this, each line indented, as
# the extended description.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "rocmdoc reads the machine (the kernel's own files first) and says what is
wrong with a ROCm or PyTorch setup and what to type: check diagnoses,
explain names the cause of an error text or log, fix applies a finding's
fix with consent, install installs the AMD GPU driver, ROCm and PyTorch by
a plan that asks, resumes after a reboot and verifies.")
# /etc/rocmdoc/rules.d/README is a conffile: dpkg keeps a changed one, and
# purge removes it.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/conffiles "/etc/rocmdoc/rules.d/README\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/conffiles)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
